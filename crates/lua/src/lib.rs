//! Lua plug-ins: FCEUX and BizHawk bot scripts run as nesmind plug-ins.
//!
//! The script is a coroutine resumed once per frame at the plug-in callback point;
//! `emu.frameadvance()` yields back to the emulator. Pads the script sets hold for the
//! next frame only, as in both emulators. See docs/lua.md for the API tables.

mod api;
mod bit;
mod budget;
mod files;
mod gui;
mod pads;
mod sandbox;
mod settings;
mod shared;

pub use settings::Settings;
pub use shared::Dialect;

use mlua::{Lua, LuaOptions, StdLib, Table, Thread, ThreadStatus};
use nesmind_emu::AccessKind;
use nesmind_host::{Buttons, Frame, Plugin, PluginOptions, Rom, RomInfo, Setup};
use shared::{Shared, serving, with_shared};
use std::path::Path;
use std::sync::Arc;

/// `--plugin lua:SCRIPT.lua`.
pub const PREFIX: &str = "lua:";

/// Largest script read.
const MAX_SCRIPT: u64 = 16 << 20;

pub struct LuaPlugin {
    name: String,
    lua: Lua,
    thread: Thread,
    /// The prelude's side: lists of callbacks.
    internal: Table,
    /// Its functions and per-frame lists, looked up once.
    run: mlua::Function,
    fire: mlua::Function,
    after: Table,
    before: Table,
    settings: Settings,
    /// Access kinds the script's text names callbacks for, watched from the start.
    wants: Vec<AccessKind>,
    /// The script asks about lag frames.
    lag: bool,
    /// The failure that ends the run (`Plugin::error`).
    error: Option<String>,
    /// The script failed and the run goes on without it (`on-error=continue`).
    stopped: bool,
}

impl LuaPlugin {
    /// Reads and compiles `script` (a syntax error is reported here, before any frame).
    /// `rom_image` is the ROM file as loaded, for `rom.readbyte`.
    pub fn load(
        script: &Path,
        opts: &PluginOptions,
        rom_image: &[u8],
    ) -> Result<LuaPlugin, String> {
        let settings = Settings::from_options(opts)?;
        // Bytes, not text: scripts written for Windows emulators are often in a legacy
        // code page, which Lua reads as it reads UTF-8.
        let bytes = nesmind_host::files::read_capped(script, MAX_SCRIPT, "a Lua script")
            .map_err(|e| format!("cannot read Lua script '{}': {e}", script.display()))?;
        let code = chunk_text(&bytes);
        let source = String::from_utf8_lossy(code);
        let dialect = settings
            .dialect
            .unwrap_or_else(|| settings::detect(&source));
        let dir = script
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let dir = dir
            .canonicalize()
            .map_err(|e| format!("cannot resolve the folder of '{}': {e}", script.display()))?;
        let mut shared = Shared::new(Arc::from(rom_image), String::new(), dir.clone(), dialect);
        shared.parsed = Rom::parse(rom_image, "rom").ok();
        shared.unsafe_files = settings.unsafe_files;
        shared.rng = settings.seed.unwrap_or(0);
        shared.seed_fixed = settings.seed.is_some();
        shared.pad_count = settings.pads;
        let lua = Lua::new_with(StdLib::ALL_SAFE, LuaOptions::new())
            .map_err(|e| format!("cannot start Lua: {e}"))?;
        lua.set_app_data(shared);
        let fail = |e: mlua::Error| format!("cannot set up Lua: {}", describe(&e));
        let internal = lua.create_table().map_err(fail)?;
        setup(&lua, &internal, dialect, &dir, opts).map_err(fail)?;
        let chunk = lua
            .load(code)
            .set_name(format!("@{}", script.display()))
            .into_function()
            .map_err(|e| format!("Lua script {}", describe(&e)))?;
        let chunk = install_budget(&lua, chunk).map_err(fail)?;
        lua.set_memory_limit(settings.memory)
            .map_err(|e| format!("cannot limit Lua's memory: {e}"))?;
        let thread = lua.create_thread(chunk).map_err(fail)?;
        let get = |name: &str| internal.get::<mlua::Value>(name).map_err(fail);
        let (run, fire) = (get("run")?, get("fire")?);
        let (after, before) = (get("after")?, get("before")?);
        let cast = |v: mlua::Value| -> Result<Table, String> {
            v.as_table()
                .cloned()
                .ok_or_else(|| "the prelude lost a list".to_string())
        };
        let func = |v: mlua::Value| -> Result<mlua::Function, String> {
            v.as_function()
                .cloned()
                .ok_or_else(|| "the prelude lost a function".to_string())
        };
        Ok(LuaPlugin {
            run: func(run)?,
            fire: func(fire)?,
            after: cast(after)?,
            before: cast(before)?,
            name: format!("{PREFIX}{}", script.display()),
            lua,
            thread,
            internal,
            wants: settings::watched_kinds(&source),
            lag: settings::wants_lag(&source),
            settings,
            error: None,
            stopped: false,
        })
    }

    /// The prelude's callbacks, the script's slice, the prelude's again; the first error.
    fn run_slice(&self, hits: Vec<(String, u16, u8)>) -> mlua::Result<()> {
        if !hits.is_empty() {
            let (ids, rest): (Vec<String>, Vec<(u16, u8)>) =
                hits.into_iter().map(|(i, a, v)| (i, (a, v))).unzip();
            let (addrs, values): (Vec<u16>, Vec<u8>) = rest.into_iter().unzip();
            self.fire.call::<()>((ids, addrs, values))?;
        }
        // Most scripts register nothing: no call into Lua for an empty list.
        if !self.after.is_empty() {
            self.run.call::<()>(&self.after)?;
        }
        if self.thread.status() == ThreadStatus::Resumable {
            self.thread.resume::<()>(())?;
        }
        if !self.before.is_empty() {
            self.run.call::<()>(&self.before)?;
        }
        Ok(())
    }

    /// The memory callbacks this frame's watch hits call, in order.
    fn matched(&self, frame: &dyn Frame) -> Vec<(String, u16, u8)> {
        let hits = frame.watch_hits();
        // The frame just run lagged when the game read neither pad port in it.
        let polled = hits
            .iter()
            .any(|h| h.kind == AccessKind::Read && (0x4016..=0x4017).contains(&h.addr));
        with_shared(&self.lua, |s| {
            if let Some((count, lagged)) = s.lag.as_mut() {
                *lagged = !polled;
                *count += u64::from(!polled);
            }
            if hits.is_empty() {
                return Vec::new();
            }
            let mut out = Vec::new();
            for h in hits {
                for (id, kind, lo, hi) in &s.callbacks {
                    if *kind == h.kind && (*lo..=*hi).contains(&h.addr) {
                        out.push((id.clone(), h.addr, h.value));
                    }
                }
            }
            out
        })
        .unwrap_or_default()
    }
}

/// The script's code: without a UTF-8 byte-order mark (Windows editors write one, Lua
/// 5.1 does not skip it) and with a first `#!` line blanked, as `lua` itself does (the
/// line stays, so line numbers are the file's).
fn chunk_text(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match bytes.first() {
        Some(b'#') => {
            &bytes[bytes
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(bytes.len())..]
        }
        _ => bytes,
    }
}

/// Libraries, sandbox and prelude, in that order (the prelude uses the libraries).
fn setup(
    lua: &Lua,
    internal: &Table,
    dialect: Dialect,
    dir: &Path,
    opts: &PluginOptions,
) -> mlua::Result<()> {
    sandbox::install(lua)?;
    bit::install(lua)?;
    let n = api::install(lua)?;
    files::install(lua, &n)?;
    gui::install(lua, &n)?;
    internal.set("dir", dir.to_string_lossy().into_owned())?;
    let name = match dialect {
        Dialect::Fceux => "fceux",
        Dialect::BizHawk => "bizhawk",
    };
    lua.load(include_str!("prelude.lua"))
        .set_name("=nesmind prelude")
        .call::<()>((n, internal.clone(), name))?;
    let arg = lua.create_table()?;
    for (k, v) in opts {
        arg.set(k.as_str(), v.as_str())?;
    }
    lua.globals().set("arg", arg)
}

/// The budget's hook on the main thread (callbacks) and in the script's coroutine, whose
/// first act is to call the same function.
fn install_budget(lua: &Lua, chunk: mlua::Function) -> mlua::Result<mlua::Function> {
    // A C function: Lua calls it with the state of the thread it runs on.
    let set = unsafe { lua.create_c_function(budget::install)? };
    set.call::<()>(())?;
    lua.load("local set, chunk = ...; return function(...) set(); return chunk(...) end")
        .set_name("=nesmind budget")
        .call((set, chunk))
}

/// A Lua error as one message with the script's place and traceback.
fn describe(e: &mlua::Error) -> String {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            format!("{}\n{}", describe(cause), tidy(traceback))
        }
        mlua::Error::RuntimeError(m) | mlua::Error::SyntaxError { message: m, .. } => tidy(m),
        mlua::Error::MemoryError(_) => {
            "ran out of memory (the limit is --lua-arg memory-mb=N)".to_string()
        }
        other => other.to_string(),
    }
}

/// Drops the traceback's line for the tail call through the budget's wrapper, which is
/// nesmind's, not the script's.
fn tidy(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.contains("(tail call)"))
        .collect();
    lines.join("\n")
}

impl Plugin for LuaPlugin {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        "an FCEUX or BizHawk Lua script"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        setup.use_pads(self.settings.pads);
        for kind in &self.wants {
            setup.watch(*kind, 0..=0xFFFF);
        }
        if self.lag {
            setup.watch(AccessKind::Read, 0x4016..=0x4017);
        }
        let wants = self.wants.clone();
        let lag = self.lag;
        with_shared(&self.lua, |s| {
            s.watched = wants;
            s.lag = lag.then_some((0, false));
            s.rom_sha1 = rom.sha1_hex().to_ascii_lowercase();
            s.rom_crc32 = rom.crc32;
            // FCEUX gives the base name, without folder or extension.
            let name = Path::new(&rom.file_name);
            s.rom_name = name
                .file_stem()
                .unwrap_or(name.as_os_str())
                .to_string_lossy()
                .into_owned();
        })
        .map_err(|e| e.to_string())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        if self.stopped || self.error.is_some() {
            return;
        }
        let hits = self.matched(frame);
        budget::start(self.settings.budget);
        let _ = with_shared(&self.lua, |s| {
            s.pads = [Buttons::NONE; 4];
            s.status.clear();
        });
        let outcome = serving(frame, || self.run_slice(hits));
        let (pads, count, status) = with_shared(&self.lua, |s| {
            (s.pads, s.pad_count, std::mem::take(&mut s.status))
        })
        .unwrap_or(([Buttons::NONE; 4], 0, String::new()));
        for (pad, b) in pads.iter().enumerate().take(count) {
            frame.set_buttons(pad, *b);
        }
        if !status.is_empty() {
            frame.set_status(&status);
        }
        if let Err(e) = outcome {
            let message = describe(&e);
            if self.settings.keep_going {
                eprintln!(
                    "nesmind: {}: {message}\n(the game goes on without it)",
                    self.name
                );
                self.stopped = true;
            } else {
                self.error = Some(message);
            }
        }
    }
    fn on_detach(&mut self) {
        budget::start(self.settings.budget);
        let exit = self
            .internal
            .get::<Table>("exit")
            .and_then(|list| self.internal.get::<mlua::Function>("run")?.call::<()>(list));
        if let Err(e) = exit {
            log::warn!("{}: exit callback: {}", self.name, describe(&e));
        }
    }
    fn error(&self) -> Option<String> {
        self.error.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::chunk_text;

    #[test]
    fn bom_and_shebang_are_not_lua() {
        assert_eq!(chunk_text(b"\xEF\xBB\xBFprint(1)"), b"print(1)");
        assert_eq!(chunk_text(b"#!/usr/bin/lua\nprint(1)"), b"\nprint(1)");
        assert_eq!(chunk_text(b"#"), b"");
        assert_eq!(chunk_text(b"print(1)"), b"print(1)");
    }
}
