//! `nesmind run` / `info` / `plugins` end to end, including every error path users hit.

mod common;

use common::{nesmind, text};
use std::path::PathBuf;

fn game() -> String {
    let corpus = nesmind::conformance::find_corpus().unwrap_or_else(|e| panic!("{e}"));
    corpus
        .join("homebrew/lawn_mower/lawn_mower.nes")
        .display()
        .to_string()
}
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-cli-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Fails with a message naming `needle`, exit code `code`, and no panic.
fn fails(args: &[&str], code: i32, needle: &str) {
    let o = nesmind(args);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn headless_run_records_replays_and_verifies() {
    let g = game();
    let (rep, shot, state) = (scratch("a.replay"), scratch("a.png"), scratch("a.state"));
    let o = nesmind(&[
        "run",
        &g,
        "--headless",
        "--frames",
        "300",
        "--record",
        rep.to_str().unwrap(),
        "--screenshot",
        shot.to_str().unwrap(),
        "--save-state",
        state.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.starts_with("frames 300\n") && out.lines().last().unwrap().starts_with("fps "),
        "{out}"
    );
    assert_eq!(&std::fs::read(&shot).unwrap()[..8], b"\x89PNG\r\n\x1a\n");

    // With the shortcuts and with every one of them off, the recording verifies.
    for extra in [None, Some("--lockstep")] {
        let mut args = vec![
            "run",
            &g,
            "--headless",
            "--replay",
            rep.to_str().unwrap(),
            "--verify",
        ];
        args.extend(extra);
        let o = nesmind(&args);
        let (out, err) = text(&o);
        assert!(
            o.status.success()
                && out.contains("frames 300")
                && out.contains("replay verified (5 state hashes match)"),
            "{extra:?}: {out}{err}"
        );
    }

    let o = nesmind(&[
        "run",
        &g,
        "--headless",
        "--frames",
        "5",
        "--state",
        state.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
}

#[test]
fn info_and_plugins_list() {
    let o = nesmind(&["info", &game()]);
    let (out, _) = text(&o);
    assert!(o.status.success());
    for want in [
        "mapper      0",
        "CRC32       3B96FBCA",
        "SHA-1       F096F66C",
        "known game  no in-tree plug-in's catalogue lists this dump",
    ] {
        assert!(out.contains(want), "missing '{want}' in {out}");
    }
    // A known game is claimed by its own player only, though both attach to anything.
    for (demo, mine, other) in [
        (
            &nesmind::plugins::spot::demo::DEMO,
            "spot (as DOTS",
            "hatris (",
        ),
        (
            &nesmind::plugins::hatris::demo::DEMO,
            "hatris (as ",
            "spot (",
        ),
    ] {
        let path = scratch(demo.file_name);
        std::fs::write(&path, demo.image).unwrap();
        let (out, _) = text(&nesmind(&["info", path.to_str().unwrap()]));
        let line = out.lines().find(|l| l.starts_with("known game")).unwrap();
        assert!(line.contains(mine) && !line.contains(other), "{line}");
    }
    let (out, _) = text(&nesmind(&["plugins"]));
    assert!(out.contains("spot") && out.contains("hatris"), "{out}");
}

#[test]
fn bad_input_gives_clear_errors() {
    let g = game();
    let junk = scratch("junk.nes");
    std::fs::write(&junk, b"this is not a ROM at all").unwrap();
    let junk = junk.to_str().unwrap();
    let bad_state = scratch("bad.state");
    std::fs::write(
        &bad_state,
        format!(
            "nesmind-savestate {}\nrom-crc32 3B96FBCA\nbody-crc32 00000000 len 3\n(((",
            nesmind::host::savestate::VERSION
        ),
    )
    .unwrap();
    let bad_state = bad_state.to_str().unwrap();

    fails(
        &["run", junk, "--headless", "--frames", "1"],
        1,
        "not an iNES image",
    );
    fails(
        &["info", "/no/such/file.nes"],
        1,
        "cannot read ROM '/no/such/file.nes'",
    );
    fails(
        &["run", &g, "--headless", "--frames", "1", "--plugin", "nope"],
        1,
        "unknown plug-in 'nope'",
    );
    fails(
        &[
            "run",
            &g,
            "--headless",
            "--frames",
            "1",
            "--state",
            bad_state,
        ],
        1,
        "corrupt",
    );
    fails(&["run", &g, "--headless"], 1, "--headless needs --frames");
    fails(
        &["run", &g, "--headless", "--frames", "0"],
        1,
        "--frames must be at least 1",
    );
    fails(
        &["run", &g, "--headless", "--frames", "1", "--speed", "warp"],
        2,
        "'warp' is not a speed",
    );
    fails(
        &[
            "run",
            &g,
            "--headless",
            "--frames",
            "1",
            "--pad",
            "5=plugin",
        ],
        2,
        "'5=plugin'",
    );
    fails(
        &[
            "run",
            &g,
            "--headless",
            "--frames",
            "1",
            "--pad",
            "1=plugin",
        ],
        1,
        "--pad 1=plugin needs --plugin",
    );
    fails(
        &["run", &g, "--headless", "--frames", "1", "--bogus"],
        2,
        "--bogus",
    );
    fails(&["run", &g, "--headless", "--verify"], 2, "--replay");
    fails(
        &["run", &g, "--headless", "--replay", bad_state],
        1,
        "not a nesmind replay",
    );
    fails(
        &[
            "run",
            &g,
            "--headless",
            "--frames",
            "1",
            "--plugin",
            "ext:/no/such/program",
        ],
        1,
        "cannot start external plug-in",
    );
}

#[test]
fn headless_wav_holds_the_run_sound_and_bad_volume_is_refused() {
    let corpus = nesmind::conformance::find_corpus().unwrap_or_else(|e| panic!("{e}"));
    let rom = corpus.join("homebrew/lawn_mower/lawn_mower.nes");
    let dir = std::env::temp_dir().join(format!("nesmind-wav-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wav = dir.join("run.wav");
    let out = nesmind(&[
        "run",
        rom.to_str().unwrap(),
        "--headless",
        "--frames",
        "120",
        "--wav",
        wav.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&wav).unwrap();
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WAVE");
    // 120 frames at 60.0988 Hz, 48 kHz mono 16-bit: about 95,840 samples.
    let samples = (bytes.len() - 44) / 2;
    assert!((95_000..96_700).contains(&samples), "{samples} samples");
    std::fs::remove_dir_all(&dir).ok();

    let bad = nesmind(&["run", rom.to_str().unwrap(), "--volume", "101"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--volume"));
}

/// `--plugin ext:...` runs the Python example (its protocol is checked in
/// crates/host/tests/it/external_plugin.rs).
#[test]
fn run_with_the_python_example_plugin() {
    let Some(py) = common::python3() else {
        common::cannot_run("no python3 on PATH");
        return;
    };
    let corpus = common::rom_dir();
    let game = corpus.join("homebrew/lawn_mower/lawn_mower.nes");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args([
            "run",
            game.to_str().unwrap(),
            "--headless",
            "--frames",
            "200",
        ])
        .args([
            "--plugin",
            &format!(
                "ext:{py} {}/plugins/examples/start_presser.py",
                env!("CARGO_MANIFEST_DIR")
            ),
            "--plugin-opt",
            "press=60",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("frames 200")
            && out.contains("plugin ext:")
            && out.contains(": frame 199 zp-sum"),
        "{out}"
    );
}

/// `nesmind plugins | head -0`: the reader is gone before the first line; the command stops
/// with a closed pipe's status instead of a panic.
#[test]
fn a_closed_stdout_stops_the_command_quietly() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .arg("plugins")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
}
