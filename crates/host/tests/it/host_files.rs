//! Savestate files and replays: round trips, and refusals that leave the game untouched.

use nesmind_emu::Machine;
use nesmind_emu::Rom;
use nesmind_host::files::{AtomicFile, write_atomic};
use nesmind_host::replay::{Player, Recorder, ReplayError};
use nesmind_host::savestate::{StateError, state_hash};
use nesmind_host::{Buttons, Session};
use std::path::PathBuf;

fn rom(name: &str) -> Rom {
    let corpus = nesmind_testroms::support::corpus();
    Rom::load(&corpus.join(name)).unwrap()
}
fn lawn_mower() -> Rom {
    rom("homebrew/lawn_mower/lawn_mower.nes")
}

/// Everything the machine holds: its savestate body and its picture.
fn state(m: &Machine) -> (String, Vec<u16>) {
    (ron::to_string(m).unwrap(), m.picture().to_vec())
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-host-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Human input script (no plug-in): Start, then wandering.
fn drive(s: &mut Session, frames: u64) {
    for _ in 0..frames {
        let n = s.steps();
        let b = match n {
            60..=64 => Buttons::START,
            n if n > 100 && n % 50 < 25 => Buttons::RIGHT,
            n if n > 100 => Buttons::DOWN,
            _ => Buttons::NONE,
        };
        s.set_human_buttons(0, b);
        s.step().unwrap();
    }
}

#[test]
fn savestate_file_round_trip_continues_identically() {
    let path = scratch("round.state");
    let mut a = Session::new(lawn_mower()).unwrap();
    drive(&mut a, 250);
    a.save_state(&path).unwrap();
    let mut b = Session::new(lawn_mower()).unwrap();
    b.load_state(&path).unwrap();
    assert_eq!(state_hash(a.machine()), state_hash(b.machine()));
    for _ in 0..300 {
        a.set_human_buttons(0, Buttons::LEFT);
        b.set_human_buttons(0, Buttons::LEFT);
        a.step().unwrap();
        b.step().unwrap();
    }
    assert_eq!(state(a.machine()), state(b.machine()));
}

#[test]
fn loading_a_state_keeps_the_sessions_host_settings() {
    use nesmind_emu::{HostSettings, Speedups};
    let path = scratch("settings.state");
    let mut a = Session::new(lawn_mower()).unwrap();
    a.machine_mut().set_four_score(true);
    drive(&mut a, 120);
    a.save_state(&path).unwrap();
    let mut b = Session::new(lawn_mower()).unwrap();
    let chosen = HostSettings {
        four_score: true,
        audio_enabled: false,
        sample_rate: 44100,
        speedups: Speedups::NONE,
    };
    b.machine_mut().set_host_settings(chosen).unwrap();
    b.load_state(&path).unwrap();
    assert_eq!(b.machine().host_settings(), chosen);
    // And the lockstep machine goes where the shortcut-taking one goes.
    for n in 0..200 {
        let pad = if n % 40 < 20 {
            Buttons::UP
        } else {
            Buttons::LEFT
        };
        a.set_human_buttons(0, pad);
        b.set_human_buttons(0, pad);
        a.step().unwrap();
        b.step().unwrap();
    }
    assert_eq!(state_hash(a.machine()), state_hash(b.machine()));
    // A rate the APU refuses changes nothing.
    let before = b.machine().host_settings();
    let bad = HostSettings {
        sample_rate: 7,
        four_score: false,
        ..before
    };
    assert!(b.machine_mut().set_host_settings(bad).is_err());
    assert_eq!(b.machine().host_settings(), before);
}

#[test]
fn bad_savestates_are_refused_and_the_game_is_untouched() {
    let good = scratch("good.state");
    let mut s = Session::new(lawn_mower()).unwrap();
    drive(&mut s, 120);
    s.save_state(&good).unwrap();
    drive(&mut s, 30);
    let text = std::fs::read_to_string(&good).unwrap();

    let mut other = Session::new(rom("homebrew/nes15/nes15-NTSC.nes")).unwrap();
    other.step().unwrap();
    let foreign = scratch("foreign.state");
    other.save_state(&foreign).unwrap();

    let mid = text.len() / 2;
    let mut flipped = text.clone().into_bytes();
    flipped[mid] = if flipped[mid] == b'1' { b'2' } else { b'1' };
    type Kind = fn(&StateError) -> bool;
    let cases: Vec<(&str, Vec<u8>, Kind)> = vec![
        ("truncated", text.as_bytes()[..mid].to_vec(), |e| {
            matches!(e, StateError::Length { .. })
        }),
        ("corrupt", flipped, |e| matches!(e, StateError::Checksum)),
        ("garbage", b"\x00\xFFnot a state".to_vec(), |e| {
            matches!(e, StateError::NotAState)
        }),
        ("empty", Vec::new(), |e| matches!(e, StateError::NotAState)),
        (
            "version",
            text.replacen(
                &format!("savestate {}", nesmind_host::savestate::VERSION),
                "savestate 9",
                1,
            )
            .into_bytes(),
            |e| matches!(e, StateError::Version(v) if v == "9"),
        ),
        ("foreign", std::fs::read(&foreign).unwrap(), |e| {
            matches!(e, StateError::OtherRom { .. })
        }),
    ];
    let before = state(s.machine());
    for (name, bytes, kind) in cases {
        let path = scratch(&format!("{name}.state"));
        std::fs::write(&path, bytes).unwrap();
        let err = s.load_state(&path).unwrap_err();
        assert!(kind(err.kind()), "{name}: {err}");
        assert!(
            err.to_string().contains(&*path.to_string_lossy()),
            "{name}: {err}"
        );
        assert_eq!(state(s.machine()), before, "{name} changed the game");
    }
    let missing = s.load_state(&scratch("missing.state")).unwrap_err();
    assert!(matches!(missing.kind(), StateError::Io(_)), "{missing}");
    s.step().unwrap();
}

#[test]
fn atomic_write_replaces_and_leaves_no_temp_files() {
    let path = scratch("atomic/out.bin");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    write_atomic(&path, b"first").unwrap();
    write_atomic(&path, b"second").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"second");
    let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
    assert_eq!(names.len(), 1);
    let err = write_atomic(&scratch("no/such/dir/x"), b"x").unwrap_err();
    assert!(err.starts_with("cannot write"), "{err}");
}

/// Renaming a temporary file over a device or FIFO would replace it for everyone (as root,
/// `--wav /dev/null` once turned the machine's /dev/null into a plain file): such a path is
/// written in place, and a symbolic link keeps pointing at the file it names.
/// Output written piece by piece and abandoned (a run that failed, a write error) leaves
/// the file it was to replace as it was, and no temporary file.
#[test]
fn an_uncommitted_file_leaves_the_old_one() {
    use std::io::Write;
    let path = scratch("abandoned/out.bin");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"the user's file").unwrap();
    let mut f = AtomicFile::create(&path).unwrap();
    f.write_all(b"half of a new one").unwrap();
    drop(f);
    assert_eq!(std::fs::read(&path).unwrap(), b"the user's file");
    let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("out.bin")]);
    let mut f = AtomicFile::create(&path).unwrap();
    f.write_all(b"new").unwrap();
    f.commit().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
}

#[test]
fn atomic_write_leaves_fifos_links_and_directories_what_they_are() {
    use std::os::unix::fs::FileTypeExt;
    let fifo = scratch("special/pipe");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(&fifo).unwrap())
    };
    write_atomic(&fifo, b"through the pipe").unwrap();
    // Checked before joining: a replaced FIFO would leave the reader waiting for ever.
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    assert_eq!(reader.join().unwrap(), b"through the pipe");

    let real = scratch("special/real.bin");
    let link = scratch("special/link.bin");
    std::fs::write(&real, b"old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    write_atomic(&link, b"new").unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&real).unwrap(), b"new");

    let err = write_atomic(fifo.parent().unwrap(), b"x").unwrap_err();
    assert!(err.contains("is a directory"), "{err}");
}

#[test]
fn replay_reproduces_and_verify_finds_the_first_divergence() {
    let path = scratch("run.replay");
    let mut rec = Session::new(lawn_mower()).unwrap();
    rec.record(Recorder::new(&path, rec.rom(), 20));
    drive(&mut rec, 400);
    rec.finish_recording().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();

    let mut play = Session::new(lawn_mower()).unwrap();
    play.replay(Player::load(&path, play.rom(), true).unwrap());
    assert_eq!(play.replay_len(), Some(400));
    for _ in 0..400 {
        play.step().unwrap();
    }
    assert_eq!(play.verified(), Some(20));
    assert_eq!(state(play.machine()), state(rec.machine()));

    // Hold Left instead from frame 130 on: verification must fail at a hashed frame
    // (every 20th) no earlier than 139, the first one after the change.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for (frame, line) in lines.iter_mut().filter(|l| l.starts_with("p ")).enumerate() {
        if frame >= 130 {
            *line = "p 40000000".into();
        }
    }
    let mut bad = Session::new(lawn_mower()).unwrap();
    bad.replay(Player::parse(&lines.join("\n"), bad.rom(), true).unwrap());
    let err = (0..400)
        .find_map(|_| bad.step().err())
        .expect("divergence found");
    let frame = match err {
        nesmind_host::StepError::Replay(ReplayError::Diverged { frame, .. }) => frame,
        e => panic!("expected a divergence, got {e}"),
    };
    assert!(
        frame >= 139 && (frame + 1).is_multiple_of(20),
        "frame {frame}"
    );

    let foreign = rom("homebrew/nes15/nes15-NTSC.nes");
    let err = Player::parse(&text, &foreign, true).err().unwrap();
    assert!(matches!(err, ReplayError::OtherRom { .. }), "{err}");
    let err = Player::parse(
        "nesmind-replay 1\nrom-crc32 3B96FBCA\np 12\n",
        &lawn_mower(),
        true,
    )
    .err()
    .unwrap();
    assert!(matches!(err, ReplayError::Line { line: 3, .. }), "{err}");
}

/// A savestate loaded while recording (F9 in the window) is part of the replay: played
/// back, the load happens at the same frame and `--verify` checks every frame after it.
#[test]
fn a_state_loaded_while_recording_is_replayed() {
    let saved = scratch("loaded.state");
    let path = scratch("with-load.replay");
    let mut rec = Session::new(lawn_mower()).unwrap();
    rec.record(Recorder::new(&path, rec.rom(), 20));
    drive(&mut rec, 150);
    rec.save_state(&saved).unwrap();
    drive(&mut rec, 130);
    rec.load_state(&saved).unwrap();
    drive(&mut rec, 120);
    rec.finish_recording().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("load ")).count(), 1);

    let mut play = Session::new(lawn_mower()).unwrap();
    play.replay(Player::load(&path, play.rom(), true).unwrap());
    assert_eq!(play.replay_len(), Some(400));
    for _ in 0..400 {
        play.step().unwrap();
    }
    assert_eq!(play.verified(), Some(20));
    assert_eq!(play.verdict().map(|v| v.is_ok()), Some(true));
    assert_eq!(state(play.machine()), state(rec.machine()));

    // A damaged state in the replay is refused when the replay is read, naming its line.
    let damaged: String = text
        .lines()
        .map(|l| match l.strip_prefix("load ") {
            Some(rest) => format!("load {}", rest.replacen("ram:[", "ram:[1", 1)),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(damaged, text.trim_end());
    let err = Player::parse(&damaged, &lawn_mower(), true).err().unwrap();
    assert!(matches!(err, ReplayError::Line { .. }), "{err}");
}
