//! `nesmind ramsearch ROM`: finding a game's variables from the terminal while it runs, in
//! the window (played on the keyboard) or headless (buttons from the commands, or a replay).

use super::ramsearch_tool::{COMMANDS, Next, Tool};
use crate::emu::Rom;
use crate::frontend::interrupt::{self, Signal};
use crate::frontend::pacing::Speed;
use crate::host::replay::Player;
use crate::host::{Session, files};
use std::io::{BufRead, Write as _};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

#[derive(clap::Args, Debug)]
#[command(after_help = after_help())]
pub struct RamSearchArgs {
    /// The iNES or NES 2.0 ROM file.
    pub rom: PathBuf,
    /// Read the commands from FILE instead of the terminal; the first failing one ends the
    /// run with its line number.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// No window: frames run only when a command asks (`run N`, `press`).
    #[arg(long)]
    pub headless: bool,
    /// Play the input recorded in FILE (it overrides held buttons and the keyboard).
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Window speed: max, 1 (real time) or a multiple such as 0.5.
    #[arg(long, value_name = "max|1|N")]
    pub speed: Option<Speed>,
    #[command(flatten)]
    pub window: super::window_flags::WindowFlags,
}

/// The help's example; `ramsearch_cli.rs` runs it as `--help` prints it.
const EXAMPLE: &str = "  run 600\n  new\n  press 1 right\n  run 2\n  +1\n  press 1 down\n  \
                           run 2\n  +7\n  show\n  name cursor\n  export cursor.ron\n";

fn after_help() -> String {
    format!(
        "{COMMANDS}\n\nExample (the DOTS cart's cursor: `nesmind ramsearch plugins/spot/cart/dots.nes`;\n\
         the title starts a game by itself after 5 s):\n{EXAMPLE}\n\
         Anchors: the RAM search windows of FCEUX and Nintaco. The exported RON lists the game's\n\
         CRC32 and each named variable's address, width and value."
    )
}

/// Where the commands come from: a script's lines (numbered) or the terminal's.
struct Source {
    lines: mpsc::Receiver<(usize, String)>,
    script: Option<String>,
}

/// The largest --script read: a session's commands take a few KiB.
const MAX_SCRIPT: u64 = 16 << 20;

/// Shown on stderr when the next command is read from the terminal (stdout stays the
/// tool's answers, for pipes).
const PROMPT: &str = "ramsearch> ";

impl Source {
    fn open(script: Option<&PathBuf>) -> Result<Source, String> {
        let (tx, rx) = mpsc::channel();
        match script {
            Some(path) => {
                let text = files::read_capped_text(path, MAX_SCRIPT, "a ramsearch script")
                    .map_err(|e| format!("cannot read the script {}: {e}", path.display()))?;
                for (n, l) in text.lines().enumerate() {
                    let _ = tx.send((n + 1, l.to_string()));
                }
            }
            // The terminal is read on a thread of its own so the window keeps running.
            None => {
                std::thread::spawn(move || {
                    for (n, l) in std::io::stdin().lock().lines().enumerate() {
                        let Ok(l) = l else { break };
                        if tx.send((n + 1, l)).is_err() {
                            break;
                        }
                    }
                });
            }
        }
        Ok(Source {
            lines: rx,
            script: script.map(|p| p.display().to_string()),
        })
    }

    /// The next command; `Err` with the signal when SIGTERM or SIGHUP ends the session
    /// while it waits, `Ok(None)` at the end of the script or the terminal's input.
    fn next(&self) -> Result<Option<(usize, String)>, Signal> {
        loop {
            // Woken now and then: a signal does not interrupt the wait.
            match self.lines.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => return Ok(Some(line)),
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Some(signal) = interrupt::requested().filter(|s| !s.is_sigint()) {
                return Err(signal);
            }
        }
    }

    /// The prompt, when commands come from the terminal (or a pipe) rather than a script.
    fn prompt(&self) {
        if self.script.is_none() {
            eprint!("{PROMPT}");
            let _ = std::io::stderr().flush();
        }
    }

    /// A failed command: the end of a script; in the terminal, a message and the next one.
    fn failed(&self, line: usize, e: String) -> Result<(), String> {
        match &self.script {
            Some(file) => Err(format!("{file} line {line}: {e}")),
            None => {
                eprintln!("error: {e}");
                Ok(())
            }
        }
    }
}

/// Returns the exit status: 0, or 128 + the signal (SIGTERM, SIGHUP) that ended the session.
pub fn ramsearch(args: RamSearchArgs) -> Result<i32, String> {
    super::run::check_outputs(&[("--capture", args.window.capture.as_ref())])?;
    let rom = Rom::load(&args.rom)?;
    let mut session = Session::new(rom)?;
    session.machine_mut().set_audio_enabled(!args.headless);
    if let Some(path) = &args.replay {
        session.replay(Player::load(path, session.rom(), false)?);
    }
    let mut tool = Tool::new(!session.machine().prg_ram().is_empty());
    let source = Source::open(args.script.as_ref())?;
    // Ctrl+C stops the running command; a second one while a command runs on regardless
    // (or at the prompt) ends the session. SIGTERM and SIGHUP end it at once.
    interrupt::install()?;
    let ended = if args.headless {
        headless(&mut session, &mut tool, &source)?
    } else {
        crate::frontend::display::check().map_err(|why| {
            format!("cannot open a window: {why}. Add --headless to run the commands without one")
        })?;
        window(&mut session, &mut tool, &source, &args)?
    };
    println!("frame {}", session.machine().frame_number());
    Ok(ended.map_or(0, |signal| {
        println!("interrupted by {}", signal.name());
        signal.exit_status()
    }))
}

/// What a signal does to the command that `frames_left` frames are still owed to:
/// `Some` when the signal ends the session.
fn on_signal(session: &Session, tool: &mut Tool, frames_left: u64) -> Option<Signal> {
    let signal = interrupt::requested()?;
    if frames_left > 0 {
        tool.interrupted(session, frames_left);
    }
    if !signal.is_sigint() {
        return Some(signal);
    }
    if frames_left > 0 {
        // Dealt with: the next Ctrl+C stops the next command instead of ending the process.
        interrupt::clear();
    }
    None
}

/// Commands from the source, frames only when they ask; `Some` with the signal that ended
/// the session.
fn headless(
    session: &mut Session,
    tool: &mut Tool,
    source: &Source,
) -> Result<Option<Signal>, String> {
    source.prompt();
    loop {
        let (n, line) = match source.next() {
            Ok(Some(line)) => line,
            Ok(None) => return Ok(None),
            Err(signal) => return Ok(Some(signal)),
        };
        // A Ctrl+C at the prompt is forgotten: it stops commands, not the one to come.
        interrupt::clear();
        match tool.exec(session, &line) {
            Ok(Next::Frames(frames)) => {
                for left in (0..frames).rev() {
                    if interrupt::requested().is_some() {
                        match on_signal(session, tool, left + 1) {
                            Some(signal) => return Ok(Some(signal)),
                            None => break,
                        }
                    }
                    for pad in 0..4 {
                        session.set_human_buttons(pad, tool.held(pad));
                    }
                    session.step()?;
                    tool.after_frame(session, left);
                }
            }
            Ok(Next::Go) => {}
            Ok(Next::Quit) => return Ok(None),
            Err(e) => source.failed(n, e)?,
        }
        source.prompt();
    }
}

#[cfg(feature = "sdl")]
fn window(
    session: &mut Session,
    tool: &mut Tool,
    source: &Source,
    args: &RamSearchArgs,
) -> Result<Option<Signal>, String> {
    use crate::frontend::window;
    let stem = args
        .rom
        .file_stem()
        .map_or_else(|| "nesmind".into(), |s| s.to_string_lossy().into_owned());
    let opts = args
        .window
        .options(args.speed.unwrap_or(Speed::Times(1.0)), None, None, stem)?;
    let (mut wait, mut ran, mut prompted) = (0u64, false, false);
    // A Ctrl+C at the prompt, left counted (as headless) until the next command comes.
    let mut idle_sigint = false;
    let mut ended = None;
    let mut between = |session: &mut Session| -> Result<bool, String> {
        if ran {
            if wait > 0 {
                wait -= 1;
                tool.after_frame(session, wait);
            } else {
                tool.after_free_frame(session);
            }
        }
        ran = true;
        if interrupt::requested().is_some() && !idle_sigint {
            if let Some(signal) = on_signal(session, tool, wait) {
                ended = Some(signal);
                return Ok(false);
            }
            idle_sigint = wait == 0;
            wait = 0;
            prompted = false;
        }
        while wait == 0 {
            let Ok((n, line)) = source.lines.try_recv() else {
                break;
            };
            interrupt::clear();
            (prompted, idle_sigint) = (false, false);
            match tool.exec(session, &line) {
                Ok(Next::Frames(frames)) => wait = frames,
                Ok(Next::Go) => {}
                Ok(Next::Quit) => return Ok(false),
                Err(e) => source.failed(n, e)?,
            }
        }
        if wait == 0 && !prompted {
            source.prompt();
            prompted = true;
        }
        for pad in 0..4 {
            let held = tool.held(pad);
            // The keyboard plays a pad the commands leave alone.
            if !held.is_empty() {
                session.set_human_buttons(pad, held);
            }
        }
        Ok(true)
    };
    window::run_with(session, &opts, false, &mut between)?;
    Ok(ended)
}

#[cfg(not(feature = "sdl"))]
fn window(
    _: &mut Session,
    _: &mut Tool,
    _: &Source,
    _: &RamSearchArgs,
) -> Result<Option<Signal>, String> {
    Err("this build has no window (built without the `sdl` feature); add --headless".into())
}
