//! A recording replays without the plug-in that made it: the replay file carries the
//! machine configuration the plug-in set (the Four Score) and the resets it asked for.

use std::process::Command;

const DOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/plugins/spot/cart/dots.nes");

fn nesmind(args: &[&str]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

fn record_then_verify(name: &str, plugin: &str, frames: &str, hashes: usize) {
    let path = std::env::temp_dir().join(format!("nesmind-{name}-{}.replay", std::process::id()));
    let rep = path.to_str().unwrap();
    let (ok, out) = nesmind(&[
        "run",
        DOTS,
        "--headless",
        "--frames",
        frames,
        "--plugin",
        plugin,
        "--record",
        rep,
        "--hash-every",
        "20",
    ]);
    assert!(ok, "{name}: recording failed: {out}");
    let (ok, out) = nesmind(&["run", DOTS, "--headless", "--replay", rep, "--verify"]);
    assert!(ok, "{name}: {out}");
    assert!(
        out.contains(&format!("replay verified ({hashes} state hashes match)")),
        "{name}: {out}"
    );
    // Played without --verify, nothing is checked, and the run must not claim otherwise.
    let (ok, out) = nesmind(&["run", DOTS, "--headless", "--replay", rep]);
    assert!(ok && !out.contains("verified"), "{name}: {out}");
}

/// The Spot plug-in plugs in a Four Score; before the header recorded it, verification
/// failed at the first hash (frame 59 with the default spacing).
#[test]
fn a_spot_recording_verifies_without_the_plugin() {
    record_then_verify("spot", "spot", "200", 10);
}

/// `tests/plugins/quits.sh` presses reset at frame 5 and quits at frame 10.
#[test]
fn resets_a_plugin_asked_for_are_replayed() {
    let plugin = format!(
        "ext:sh {}/tests/plugins/quits.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let path = std::env::temp_dir().join(format!("nesmind-reset-{}.replay", std::process::id()));
    let rep = path.to_str().unwrap();
    let (_, out) = nesmind(&[
        "run",
        DOTS,
        "--headless",
        "--frames",
        "100",
        "--plugin",
        &plugin,
        "--record",
        rep,
        "--hash-every",
        "1",
    ]);
    assert!(out.contains("frames 11"), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().filter(|l| *l == "reset").count(), 1, "{text}");
    let (ok, out) = nesmind(&["run", DOTS, "--headless", "--replay", rep, "--verify"]);
    assert!(
        ok && out.contains("replay verified (11 state hashes match)"),
        "{out}"
    );
}

/// A run that starts from a savestate records it: the replay starts from the same state
/// and verifies (it was refused: a replay could only start at power-on).
#[test]
fn a_recording_started_from_a_state_verifies() {
    let dir = std::env::temp_dir();
    let state = dir.join(format!("nesmind-start-{}.state", std::process::id()));
    let rep = dir.join(format!("nesmind-start-{}.replay", std::process::id()));
    let (state, rep) = (state.to_str().unwrap(), rep.to_str().unwrap());
    let (ok, out) = nesmind(&[
        "run",
        DOTS,
        "--headless",
        "--frames",
        "300",
        "--save-state",
        state,
    ]);
    assert!(ok, "{out}");
    let (ok, out) = nesmind(&[
        "run",
        DOTS,
        "--headless",
        "--frames",
        "200",
        "--state",
        state,
        "--plugin",
        "spot",
        "--record",
        rep,
        "--hash-every",
        "20",
    ]);
    assert!(ok, "{out}");
    let (ok, out) = nesmind(&["run", DOTS, "--headless", "--replay", rep, "--verify"]);
    assert!(
        ok && out.contains("replay verified (10 state hashes match)"),
        "{out}"
    );
}
