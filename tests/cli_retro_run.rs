//! `nesmind run ROM --retro GAME`: a run scored by a stable-retro integration (made here,
//! for Lawn Mower, in a folder given with --retro-data). Its frame counter at $FF makes the
//! episode's end predictable: the reward is the counter's rise, and the episode ends when
//! it reads 200. A start state by name, the integration's default state, another scenario,
//! and the refusals (another ROM, an unknown game or state) are checked too.

mod common;

use common::{nesmind, text};
use std::path::{Path, PathBuf};

const GAME: &str = "NesmindLawnTick-Nes";

fn game() -> PathBuf {
    common::rom_dir().join("homebrew/lawn_mower/lawn_mower.nes")
}

/// A folder holding one integration folder, GAME, for Lawn Mower; `default_state` names
/// its metadata's default state, and `states` are copied in as NAME.state.
fn integration(tag: &str, default_state: Option<&str>, states: &[(&str, &Path)]) -> PathBuf {
    let root = std::env::temp_dir().join(format!("nesmind-retro-run-{}-{tag}", std::process::id()));
    let dir = root.join(GAME);
    std::fs::create_dir_all(&dir).unwrap();
    let rom = std::fs::read(game()).unwrap();
    let sha = nesmind::emu::Rom::parse(&rom, "lawn.nes")
        .unwrap()
        .info
        .sha1;
    let hex: String = sha.iter().map(|b| format!("{b:02x}")).collect();
    std::fs::write(dir.join("rom.sha"), hex + "\n").unwrap();
    std::fs::write(
        dir.join("data.json"),
        r#"{"info": {"tick": {"address": 255, "type": "|u1"}}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("scenario.json"),
        r#"{"reward": {"variables": {"tick": {"reward": 1.0}}},
            "done": {"variables": {"tick": {"op": "equal", "reference": 200}}}}"#,
    )
    .unwrap();
    // Another scenario: half the reward, the end at 100.
    std::fs::write(
        dir.join("Half.json"),
        r#"{"reward": {"variables": {"tick": {"reward": 0.5}}},
            "done": {"variables": {"tick": {"op": "equal", "reference": 100}}}}"#,
    )
    .unwrap();
    let meta = match default_state {
        Some(s) => format!(r#"{{"default_state": "{s}"}}"#),
        None => "{}".into(),
    };
    std::fs::write(dir.join("metadata.json"), meta).unwrap();
    for (name, file) in states {
        std::fs::copy(file, dir.join(format!("{name}.state"))).unwrap();
    }
    root
}

fn run(root: &Path, extra: &[&str]) -> (std::process::Output, String, String) {
    let g = game();
    let mut args = vec![
        "run",
        g.to_str().unwrap(),
        "--headless",
        "--frames",
        "1000",
        "--retro",
        GAME,
        "--retro-data",
        root.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = nesmind(&args);
    let (out, err) = text(&o);
    (o, out, err)
}

#[test]
fn the_episode_is_scored_and_ends_as_the_scenario_says() {
    if !game().exists() {
        nesmind::conformance::support::cannot_run("no test-ROM corpus (lawn_mower.nes)");
        return;
    }
    // From power-on the counter reads 0 for the first frames, then counts each frame.
    let root = integration("plain", None, &[]);
    let (o, out, err) = run(&root, &[]);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains(&format!(
            "{GAME}: the episode ended after 203 steps, reward 200"
        )),
        "{out}"
    );
    assert!(out.contains("episode ended at step 203; tick=200"), "{out}");

    // A nesmind savestate 50 frames in, as a state by name and as the default state: the
    // counter reads 48 after the first step, so 153 steps to 200 and a reward of 152 (as
    // in stable-retro, the first step's rise is against itself: 0).
    let saved = root.join("start.nesmind");
    let g = game();
    let o = nesmind(&[
        "run",
        g.to_str().unwrap(),
        "--headless",
        "--frames",
        "50",
        "--save-state",
        saved.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o).1);
    let with_state = integration("states", Some("Start"), &[("Start", &saved)]);
    for extra in [&["--state", "Start"][..], &[]] {
        let (o, out, err) = run(&with_state, extra);
        assert!(o.status.success(), "{extra:?}: {err}");
        assert!(
            out.contains("the episode ended after 153 steps, reward 152"),
            "{extra:?}: {out}"
        );
    }
    // Another scenario of the integration, by name.
    let (o, out, err) = run(&with_state, &["--scenario", "Half"]);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("the episode ended after 53 steps, reward 26"),
        "{out}"
    );
    // Without --retro nothing is scored.
    let o = nesmind(&["run", g.to_str().unwrap(), "--headless", "--frames", "5"]);
    assert!(!text(&o).0.contains("retro"), "{}", text(&o).0);
}

#[test]
fn the_wrong_rom_game_or_state_is_refused_by_name() {
    let other = common::rom_dir().join("homebrew/nesert-golfing/nesert-golfing.nes");
    if !game().exists() || !other.exists() {
        nesmind::conformance::support::cannot_run("no test-ROM corpus (lawn_mower, nesert)");
        return;
    }
    let root = integration("refusals", None, &[]);
    let r = root.to_str().unwrap();
    let cases: [(Vec<&str>, &[&str]); 4] = [
        (
            vec!["run", other.to_str().unwrap(), "--retro", GAME],
            &["is not the ROM", "rom.sha"],
        ),
        (
            vec!["--retro", "NoSuchGame-Nes"],
            &["no NES integration 'NoSuchGame-Nes'"],
        ),
        (
            vec!["--retro", GAME, "--state", "Level9"],
            &["'Level9'", "it has: none"],
        ),
        (
            vec!["--retro", GAME, "--scenario", "Nope"],
            &["--scenario", "Nope.json"],
        ),
    ];
    let g = game();
    for (args, needles) in cases {
        let mut full: Vec<&str> = match args[0] {
            "run" => vec![
                "run",
                args[1],
                "--headless",
                "--frames",
                "5",
                "--retro-data",
                r,
            ],
            _ => vec![
                "run",
                g.to_str().unwrap(),
                "--headless",
                "--frames",
                "5",
                "--retro-data",
                r,
            ],
        };
        full.extend(args.iter().skip(if args[0] == "run" { 2 } else { 0 }));
        let o = nesmind(&full);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: '{needle}' not in {err}");
        }
    }
}
