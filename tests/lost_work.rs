//! Nothing a user asked for is lost (issue 31): every output path is checked before the
//! run and each output is written on its own; a signal stops a run at a frame and writes
//! its outputs; battery RAM survives; `--verify` vouches for the whole replay or fails;
//! bad input is refused at once; every subcommand answers `--help`.

mod common;

use common::{finish, nesmind, signal, text};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/plugins/spot/cart/dots.nes");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-lost-work-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_bad_output_path_is_refused_before_the_run() {
    let rep = scratch("before.replay");
    // (`--sav` applies only to a cart with a battery; dots.nes has none.)
    for flag in ["--screenshot", "--save-state", "--record"] {
        let mut args = vec!["run", DOTS, "--headless", "--frames", "600"];
        if flag != "--record" {
            args.extend(["--record", s(&rep)]);
        }
        args.extend([flag, "/nonexistent/dir/out"]);
        let o = nesmind(&args);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{flag}: {err}");
        assert!(
            err.contains("/nonexistent/dir/out") && !out.contains("frames"),
            "{flag}: {out}{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// A savestate whose folder vanished during the run fails alone: the recording and the
/// screenshot are still written, and the run reports the failure.
#[test]
fn each_output_is_written_on_its_own() {
    let gone = scratch("gone");
    std::fs::create_dir_all(&gone).unwrap();
    let (rep, shot) = (scratch("own.replay"), scratch("own.png"));
    let state = gone.join("x.state");
    let child = spawn(&[
        "run",
        DOTS,
        "--headless",
        "--frames",
        "100000000",
        "--record",
        s(&rep),
        "--screenshot",
        s(&shot),
        "--save-state",
        s(&state),
    ]);
    std::thread::sleep(Duration::from_millis(800));
    std::fs::remove_dir_all(&gone).unwrap();
    signal(&child, libc::SIGINT);
    let o = finish(child, Duration::from_secs(20));
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--save-state") && err.contains("x.state"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&rep).unwrap().contains("\nend "));
    assert_eq!(&std::fs::read(&shot).unwrap()[..4], b"\x89PNG");
}

#[test]
fn a_signal_stops_the_run_at_a_frame_and_writes_what_was_asked() {
    for (sig, name) in [
        (libc::SIGINT, "SIGINT"),
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGHUP, "SIGHUP"),
    ] {
        let (rep, state, shot) = (
            scratch(&format!("{name}.replay")),
            scratch(&format!("{name}.state")),
            scratch(&format!("{name}.png")),
        );
        let child = spawn(&[
            "run",
            DOTS,
            "--headless",
            "--frames",
            "100000000",
            "--record",
            s(&rep),
            "--save-state",
            s(&state),
            "--screenshot",
            s(&shot),
        ]);
        std::thread::sleep(Duration::from_millis(700));
        signal(&child, sig);
        let o = finish(child, Duration::from_secs(20));
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(128 + sig), "{name}: {out}{err}");
        assert!(
            out.contains(&format!("interrupted by {name}")),
            "{name}: {out}"
        );
        assert!(
            std::fs::read_to_string(&state)
                .unwrap()
                .starts_with("nesmind-savestate")
        );
        assert_eq!(&std::fs::read(&shot).unwrap()[..4], b"\x89PNG");
        // The recording is whole: it verifies to its last frame.
        let o = nesmind(&["run", DOTS, "--headless", "--replay", s(&rep), "--verify"]);
        let (out, err) = text(&o);
        assert!(
            o.status.success() && out.contains("replay verified"),
            "{name}: {out}{err}"
        );
        // And it was the stopped run's, not a partial file left by a write in progress.
        let frames = out.lines().next().unwrap().to_string();
        assert!(
            frames.starts_with("frames ") && frames != "frames 0",
            "{out}"
        );
    }
}

/// A plug-in that never answers holds the frame: the first Ctrl+C cannot stop it there,
/// the second ends the process at once.
#[test]
fn a_second_interrupt_aborts() {
    let child = spawn(&[
        "run",
        DOTS,
        "--headless",
        "--frames",
        "100",
        "--plugin",
        "ext:sleep 5",
        "--plugin-opt",
        "timeout=60",
    ]);
    std::thread::sleep(Duration::from_millis(700));
    signal(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, libc::SIGINT);
    let o = finish(child, Duration::from_secs(3));
    assert_eq!(o.status.code(), Some(130), "{:?}", text(&o));
}

fn record(name: &str, frames: &str) -> (PathBuf, String) {
    let rep = scratch(name);
    let o = nesmind(&[
        "run",
        DOTS,
        "--headless",
        "--frames",
        frames,
        "--plugin",
        "spot",
        "--record",
        s(&rep),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let t = std::fs::read_to_string(&rep).unwrap();
    (rep, t)
}
fn verify(rep: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["run", DOTS, "--headless", "--replay", s(rep), "--verify"];
    args.extend(extra);
    let o = nesmind(&args);
    let (out, err) = text(&o);
    (o.status.code(), out + &err)
}

#[test]
fn verify_vouches_for_the_whole_replay_or_fails() {
    let (rep, t) = record("whole.replay", "100");
    assert!(t.starts_with("nesmind-replay 5\n"), "{t}");
    let (code, out) = verify(&rep, &[]);
    assert!(
        code == Some(0) && out.contains("replay verified (2 state hashes match)"),
        "{out}"
    );

    // The last 40 frames come after the last `h` line (hash-every 60): only the end line
    // catches a change there.
    let tampered: Vec<String> = t
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if l.starts_with("p ") && i > 80 {
                "p 01000000".into()
            } else {
                l.into()
            }
        })
        .collect();
    let bad = scratch("tampered.replay");
    std::fs::write(&bad, tampered.join("\n") + "\n").unwrap();
    let (code, out) = verify(&bad, &[]);
    assert!(
        code == Some(1) && out.contains("diverges at frame 99"),
        "{out}"
    );

    // Cut in half: no end line.
    let half: String = t.lines().take(54).map(|l| format!("{l}\n")).collect();
    std::fs::write(&bad, half).unwrap();
    let (code, out) = verify(&bad, &[]);
    assert!(code == Some(1) && out.contains("cut short"), "{out}");

    // Stopped before the end.
    let (code, out) = verify(&rep, &["--frames", "70"]);
    assert!(
        code == Some(1) && out.contains("stopped after 70 of its 100 frames"),
        "{out}"
    );

    // Nothing checked: an old (version 2) file shorter than one hash interval.
    let old = as_version_2(30);
    std::fs::write(&bad, old).unwrap();
    let (code, out) = verify(&bad, &[]);
    assert!(
        code == Some(1) && out.contains("no recorded state hash was reached"),
        "{out}"
    );

    // An old file is still read and verified as far as its hashes go, and says so.
    let old = as_version_2(100);
    std::fs::write(&bad, old).unwrap();
    let (code, out) = verify(&bad, &[]);
    assert!(
        code == Some(0) && out.contains("last 40 frames (from frame 60) were not checked"),
        "{out}"
    );
}

/// The first `frames` frames of a recording as version 2 wrote it (no final `end` line),
/// cut from the committed version-4 DOTS replay: files before version 5 hash the PPU's dot
/// too, so a new recording cannot simply be relabelled.
fn as_version_2(frames: usize) -> String {
    let text = include_str!("../benches/replays/dots.replay");
    let mut out = String::from("nesmind-replay 2\n");
    let mut pads = 0;
    for l in text.lines().skip(1) {
        let keep = match l.split_whitespace().collect::<Vec<_>>()[..] {
            ["p", _] => {
                pads += 1;
                pads <= frames
            }
            ["h", f, _] => f.parse::<usize>().unwrap() < frames,
            ["end", ..] | ["load", ..] => false,
            _ => true,
        };
        if keep {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// A cart with a battery whose program writes to its RAM (`common::battery_writer`).
fn battery_cart() -> PathBuf {
    let path = scratch("battery.nes");
    std::fs::write(&path, common::battery_writer()).unwrap();
    path
}

#[test]
fn battery_ram_is_loaded_and_written_back() {
    let cart = battery_cart();
    let sav = scratch("battery-game.sav");
    let pattern: Vec<u8> = (0..8192).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&sav, &pattern).unwrap();
    let state = scratch("battery.state");
    let o = nesmind(&[
        "run",
        s(&cart),
        "--headless",
        "--frames",
        "30",
        "--sav",
        s(&sav),
        "--save-state",
        s(&state),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    // What the program wrote, and where it wrote nothing what was loaded.
    common::assert_same_bytes(
        &std::fs::read(&sav).unwrap(),
        &common::battery_written(&pattern),
    );
    // Headless runs write no .sav unless asked.
    assert!(!cart.with_extension("sav").exists());
    std::fs::write(&sav, [1u8; 100]).unwrap();
    let o = nesmind(&[
        "run",
        s(&cart),
        "--headless",
        "--frames",
        "3",
        "--sav",
        s(&sav),
    ]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("battery save") && err.contains("100 bytes"),
        "{err}"
    );
    let o = nesmind(&[
        "run",
        s(&cart),
        "--headless",
        "--frames",
        "3",
        "--sav",
        s(&sav),
        "--record",
        s(&scratch("b.replay")),
    ]);
    assert!(
        text(&o).1.contains("--sav cannot be used with --record"),
        "{:?}",
        text(&o)
    );
}

/// A ROM with a good header, one byte over the size cap (sparse: quick to make).
fn big_rom() -> PathBuf {
    let path = scratch("big.nes");
    std::fs::write(&path, &std::fs::read(DOTS).unwrap()[..16]).unwrap();
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len((64 << 20) + 1).unwrap();
    path
}

#[test]
fn bad_input_is_refused_at_once() {
    for cmd in [
        &["info", "/dev/zero"][..],
        &["run", "/dev/zero", "--headless", "--frames", "1"],
    ] {
        let start = Instant::now();
        let o = finish(spawn(cmd), Duration::from_secs(10));
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {err}");
        assert!(err.contains("not an iNES image"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(5));
    }
    // Every file a user names is read with a cap: /dev/zero is refused, never read on.
    let big = big_rom();
    let run = ["run", DOTS, "--headless", "--frames", "1"];
    let zero = "/dev/zero";
    let hatris = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/plugins/hatris/cart/hatris-like.nes"
    );
    let hatris_run = [
        "run",
        hatris,
        "--headless",
        "--frames",
        "1",
        "--plugin",
        "hatris",
    ];
    let cases: [(Vec<&str>, &str); 11] = [
        (
            [&run[..], &["--state", zero]].concat(),
            "larger than 32 MiB: not a nesmind savestate",
        ),
        (
            [&run[..], &["--replay", zero]].concat(),
            "larger than 256 MiB: not a nesmind replay",
        ),
        (
            [&run[..], &["--plugin", "spot", "--plugin-opts", zero]].concat(),
            "larger than 1 MiB: not a plug-in options file",
        ),
        (
            vec!["ramsearch", DOTS, "--headless", "--script", zero],
            "larger than 16 MiB: not a ramsearch script",
        ),
        (
            vec!["ramsearch", DOTS, "--headless", "--replay", zero],
            "larger than 256 MiB: not a nesmind replay",
        ),
        (
            vec!["retro", "state", zero],
            "larger than 2 MiB: not an FCEUmm state",
        ),
        (
            vec!["run", s(&big), "--headless", "--frames", "1"],
            "larger than 64 MiB",
        ),
        // The players' own data files, named through --plugin-opt.
        (
            [
                &run[..],
                &["--plugin", "spot", "--plugin-opt", "ram_map=/dev/zero"],
            ]
            .concat(),
            "larger than 1 MiB: not a Spot RAM map file",
        ),
        (
            [&hatris_run[..], &["--plugin-opt", "ram_map=/dev/zero"]].concat(),
            "larger than 1 MiB: not a Hatris RAM map file",
        ),
        (
            [&hatris_run[..], &["--plugin-opt", "weights=/dev/zero"]].concat(),
            "larger than 1 MiB: not a Hatris weights file",
        ),
        (
            [&hatris_run[..], &["--plugin-opt", "settings=/dev/zero"]].concat(),
            "larger than 1 MiB: not a Hatris settings file",
        ),
    ];
    for (cmd, want) in cases {
        let start = Instant::now();
        let o = finish(spawn(&cmd), Duration::from_secs(20));
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {err}");
        assert!(err.contains(want), "{cmd:?}: {err}");
        assert!(start.elapsed() < Duration::from_secs(5), "{cmd:?}");
    }
    // A NES 2.0 header for a PAL Vs. System cartridge.
    let mut image = std::fs::read(DOTS).unwrap();
    // NES 2.0 sizes and RAM fields of a plain NROM cart with 8 KiB of PRG RAM.
    image[8..16].fill(0);
    image[7] = (image[7] & 0xF0) | 0x08 | 0x01;
    image[12] = 1;
    let pal = scratch("pal.nes");
    std::fs::write(&pal, image).unwrap();
    let (out, _) = text(&nesmind(&["info", s(&pal)]));
    assert!(
        out.contains("timing      PAL") && out.contains("console     Vs. System"),
        "{out}"
    );
    let o = nesmind(&["run", s(&pal), "--headless", "--frames", "2"]);
    let (_, err) = text(&o);
    assert!(
        o.status.success() && err.contains("runs it as an NTSC NES"),
        "{err}"
    );

    let o = nesmind(&["test-roms", "/nonexistent"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("corpus not found") && !out.contains("FAIL"),
        "{out}{err}"
    );
    let empty = scratch("no-manifest");
    std::fs::create_dir_all(&empty).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(["test-roms", "--filter", "nestest"])
        .env("NES_TEST_ROMS", &empty)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.contains("$NES_TEST_ROMS") && err.contains("not found"),
        "{err}"
    );
}

#[test]
fn every_subcommand_answers_help() {
    let (out, _) = text(&nesmind(&["--help"]));
    let listed: Vec<String> = out
        .split("Commands:")
        .nth(1)
        .expect("a command list")
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect();
    for want in ["run", "arena", "sim", "train", "perft", "uai"] {
        assert!(listed.iter().any(|c| c == want), "{want} not in {listed:?}");
    }
    // clap's own `help` takes a command name, not `--help`.
    for cmd in listed.iter().filter(|c| *c != "help") {
        let o = nesmind(&[cmd, "--help"]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "nesmind {cmd} --help: {err}");
        assert!(out.contains("Usage:"), "nesmind {cmd} --help: {out}");
    }
}
