//! Plug-ins that misbehave cannot take nesmind down: each run below ends promptly with an
//! error naming the plug-in and what it did, in bounded memory, and leaves no process
//! behind. The external ones are the small scripts in `tests/plugins/`.

use nesmind::emu::{Machine, Rom};
use nesmind::host::external::External;
use nesmind::host::replay::{Player, Recorder};
use nesmind::host::savestate::state_hash;
use nesmind::host::{Frame, Plugin, PluginOptions, RomInfo, Session, Setup, StepError};
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

const DOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/plugins/spot/cart/dots.nes");

fn script(name: &str) -> String {
    format!("ext:sh {}/tests/plugins/{name}", env!("CARGO_MANIFEST_DIR"))
}

struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
}

/// Runs nesmind on the DOTS cart and reads its output to the end, which comes only when
/// nesmind and everything holding its output have exited. Fails after `deadline`.
fn nesmind(args: &[&str], deadline: Duration) -> Outcome {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(["run", DOTS, "--headless"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = channel();
    for mut pipe in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            let _ = tx.send(text);
        });
    }
    let mut texts = Vec::new();
    for _ in 0..2 {
        match rx.recv_timeout(deadline.saturating_sub(start.elapsed())) {
            Ok(t) => texts.push(t),
            Err(_) => {
                let _ = child.kill();
                panic!("nesmind {args:?} or something it started still runs after {deadline:?}");
            }
        }
    }
    let code = child.wait().unwrap().code();
    // Which pipe finished first is unknown: stdout has the run's summary lines.
    let (stdout, stderr) = if texts[0].contains("nesmind:") || texts[1].starts_with("frames") {
        (texts.remove(1), texts.remove(0))
    } else {
        (texts.remove(0), texts.remove(0))
    };
    Outcome {
        code,
        stdout,
        stderr,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn fails_with(name: &str, opts: &[&str], problem: &str) {
    let plugin = script(name);
    let mut args = vec!["--frames", "600", "--plugin", &plugin];
    for o in opts {
        args.extend(["--plugin-opt", o]);
    }
    let o = nesmind(&args, Duration::from_secs(30));
    assert_eq!(o.code, Some(1), "{name}: {}{}", o.stdout, o.stderr);
    assert!(
        o.stderr.contains(&format!("plug-in '{plugin}' failed")) && o.stderr.contains(problem),
        "{name}: {}",
        o.stderr
    );
    println!("{name}: {:.2} s: {}", o.seconds, o.stderr.trim());
}

#[test]
fn endless_status_lines_are_cut_off() {
    fails_with("status_flood.sh", &[], "lines for frame");
}

#[test]
fn a_line_without_end_is_cut_off() {
    fails_with("endless_line.sh", &[], "longer than 4096 bytes");
}

#[test]
fn answers_nobody_asked_for_are_refused() {
    fails_with("answers_unasked.sh", &[], "before frame");
}

#[test]
fn a_plugin_that_stops_reading_meets_the_timeout() {
    fails_with(
        "stops_reading.sh",
        &["timeout=1"],
        "stopped reading its input",
    );
}

/// The helper the script started holds nesmind's stderr: reading it to the end (as
/// `nesmind ... 2>&1 | tail` does) returns only once the plug-in's process group is gone.
#[test]
fn processes_a_plugin_started_end_with_the_run() {
    let pidfile = std::env::temp_dir().join(format!("nesmind-child-{}.pid", std::process::id()));
    let plugin = script("leaves_a_child.sh");
    let opt = format!("pidfile={}", pidfile.display());
    let o = nesmind(
        &["--frames", "30", "--plugin", &plugin, "--plugin-opt", &opt],
        Duration::from_secs(30),
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert!(o.stdout.contains("frames 30"), "{}", o.stdout);
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let alive = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| s.split_whitespace().nth(2).is_none_or(|st| st != "Z"));
    assert!(!alive, "the plug-in's helper {pid} outlived the run");
}

/// Protocol 2: a version question, a reset request and a quit with an exit status.
#[test]
fn a_plugin_can_reset_and_end_the_run() {
    let plugin = script("quits.sh");
    let o = nesmind(
        &["--frames", "600", "--plugin", &plugin],
        Duration::from_secs(30),
    );
    assert_eq!(o.code, Some(3), "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("frames 11"), "{}", o.stdout);
    assert!(
        o.stdout
            .contains("plugin quit with status 3: game over at frame 10"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("version 2 nesmind "), "{}", o.stdout);
}

/// Panics at frame `at`.
struct Panicky {
    at: u64,
}

impl Plugin for Panicky {
    fn name(&self) -> &str {
        "panicky"
    }
    fn description(&self) -> &str {
        "panics mid-game"
    }
    fn on_attach(&mut self, _rom: &RomInfo, _setup: &mut dyn Setup) -> Result<(), String> {
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        if frame.frame_number() == self.at {
            let board: Vec<u8> = Vec::new();
            // An index bug, as a plug-in might have.
            frame.set_buttons(0, nesmind::host::Buttons(board[3]));
        }
    }
}

/// An in-process plug-in that panics ends the run with its message; the session, its
/// recording and a savestate can still be written, and the recording plays back.
#[test]
fn a_panicking_plugin_ends_the_run_and_keeps_the_files() {
    let rom = Rom::load(std::path::Path::new(DOTS)).unwrap();
    let dir = std::env::temp_dir().join(format!("nesmind-panicky-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (replay, state) = (dir.join("run.replay"), dir.join("end.state"));
    let mut s = Session::new(rom.clone()).unwrap();
    s.attach(Box::new(Panicky { at: 40 }), &[]).unwrap();
    s.record(Recorder::new(&replay, &rom, 10));
    let err = (0..100)
        .find_map(|_| s.step().err())
        .expect("the panic ends the run");
    match &err {
        StepError::Plugin { name, message } => {
            assert_eq!(name, "panicky");
            assert!(
                message.contains("panicked") && message.contains("index out of bounds"),
                "{message}"
            );
        }
        e => panic!("expected a plug-in failure, got {e}"),
    }
    // The plug-in is not called again, and everything else still works.
    s.step().unwrap();
    s.save_state(&state).unwrap();
    s.finish_recording().unwrap();
    assert_eq!(s.detach(), None);
    let player = Player::load(&replay, &rom, true).unwrap();
    assert!(player.len() >= 40);
    nesmind::host::savestate::load(&state, &rom).unwrap();
}

/// Protocol 2's `power` through a session: the game starts over before the next frame, as
/// on a fresh console, and the recording holds the power cycle, so it verifies with no
/// plug-in attached.
#[test]
fn an_external_plugins_power_request_restarts_the_game() {
    let rom = Rom::load(std::path::Path::new(DOTS)).unwrap();
    let command = format!("sh {}/tests/plugins/powers.sh", env!("CARGO_MANIFEST_DIR"));
    let replay = std::env::temp_dir().join(format!("nesmind-powers-{}.replay", std::process::id()));
    let plugin = External::spawn(&command, &PluginOptions::new()).unwrap();
    let mut s = Session::new(rom.clone()).unwrap();
    s.attach(Box::new(plugin), &[]).unwrap();
    s.record(Recorder::new(&replay, &rom, 10));
    for _ in 0..60 {
        s.step().unwrap();
    }
    s.finish_recording().unwrap();
    s.detach();
    // The request came with the 30th frame, so the last 30 frames ran on a fresh console.
    let fresh = |frames: u64| {
        let mut m = Machine::new(&rom).unwrap();
        for _ in 0..frames {
            m.run_frame().unwrap();
        }
        (state_hash(&m), m.ram().to_vec(), m.frame_number())
    };
    let m = s.machine();
    let now = (state_hash(m), m.ram().to_vec(), m.frame_number());
    assert!(
        now == fresh(30),
        "the game did not start over at the request"
    );
    assert!(now != fresh(60));

    let player = Player::load(&replay, &rom, true).unwrap();
    let mut again = Session::new(rom).unwrap();
    again.replay(player);
    for _ in 0..again.replay_len().unwrap() {
        again.step().unwrap();
    }
    assert_eq!(again.verified(), Some(6));
    assert_eq!(state_hash(again.machine()), now.0);
    let _ = std::fs::remove_file(&replay);
}
