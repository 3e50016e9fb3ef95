//! BizHawk's `savestate.save(path)`/`load(path)` and memory watches for the callbacks:
//! the primitives that need more than the frame.

use crate::api::addr;
use crate::sandbox::resolve;
use crate::shared::{with_frame, with_shared};
use mlua::{Lua, Result, Table};
use nesmind_emu::AccessKind;
use nesmind_host::{Fork, files, savestate};

/// Largest savestate file read (a machine is some tens of KiB of text).
const MAX_STATE: u64 = 16 << 20;

pub fn install(lua: &Lua, n: &Table) -> Result<()> {
    n.set(
        "save_file",
        lua.create_function(|lua, path: String| {
            let fork = with_frame(lua, |f| f.fork())?
                .ok_or_else(|| mlua::Error::runtime("this host cannot save states"))?;
            with_shared(lua, |s| {
                let path = resolve(s, &path)?;
                let rom = s.parsed.as_ref().ok_or("the ROM is not known here")?;
                let text = savestate::encode(fork.machine(), rom).map_err(|e| e.to_string())?;
                files::write_atomic(&path, text.as_bytes())
                    .map_err(|e| format!("cannot write '{}': {e}", path.display()))
            })?
            .map_err(mlua::Error::runtime)
        })?,
    )?;
    n.set(
        "load_file",
        lua.create_function(|lua, path: String| {
            let machine = with_shared(lua, |s| {
                let path = resolve(s, &path)?;
                let rom = s.parsed.as_ref().ok_or("the ROM is not known here")?;
                let bytes = files::read_capped(&path, MAX_STATE, "a savestate")
                    .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("'{}' is not a nesmind savestate", path.display()))?;
                savestate::decode(&text, rom).map_err(|e| format!("'{}': {e}", path.display()))
            })?
            .map_err(mlua::Error::runtime)?;
            crate::api::restore(lua, &Fork::new(&machine))
        })?,
    )?;
    n.set(
        "watch",
        lua.create_function(|lua, (id, kind, lo, hi): (String, String, f64, f64)| {
            let kind = match kind.as_str() {
                "write" => AccessKind::Write,
                "read" => AccessKind::Read,
                _ => AccessKind::Execute,
            };
            with_shared(lua, |s| {
                if !s.watched.contains(&kind) {
                    log::warn!(
                        "a memory {kind:?} callback was registered but the script's text did not name one when it was loaded, so it will not fire"
                    );
                }
                s.callbacks.push((id, kind, addr(lo), addr(hi)));
            })
        })?,
    )?;
    n.set(
        "unwatch",
        lua.create_function(|lua, id: String| {
            with_shared(lua, |s| s.callbacks.retain(|c| c.0 != id))
        })?,
    )?;
    Ok(())
}
