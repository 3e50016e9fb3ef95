//! `nesmind ramsearch` end to end with `--script`: finding the DOTS cursor, watches, the
//! exported RON entry read back, a replay driving the game, and every error a user can hit.

mod common;

use nesmind::cli::ramsearch_tool::Entry;
use std::path::PathBuf;
use std::process::{Command, Output};

const DOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/plugins/spot/cart/dots.nes");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-ramsearch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn nesmind(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `script` headless on `rom` (extra flags after); (exit code, stdout, stderr).
fn script(name: &str, text: &str, rom: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    let p = path.to_string_lossy().into_owned();
    let mut args = vec!["ramsearch", rom, "--headless", "--script", p.as_str()];
    args.extend_from_slice(extra);
    let o = nesmind(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        err,
    )
}

#[test]
fn a_script_finds_the_cursor_watches_it_and_exports_it() {
    let export = scratch("cursor.ron");
    let text = format!(
        "run 600           # the title starts a game by itself; pad 1 plays slot 1\n\
         new\n\
         press 1 right\n\
         run 10\n\
         +1\n\
         watch $29\n\
         press 1 right\n\
         run 10\n\
         increased\n\
         press 1 down\n\
         run 10\n\
         delta 7\n\
         show\n\
         name cursor\n\
         name board $0380\n\
         export {}\n",
        export.display()
    );
    let (code, out, err) = script("cursor.txt", &text, DOTS, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("new search (u8): 10240 candidates"), "{out}");
    assert!(out.contains("delta 7: 1 left"), "{out}");
    assert!(out.contains("1 candidates\n  $0029 = 33 ($21)"), "{out}");
    assert!(
        out.contains("watch $0029-$0029 Write:") && out.contains("last $0029 = 1A"),
        "{out}"
    );
    let entry: Entry = ron::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    assert_eq!(entry.crc32, vec![0xC231_2AB2]);
    let cursor = &entry.variables["cursor"];
    assert_eq!(
        (cursor.addr, cursor.width.as_str(), cursor.value),
        (0x29, "u8", 33)
    );
    assert_eq!(entry.variables["board"].addr, 0x0380);
    assert_eq!(entry, ron::from_str(&entry.to_ron()).unwrap());
}

#[test]
fn a_replay_drives_the_game() {
    let replay = scratch("spot.replay");
    let r = replay.to_string_lossy().into_owned();
    let o = nesmind(&[
        "run",
        DOTS,
        "--plugin",
        "spot",
        "--headless",
        "--frames",
        "1500",
        "--record",
        &r,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Pieces on the board (cell codes 1 and 2) after the recorded frames, with and without
    // the replay's input.
    let pieces = |extra: &[&str]| {
        let (code, out, err) = script("board.txt", "run 1500\npeek $0380 49\n", DOTS, extra);
        assert_eq!(code, Some(0), "{err}");
        let line = out
            .lines()
            .find(|l| l.starts_with("$0380:"))
            .unwrap()
            .to_string();
        line.split_whitespace()
            .skip(1)
            .filter(|b| *b == "01" || *b == "02")
            .count()
    };
    let (played, idle) = (pieces(&["--replay", &r]), pieces(&[]));
    assert!(
        played > idle,
        "with the replay {played} pieces, without {idle}"
    );
}

#[test]
fn bad_commands_and_inputs_are_named() {
    let cases: &[(&str, &str)] = &[
        (
            "run 5\nfrobnicate\n",
            "line 2: unknown command 'frobnicate'",
        ),
        ("changed\n", "line 1: no search yet: start one with 'new'"),
        ("new\nrun 2\nchanged\nname x\n", "line 4: name:"),
        ("hold 5 a\n", "line 1: '5' is not a pad (1-4)"),
        ("hold 1 jump\n", "unknown button 'jump'"),
        ("run many\n", "run: 'many' is not a number of frames"),
        ("new u32\n", "unknown width 'u32'"),
        ("filter = ten\n", "'ten' is not a number"),
        ("watch $30-$20\n", "runs backwards"),
        ("peek $10000\n", "is not an address"),
        ("export /nonexistent-dir/x.ron\n", "export: cannot write"),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let (code, _, err) = script(&format!("bad{i}.txt"), text, DOTS, &[]);
        assert_eq!(code, Some(1), "{text}: {err}");
        assert!(err.contains(needle), "{text}: expected '{needle}' in {err}");
    }
    let (code, _, err) = script("ok.txt", "quit\n", "/nonexistent.nes", &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("nonexistent.nes"), "{err}");
    let o = nesmind(&[
        "ramsearch",
        DOTS,
        "--headless",
        "--script",
        "/nonexistent.txt",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("cannot read the script /nonexistent.txt"),
        "{err}"
    );
    let (code, _, err) = script(
        "rp.txt",
        "quit\n",
        DOTS,
        &["--replay", "/nonexistent.replay"],
    );
    assert_eq!(code, Some(1));
    assert!(err.contains("nonexistent.replay"), "{err}");
}

/// In the window (under Xvfb) the same commands run between frames; `quit` closes it.
#[cfg(feature = "sdl")]
#[test]
fn the_window_runs_the_commands_between_frames() {
    let path = scratch("window.txt");
    std::fs::write(
        &path,
        "run 600\nnew\npress 1 right\nrun 10\n+1\nshow\nquit\n",
    )
    .unwrap();
    let p = path.to_string_lossy().into_owned();
    let o = Command::new("xvfb-run")
        .args([
            "-a",
            env!("CARGO_BIN_EXE_nesmind"),
            "ramsearch",
            DOTS,
            "--script",
            &p,
        ])
        .args(["--speed", "max", "--mute"])
        .output();
    let o = match o {
        Ok(o) => o,
        Err(e) => return common::cannot_run(&format!("xvfb-run: {e} (apt-get install xvfb)")),
    };
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains("+1: 1 left") && out.contains("$0029 = 25 ($19)"),
        "{out}"
    );
}

#[test]
fn power_starts_the_game_over() {
    // DOTS's board at $0380: the start position once a game runs, zeros just after power-on.
    let text = "run 600\npeek $0380 7\npower\nrun 2\npeek $0380 7\nrun 600\npeek $0380 7\n";
    let (code, out, err) = script("power.txt", text, DOTS, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    let peeks: Vec<&str> = out.lines().filter(|l| l.starts_with("$0380")).collect();
    assert_eq!(
        peeks,
        [
            "$0380: 01 00 00 05 00 00 02",
            "$0380: 00 00 00 00 00 00 00",
            "$0380: 01 00 00 05 00 00 02"
        ],
        "{out}"
    );
}

/// Commands typed (here piped) at the prompt: Ctrl+C stops a long `run` and the session
/// goes on with the next command.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_running_command_and_the_prompt_comes_back() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(["ramsearch", DOTS, "--headless"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"run 100000000\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    std::thread::sleep(std::time::Duration::from_millis(300));
    stdin.write_all(b"peek 0\nquit\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("interrupted at frame"), "{out}");
    assert!(out.contains("$0000: "), "the next command ran: {out}");
    assert!(err.matches("ramsearch> ").count() >= 3, "{err}");
}

/// SIGTERM at the prompt ends the session at once (it waited for the next command, which
/// then forgot the signal).
#[cfg(unix)]
#[test]
fn sigterm_at_the_prompt_ends_the_session() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(["ramsearch", DOTS, "--headless"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.as_mut().unwrap();
    stdin.write_all(b"run 10\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    common::signal(&child, libc::SIGTERM);
    let o = common::finish(child, std::time::Duration::from_secs(5));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(128 + libc::SIGTERM), "{out}");
    assert!(out.contains("frame 9\ninterrupted by SIGTERM"), "{out}");
}

/// In the window, between commands, a watch's hits are reported at most once a second
/// (they were reported every frame: 60 lines a second).
#[cfg(feature = "sdl")]
#[test]
fn watches_in_the_window_do_not_flood_the_terminal() {
    use std::io::Write;
    use std::process::Stdio;
    let child = Command::new("xvfb-run")
        .args(["-a", env!("CARGO_BIN_EXE_nesmind"), "ramsearch", DOTS])
        .args(["--mute"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return common::cannot_run(&format!("xvfb-run: {e} (apt-get install xvfb)")),
    };
    let mut stdin = child.stdin.take().unwrap();
    // The cart writes its frame counter and more every frame.
    stdin.write_all(b"watch $0000-$07FF\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_secs(4));
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{out}{err}");
    let reports = out
        .lines()
        .filter(|l| l.starts_with("watch $0000-$07FF"))
        .count();
    assert!(
        (1..=6).contains(&reports),
        "{reports} reports in about 4 s:\n{out}"
    );
}

/// The example `ramsearch --help` prints finds the DOTS cursor when run as printed (it
/// found nothing while it started on the title screen).
#[test]
fn the_help_example_finds_the_cursor_as_printed() {
    let help = nesmind(&["ramsearch", "--help"]);
    let text = String::from_utf8_lossy(&help.stdout).into_owned();
    let example: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Example"))
        .skip_while(|l| !l.starts_with("  "))
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    assert!(example.contains(&"export cursor.ron"), "{text}");
    let dir = scratch("example");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("example.txt"), example.join("\n")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .current_dir(&dir)
        .args(["ramsearch", DOTS, "--headless", "--script", "example.txt"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let ron = std::fs::read_to_string(dir.join("cursor.ron")).unwrap();
    let entry: Entry = ron::from_str(&ron).unwrap();
    assert_eq!(entry.variables["cursor"].addr, 0x0029, "{ron}");
}
