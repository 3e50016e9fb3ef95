//! `nesmind run`: one ROM, optionally a plug-in, in the window or headless.

use super::battery;
use super::retro_run;
use super::window_flags::WindowFlags;
use crate::emu::Rom;
use crate::frontend::pacing::Speed;
use crate::frontend::{headless, interrupt};
use crate::host::external::{self, External};
use crate::host::files;
use crate::host::replay::{Event, Player, Recorder};
use crate::host::{PadOwner, Plugin, PluginOptions, Session, parse_option};
use nesmind_lua::LuaPlugin;
use nesmind_retro::FceuState;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
#[command(after_help = run_help())]
pub struct RunArgs {
    /// The iNES or NES 2.0 ROM file.
    pub rom: PathBuf,
    /// Plug-in to attach: an in-tree name (see `nesmind plugins`), `ext:COMMAND` for an
    /// external program speaking the line protocol (see plugins/examples/), or
    /// `lua:SCRIPT.lua` for an FCEUX or BizHawk Lua script (docs/lua.md).
    #[arg(long, value_name = "NAME")]
    pub plugin: Option<String>,
    /// Run an FCEUX or BizHawk Lua script (the same as --plugin lua:SCRIPT).
    #[arg(long, value_name = "SCRIPT", conflicts_with = "plugin")]
    pub lua: Option<PathBuf>,
    /// An argument for the Lua script, in its `arg` table (repeatable); also nesmind's
    /// settings for it: budget=N, memory-mb=N, seed=N, dialect=fceux|bizhawk,
    /// on-error=stop|continue, pads=N (docs/lua.md).
    #[arg(long = "lua-arg", value_name = "KEY=VALUE", value_parser = parse_option)]
    pub lua_arg: Vec<(String, String)>,
    /// Let the Lua script read and write files anywhere, run programs and load native
    /// modules (by default it may touch files under its own folder only).
    #[arg(long = "lua-unsafe")]
    pub lua_unsafe: bool,
    /// A plug-in option (repeatable); overrides the same key from --plugin-opts.
    #[arg(long = "plugin-opt", value_name = "KEY=VALUE", value_parser = parse_option)]
    pub plugin_opt: Vec<(String, String)>,
    /// A RON file with plug-in options, e.g. {"depth": "3", "seed": "7"}.
    #[arg(long = "plugin-opts", value_name = "FILE")]
    pub plugin_opts: Option<PathBuf>,
    /// Run without a window (needs --frames, or --replay to run the replay's length).
    #[arg(long)]
    pub headless: bool,
    /// Speed: max, 1 (real time, 60.0988 fps) or a multiple such as 0.5 or 4
    /// [default: max headless, 1 in the window].
    #[arg(long, value_name = "max|1|N")]
    pub speed: Option<Speed>,
    /// Stop after this many frames.
    #[arg(long, value_name = "N")]
    pub frames: Option<u64>,
    /// Who drives pad N (1-4): the plug-in or the keyboard (repeatable).
    /// Default: the plug-in drives every pad when one is attached.
    #[arg(long = "pad", value_name = "N=plugin|keyboard", value_parser = parse_pad)]
    pub pads: Vec<(usize, PadOwner)>,
    /// Record every frame's pad input and a state hash into FILE (with --state, and F9 in
    /// the window, the states loaded too, so the replay starts and goes where the run did).
    #[arg(long, value_name = "FILE", conflicts_with = "replay")]
    pub record: Option<PathBuf>,
    /// Frames between state hashes in a recording.
    #[arg(long = "hash-every", value_name = "N", default_value_t = 60)]
    pub hash_every: u64,
    /// Play the input recorded in FILE (from power-on).
    #[arg(long, value_name = "FILE", conflicts_with = "state")]
    pub replay: Option<PathBuf>,
    /// Play the input of another emulator's movie: a stable-retro `.bk2` (from the state it
    /// holds) or an FCEUX `.fm2` (from power-on); runs its length unless --frames says.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["replay", "state"])]
    pub movie: Option<PathBuf>,
    /// With --replay: check the recorded state hashes and report the first frame that differs.
    #[arg(long, requires = "replay")]
    pub verify: bool,
    /// Save the last frame's emulated picture as a 256x240 PNG (in the window: read back
    /// from what it drew, without the overlay).
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<PathBuf>,
    /// Load this savestate before the first frame: a nesmind savestate, or a stable-retro
    /// (FCEUmm) `.state` (`nesmind retro state FILE` names its board), which starts at the
    /// frame it was saved after, with the sound silent until the game writes it. With
    /// --retro, also a state of the integration by name (e.g. Level1-1).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Score the run as the stable-retro integration GAME does (e.g. SuperMarioBros-Nes-v0):
    /// the ROM must be the one it was made for, play starts from its default state (or
    /// --state), its variables, reward and end are evaluated after every frame, and the
    /// run ends with the episode.
    #[arg(long, value_name = "GAME")]
    pub retro: Option<String>,
    /// With --retro: the scenario, by name (NAME.json in the integration's folder) or file
    /// [default: scenario.json].
    #[arg(long, value_name = "NAME", requires = "retro")]
    pub scenario: Option<String>,
    /// With --retro: stable-retro's data folder, or a folder of integration folders
    /// [default: $NESMIND_RETRO_DATA, else the installed stable_retro package's].
    #[arg(long = "retro-data", value_name = "DIR", requires = "retro")]
    pub retro_data: Option<PathBuf>,
    /// Write a savestate at the end of the run.
    #[arg(long = "save-state", value_name = "FILE")]
    pub save_state: Option<PathBuf>,
    /// Battery RAM file for a cartridge with a battery: loaded at start, written at the
    /// end [default in the window: ROM.sav beside the ROM, or in
    /// ~/.local/share/nesmind/saves when that folder is not writable; headless: none].
    #[arg(long, value_name = "FILE")]
    pub sav: Option<PathBuf>,
    /// Neither load nor write battery RAM.
    #[arg(long = "no-sav", conflicts_with = "sav")]
    pub no_sav: bool,
    /// Write the mixed sound of a headless run to FILE (16-bit PCM WAV at 48 kHz).
    #[arg(long, value_name = "FILE", requires = "headless")]
    pub wav: Option<PathBuf>,
    #[command(flatten)]
    pub window: WindowFlags,
    /// The emulator's shortcuts, as `test-roms` takes them: `--lockstep` checks that a
    /// plug-in-driven run (a replay, an external driver) goes the same with all of them off.
    #[command(flatten)]
    pub speedups: super::SpeedupFlags,
}

impl RunArgs {
    /// The options that decide the battery save.
    fn sav_flags(&self) -> battery::SavFlags<'_> {
        battery::SavFlags {
            rom: &self.rom,
            sav: self.sav.as_ref(),
            no_sav: self.no_sav,
            replaying: self.record.is_some() || self.replay.is_some(),
            headless: self.headless,
        }
    }
}

const EXAMPLES: &str = "\
Examples:
  nesmind run game.nes                                   play in the window
  nesmind run game.nes --plugin spot --headless --frames 36000
  nesmind run game.nes --plugin 'ext:python3 plugins/examples/start_presser.py' --headless --frames 600
  nesmind run game.nes --lua bot.lua --lua-arg seed=3 --headless --frames 3600
  nesmind run smb.nes --retro SuperMarioBros-Nes-v0 --state Level1-1 --plugin NAME --headless --frames 5000
  nesmind run game.nes --headless --frames 600 --record run.replay
  nesmind run game.nes --headless --replay run.replay --verify";

/// Examples, window keys, the input file's format and logging.
fn run_help() -> String {
    #[cfg(feature = "sdl")]
    let window = format!(
        "{}\n\n{}",
        crate::frontend::window::KEYS_HELP,
        crate::frontend::input::FORMAT_HELP
    );
    #[cfg(not(feature = "sdl"))]
    let window = "This build has no window (built without the `sdl` feature).".to_string();
    format!("{EXAMPLES}\n\n{window}\n\nLogging: RUST_LOG=info (or debug, trace) nesmind run ...")
}

fn parse_pad(s: &str) -> Result<(usize, PadOwner), String> {
    let bad = || format!("'{s}' is not N=plugin or N=keyboard with N 1-4");
    let (n, who) = s.split_once('=').ok_or_else(bad)?;
    let n: usize = n
        .trim()
        .parse()
        .ok()
        .filter(|n| (1..=4).contains(n))
        .ok_or_else(bad)?;
    let owner = match who.trim().to_ascii_lowercase().as_str() {
        "plugin" => PadOwner::Plugin,
        "keyboard" | "human" => PadOwner::Human,
        _ => return Err(bad()),
    };
    Ok((n - 1, owner))
}

/// The largest ROM file read for a Lua script: the loader's own cap.
const MAX_ROM: u64 = crate::emu::rom::MAX_FILE;

/// The largest --plugin-opts file read: a few options take a few hundred bytes.
const MAX_OPTIONS: u64 = 1 << 20;

/// Options from the RON file, then the command line's on top.
pub fn plugin_options(
    file: Option<&Path>,
    pairs: &[(String, String)],
) -> Result<PluginOptions, String> {
    let mut opts = match file {
        Some(f) => {
            let text = files::read_capped_text(f, MAX_OPTIONS, "a plug-in options file")
                .map_err(|e| format!("cannot read --plugin-opts '{}': {e}", f.display()))?;
            ron::from_str::<PluginOptions>(&text).map_err(|e| {
                format!("--plugin-opts '{}': expected a RON map of strings like {{\"key\": \"value\"}}: {e}", f.display())
            })?
        }
        None => PluginOptions::new(),
    };
    opts.extend(pairs.iter().cloned());
    Ok(opts)
}

/// An in-tree plug-in by name, an external program for `ext:COMMAND`, or a Lua script
/// for `lua:SCRIPT` (`rom_image`, the ROM file's bytes, serves its `rom.readbyte`).
pub fn create_plugin(
    name: &str,
    opts: &PluginOptions,
    rom_image: &[u8],
) -> Result<Box<dyn Plugin>, String> {
    if let Some(command) = name.strip_prefix(external::PREFIX) {
        return Ok(Box::new(External::spawn(command, opts)?));
    }
    if let Some(script) = name.strip_prefix(nesmind_lua::PREFIX) {
        return Ok(Box::new(LuaPlugin::load(
            Path::new(script),
            opts,
            rom_image,
        )?));
    }
    let entry = crate::plugins::find(name)?;
    (entry.create)(opts).map_err(|e| format!("cannot create plug-in '{}': {e}", entry.name))
}

/// Builds the session the flags describe (ROM, plug-in, pads, state, replay).
pub fn build_session(args: &RunArgs) -> Result<Session, String> {
    let rom = Rom::load(&args.rom)?;
    if let Some(warning) = rom.machine_warning() {
        eprintln!("nesmind: warning: {warning}");
    }
    let mut session = Session::new(rom)?;
    // Before anything runs; loaded states and power cycles keep it (HostSettings).
    session.machine_mut().set_speedups(args.speedups.speedups());
    let humans: Vec<usize> = args
        .pads
        .iter()
        .filter(|(_, o)| *o == PadOwner::Human)
        .map(|(p, _)| *p)
        .collect();
    let lua = args
        .lua
        .as_ref()
        .map(|script| format!("{}{}", nesmind_lua::PREFIX, script.display()));
    if lua.is_none() && (!args.lua_arg.is_empty() || args.lua_unsafe) {
        return Err("--lua-arg/--lua-unsafe need --lua SCRIPT".into());
    }
    let retro = match &args.retro {
        Some(game) => Some(retro_run::prepare(
            game,
            args.retro_data.as_deref(),
            &args.rom,
            args.state.as_deref(),
            args.scenario.as_deref(),
        )?),
        None => None,
    };
    let plugin = match lua.as_ref().or(args.plugin.as_ref()) {
        Some(name) => {
            let mut opts = plugin_options(args.plugin_opts.as_deref(), &args.plugin_opt)?;
            opts.extend(args.lua_arg.iter().cloned());
            if args.lua_unsafe {
                opts.insert("unsafe".into(), "true".into());
            }
            // Read again (Rom keeps the parts, not the file) for the script's `rom.readbyte`.
            let image = match name.starts_with(nesmind_lua::PREFIX) {
                true => files::read_capped(&args.rom, MAX_ROM, "a ROM")
                    .map_err(|e| format!("cannot read '{}': {e}", args.rom.display()))?,
                false => Vec::new(),
            };
            Some(create_plugin(name, &opts, &image)?)
        }
        None => {
            if let Some((p, _)) = args.pads.iter().find(|(_, o)| *o == PadOwner::Plugin) {
                return Err(format!("--pad {}=plugin needs --plugin NAME", p + 1));
            }
            if !args.plugin_opt.is_empty() || args.plugin_opts.is_some() {
                return Err("--plugin-opt/--plugin-opts need --plugin NAME".into());
            }
            None
        }
    };
    // The state --retro resolved (by name, or the integration's default); a replay brings
    // its own.
    let state = match &retro {
        Some(r) if args.replay.is_none() => r.state.clone(),
        Some(_) => None,
        None => args.state.clone(),
    };
    match (retro, plugin) {
        (Some(r), plugin) => {
            // Alone, the evaluation drives no pad: the keyboard or the replay does.
            let humans = match plugin.is_some() {
                true => humans,
                false => (0..4).collect(),
            };
            session.attach(Box::new(retro_run::Scored::new(r, plugin)), &humans)?;
        }
        (None, Some(plugin)) => session.attach(plugin, &humans)?,
        (None, None) => {}
    }
    if let Some(path) = &battery::path(&args.sav_flags(), &session)? {
        files::check_writable(path).map_err(|e| format!("battery save: {e}"))?;
        battery::load(path, &mut session)?;
    }
    if let Some(path) = &args.record {
        if args.hash_every == 0 {
            return Err("--hash-every must be at least 1".into());
        }
        session.record(Recorder::new(path, session.rom(), args.hash_every));
    }
    // After the recorder: a recording that starts from a state keeps it (a `load` record),
    // so its replay starts there too.
    if let Some(state) = &state {
        load_state(&mut session, state)?;
    }
    if let Some(path) = &args.replay {
        session.replay(Player::load(path, session.rom(), args.verify)?);
    }
    if let Some(path) = &args.movie {
        play_movie(&mut session, path)?;
    }
    Ok(session)
}

/// A `.bk2` or `.fm2` movie's start state (if any) loaded, and its input playing.
fn play_movie(session: &mut Session, path: &Path) -> Result<(), String> {
    let bytes = files::read_capped(path, nesmind_retro::movie::MAX_FILE, "a movie")
        .map_err(|e| format!("cannot read --movie '{}': {e}", path.display()))?;
    let movie = nesmind_retro::movie::Movie::parse(&bytes)
        .map_err(|e| format!("--movie '{}': {e}", path.display()))?;
    if let Some(state) = &movie.start_state {
        let machine = nesmind_retro::parts::load(state, session.rom())
            .map_err(|e| format!("--movie '{}': its start state: {e}", path.display()))?;
        session.load_machine(machine)?;
    }
    let mut events = std::collections::BTreeMap::<u64, Vec<Event>>::new();
    for &(frame, command) in &movie.commands {
        events.entry(frame).or_default().push(match command {
            nesmind_retro::movie::Command::Reset => Event::Reset,
            nesmind_retro::movie::Command::Power => Event::Power,
        });
    }
    session.replay(Player::from_input(movie.pads, events, movie.four_score));
    Ok(())
}

/// A nesmind savestate, or a stable-retro state (told apart by their first bytes).
fn load_state(session: &mut Session, path: &Path) -> Result<(), String> {
    // Capped as the savestate loader caps its read (an FCEUmm state is smaller still).
    let read = files::read_capped(path, crate::host::savestate::MAX_FILE, "a savestate");
    match read {
        Ok(bytes) if FceuState::looks_like(&bytes) => {
            let machine = nesmind_retro::parts::load(&bytes, session.rom())
                .map_err(|e| format!("cannot load stable-retro state '{}': {e}", path.display()))?;
            Ok(session.load_machine(machine)?)
        }
        // Unreadable files too: the savestate loader says why.
        _ => Ok(session.load_state(path)?),
    }
}

/// Every output path (flag, path if given) is checked before the run, so a typo costs no
/// emulation, and no human session in the window (`run`, `demo`, `ramsearch`).
pub fn check_outputs(outputs: &[(&str, Option<&PathBuf>)]) -> Result<(), String> {
    for (flag, path) in outputs {
        if let Some(path) = path {
            files::check_writable(path).map_err(|e| format!("{flag}: {e}"))?;
        }
    }
    Ok(())
}

/// Screenshot, savestate and recording are written even when the run stopped early, each
/// on its own: one that fails is reported and the others are still written.
fn finish_outputs(session: &mut Session, args: &RunArgs, screenshot: bool) -> Vec<String> {
    let mut failed = Vec::new();
    if let Some(path) = args.screenshot.as_ref().filter(|_| screenshot)
        && let Err(e) =
            crate::frontend::png::save_drawn(path, session.machine().picture(), session.drawing())
    {
        failed.push(format!("--screenshot: {e}"));
    }
    if let Some(path) = &args.save_state
        && let Err(e) = session.save_state(path)
    {
        failed.push(format!("--save-state: {e}"));
    }
    if let Err(e) = session.finish_recording() {
        failed.push(format!("--record: {e}"));
    }
    // Decided again rather than carried: the answer depends only on the flags and the ROM.
    match battery::path(&args.sav_flags(), session) {
        Ok(Some(path)) => {
            if let Err(e) = battery::save(&path, session) {
                failed.push(format!("battery save: {e}"));
            }
        }
        Ok(None) => {}
        Err(e) => failed.push(e),
    }
    failed
}

/// All that went wrong, one `nesmind:` line each (`main` prefixes the first).
fn failure(failed: Vec<String>) -> Result<(), String> {
    if failed.is_empty() {
        return Ok(());
    }
    Err(failed.join("\nnesmind: "))
}

/// Returns the exit status: 0, the one a plug-in's quit request asked for, or 128 + the
/// signal that interrupted the run (after its outputs were written).
pub fn run(args: RunArgs) -> Result<i32, String> {
    if args.frames == Some(0) {
        return Err("--frames must be at least 1".into());
    }
    check_outputs(&[
        ("--screenshot", args.screenshot.as_ref()),
        ("--save-state", args.save_state.as_ref()),
        ("--record", args.record.as_ref()),
        ("--capture", args.window.capture.as_ref()),
    ])?;
    interrupt::install()?;
    if !args.headless {
        crate::frontend::display::check().map_err(|why| {
            format!("cannot open a window: {why}. Add --headless --frames N to run without one")
        })?;
        return window(args);
    }
    let mut session = build_session(&args)?;
    let frames = args
        .frames
        .or(session.replay_len())
        .ok_or("--headless needs --frames N (or --replay/--movie FILE, which runs its length)")?;
    // Synthesis is skipped entirely unless a WAV is wanted (timing-relevant APU parts still run).
    session.machine_mut().set_audio_enabled(args.wav.is_some());
    // Opened before the run, so a path that cannot be written costs no emulation.
    let rate = session.machine().sample_rate();
    let mut wav = args
        .wav
        .as_deref()
        .map(|path| crate::frontend::wav::WavWriter::create(path, rate))
        .transpose()?;
    let outcome = headless::run(
        &mut session,
        frames,
        args.speed.unwrap_or(Speed::Max),
        wav.as_mut(),
    );
    let mut failed = Vec::new();
    // The sound of the frames that ran is kept even when the run stopped on an error.
    if let Some(Err(e)) = wav.map(|w| w.finish()) {
        failed.push(format!("--wav: {e}"));
    }
    failed.extend(finish_outputs(&mut session, &args, true));
    let detached = session.detach();
    let summary = match outcome {
        Ok(summary) => summary,
        Err(e) => {
            failed.insert(0, e);
            return failure(failed).map(|()| 1);
        }
    };
    for line in summary.lines() {
        println!("{line}");
    }
    if summary.result.is_none()
        && let Some(r) = detached
    {
        println!("plugin result after detach: {r}");
    }
    if let Some(Err(why)) = &summary.verdict {
        failed.push(why.clone());
    }
    failure(failed)?;
    if let Some(signal) = summary.interrupted {
        return Ok(signal.exit_status());
    }
    Ok(summary.quit.map_or(0, |q| q.code))
}

#[cfg(feature = "sdl")]
fn window(args: RunArgs) -> Result<i32, String> {
    use crate::frontend::window;
    let stem = args
        .rom
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "nesmind".into());
    let opts = args.window.options(
        args.speed.unwrap_or(Speed::Times(1.0)),
        args.frames,
        args.screenshot.clone(),
        stem,
    )?;
    let mut session = build_session(&args)?;
    let outcome = window::run(&mut session, &opts);
    // The window wrote its own screenshot from its pixels.
    let mut failed = finish_outputs(&mut session, &args, false);
    session.detach();
    if let Err(e) = outcome {
        failed.insert(0, e);
    }
    match session.verdict() {
        Some(Ok(n)) => println!("replay verified ({n} state hashes match)"),
        Some(Err(e)) => failed.push(e.to_string()),
        None => {}
    }
    failure(failed)?;
    if let Some(signal) = interrupt::requested() {
        println!("interrupted by {}", signal.name());
        return Ok(signal.exit_status());
    }
    Ok(session.quit().map_or(0, |q| {
        println!("plugin quit with status {}: {}", q.code, q.message);
        q.code
    }))
}

#[cfg(not(feature = "sdl"))]
fn window(_args: RunArgs) -> Result<i32, String> {
    Err("this build has no window (built without the `sdl` feature); add --headless".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn options_from_file_then_flags() {
        let path = std::env::temp_dir().join(format!("nesmind-opts-{}.ron", std::process::id()));
        std::fs::write(&path, r#"{"depth": "3", "seed": "7"}"#).unwrap();
        let o = plugin_options(Some(&path), &[("seed".into(), "9".into())]).unwrap();
        assert_eq!((o["depth"].as_str(), o["seed"].as_str()), ("3", "9"));
        std::fs::write(&path, "[1, 2]").unwrap();
        assert!(
            plugin_options(Some(&path), &[])
                .unwrap_err()
                .contains("RON map")
        );
        assert_eq!(parse_pad("2=keyboard"), Ok((1, PadOwner::Human)));
        assert!(parse_option("novalue").is_err());
    }
}
