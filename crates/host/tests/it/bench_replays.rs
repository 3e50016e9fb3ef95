//! The benchmark replays (benches/replays) still reproduce the play they recorded: every
//! state hash matches, so a benchmark on them measures real play, not a game gone astray.
//! When an emulation fix changes a game's course, re-record: benches/replays/record.sh.

use nesmind_emu::Rom;
use nesmind_host::Session;
use nesmind_host::replay::Player;
use nesmind_testroms::support::{cannot_run, corpus, workspace};
use std::path::PathBuf;

/// Each replay and the ROM it plays.
fn replays() -> Vec<(&'static str, PathBuf)> {
    let corpus = corpus();
    let mut v: Vec<(&str, PathBuf)> = [
        "kubo",
        "lala",
        "lawn_mower",
        "megamountain",
        "melojellos2",
        "nesert-golfing",
        "yun",
    ]
    .iter()
    .map(|g| (*g, corpus.join(format!("homebrew/{g}/{g}.nes"))))
    .collect();
    v.push(("nes15-NTSC", corpus.join("homebrew/nes15/nes15-NTSC.nes")));
    v.push(("dots", workspace().join("plugins/spot/cart/dots.nes")));
    v.push((
        "hatris-like",
        workspace().join("plugins/hatris/cart/hatris-like.nes"),
    ));
    v.push((
        "mmc3-workload",
        workspace().join("benches/carts/mmc3/mmc3-workload.nes"),
    ));
    v
}

#[test]
fn every_replay_verifies() {
    let dir = workspace().join("benches/replays");
    let listed: Vec<String> = replays()
        .iter()
        .map(|(n, _)| format!("{n}.replay"))
        .collect();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".replay") {
            assert!(listed.contains(&name), "{name} is not checked here: add it");
        }
    }
    for (name, rom_path) in replays() {
        if !rom_path.exists() {
            cannot_run(&format!("{} is missing", rom_path.display()));
            continue;
        }
        let rom = Rom::load(&rom_path).unwrap();
        let player = Player::load(&dir.join(format!("{name}.replay")), &rom, true).unwrap();
        let frames = player.len();
        assert!(
            frames >= 400,
            "{name}: {frames} frames, too short for benches/ipf.sh"
        );
        let mut session = Session::new(rom).unwrap();
        session.replay(player);
        session.machine_mut().set_audio_enabled(false);
        for f in 0..frames {
            session.step().unwrap_or_else(|e| {
                panic!("{name}: frame {f}: {e} (re-record with benches/replays/record.sh)")
            });
        }
        assert!(
            session.verified().unwrap_or(0) > 30,
            "{name}: few hashes checked"
        );
    }
}

/// The same replays played with every shortcut off go where the shortcut-taking run goes:
/// the lockstep oracle for play that a plug-in drove (first 600 frames of each, for time).
#[test]
fn every_replay_plays_the_same_in_lockstep() {
    use nesmind_emu::Speedups;
    use nesmind_host::savestate::state_hash;
    let dir = workspace().join("benches/replays");
    for (name, rom_path) in replays() {
        if !rom_path.exists() {
            cannot_run(&format!("{} is missing", rom_path.display()));
            continue;
        }
        let rom = Rom::load(&rom_path).unwrap();
        let path = dir.join(format!("{name}.replay"));
        let mut sessions = [Speedups::ALL, Speedups::NONE].map(|speedups| {
            let mut s = Session::new(rom.clone()).unwrap();
            s.replay(Player::load(&path, &rom, false).unwrap());
            s.machine_mut().set_audio_enabled(false);
            s.machine_mut().set_speedups(speedups);
            s
        });
        let frames = sessions[0].replay_len().unwrap().min(600);
        for f in 0..frames {
            for s in &mut sessions {
                s.step().unwrap();
            }
            let [lazy, lockstep] = &sessions;
            if f % 60 == 59 || f + 1 == frames {
                assert_eq!(
                    state_hash(lazy.machine()),
                    state_hash(lockstep.machine()),
                    "{name}: frame {f}: lockstep differs"
                );
            }
        }
        let [lazy, lockstep] = &sessions;
        assert!(
            lazy.machine().picture() == lockstep.machine().picture(),
            "{name}: the last picture differs in lockstep"
        );
    }
}
