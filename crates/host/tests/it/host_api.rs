//! The hook API as a plug-in sees it: peek, buttons, watches, fork.

use nesmind_emu::{Machine, Rom};
use nesmind_host::savestate::state_hash;
use nesmind_host::{
    AccessKind, Buttons, Frame, PadOwner, Plugin, RomInfo, Session, Setup, WatchHit,
};
use std::sync::{Arc, Mutex};

/// Everything the machine holds: its savestate body and its picture.
fn state(m: &Machine) -> (String, Vec<u16>) {
    (ron::to_string(m).unwrap(), m.picture().to_vec())
}

fn rom(name: &str) -> Rom {
    let corpus = nesmind_testroms::support::corpus();
    Rom::load(&corpus.join(name)).unwrap()
}
fn lawn_mower() -> Rom {
    rom("homebrew/lawn_mower/lawn_mower.nes")
}

/// Everything a test plug-in saw, shared with the test.
#[derive(Default)]
struct Seen {
    hits: Vec<(u64, WatchHit)>,
    ram: Vec<(u64, Vec<u8>)>,
    notes: Vec<String>,
}

/// A scriptable test plug-in: `act` runs on every frame.
struct Probe {
    watches: Vec<(AccessKind, std::ops::RangeInclusive<u16>)>,
    seen: Arc<Mutex<Seen>>,
    act: fn(&mut dyn Frame, &mut Seen),
}

impl Plugin for Probe {
    fn name(&self) -> &str {
        "probe"
    }
    fn description(&self) -> &str {
        "test plug-in"
    }
    fn on_attach(&mut self, _rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        for (k, r) in &self.watches {
            setup.watch(*k, r.clone());
        }
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let mut seen = self.seen.lock().unwrap();
        let n = frame.frame_number();
        let hits: Vec<_> = frame.watch_hits().iter().map(|h| (n, *h)).collect();
        seen.hits.extend(hits);
        (self.act)(frame, &mut seen);
    }
}

fn session_with(
    rom: Rom,
    watches: Vec<(AccessKind, std::ops::RangeInclusive<u16>)>,
    act: fn(&mut dyn Frame, &mut Seen),
) -> (Session, Arc<Mutex<Seen>>) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut s = Session::new(rom).unwrap();
    let probe = Probe {
        watches,
        seen: seen.clone(),
        act,
    };
    s.attach(Box::new(probe), &[]).unwrap();
    (s, seen)
}

/// Start for a few frames at 60, then Right: enough to leave lawn_mower's title.
fn script(n: u64) -> Buttons {
    match n {
        60..=64 => Buttons::START,
        n if n > 100 && n % 40 < 20 => Buttons::RIGHT,
        n if n > 100 && n % 40 < 30 => Buttons::DOWN | Buttons::A,
        _ => Buttons::NONE,
    }
}
fn play(f: &mut dyn Frame, _: &mut Seen) {
    let n = f.frame_number();
    f.set_buttons(0, script(n));
}

#[test]
fn peek_has_no_side_effects() {
    let mut m = Machine::new(&lawn_mower()).unwrap();
    for _ in 0..30 {
        m.run_frame().unwrap();
    }
    // Mid-frame, so $2002's vblank flag and the controller shift registers are live.
    for _ in 0..5000 {
        m.step().unwrap();
    }
    let before = state(&m);
    let mut sum = 0u32;
    for _ in 0..3 {
        for addr in 0..=0xFFFFu16 {
            sum = sum.wrapping_add(u32::from(m.peek(addr)));
        }
    }
    assert_eq!(state(&m), before, "peek changed the machine (sum {sum})");
}

#[test]
fn buttons_reach_the_game_through_controller_reads() {
    // Watch reads of $4016: the game's serial reads must report exactly what was set.
    let (mut s, seen) = session_with(
        lawn_mower(),
        vec![(AccessKind::Read, 0x4016..=0x4016)],
        play,
    );
    for _ in 0..200 {
        s.step().unwrap();
    }
    let seen = seen.lock().unwrap();
    // Hits reported at frame n come from the game's read in the NMI after frame n-1's input.
    let bits_at = |n: u64| -> Vec<u8> {
        seen.hits
            .iter()
            .filter(|(f, _)| *f == n)
            .map(|(_, h)| h.value & 1)
            .take(8)
            .collect()
    };
    assert_eq!(
        bits_at(62),
        vec![0, 0, 0, 1, 0, 0, 0, 0],
        "Start held during frame 61"
    );
    let mut checked = 0;
    for n in 1..200 {
        let bits = bits_at(n);
        if bits.len() == 8 {
            let want: Vec<u8> = (0..8).map(|i| (script(n - 1).bits() >> i) & 1).collect();
            assert_eq!(bits, want, "controller reads reported at frame {n}");
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} frames read the pad");
    // And the game reacts: RAM differs from an idle run.
    let mut idle = Session::new(lawn_mower()).unwrap();
    for _ in 0..200 {
        idle.step().unwrap();
    }
    assert_ne!(idle.machine().ram(), s.machine().ram());
}

#[test]
fn watches_fire_exactly_on_named_accesses() {
    let rom = lawn_mower();
    let nmi = {
        let m = Machine::new(&rom).unwrap();
        u16::from_le_bytes([m.peek(0xFFFA), m.peek(0xFFFB)])
    };
    let watches = vec![
        (AccessKind::Write, 0x0000..=0x07FF),
        (AccessKind::Execute, nmi..=nmi),
        (AccessKind::Read, 0x0300..=0x03FF),
    ];
    fn keep_ram(f: &mut dyn Frame, seen: &mut Seen) {
        play(f, seen);
        let n = f.frame_number();
        seen.ram.push((n, f.ram().to_vec()));
    }
    let (mut s, seen) = session_with(rom, watches, keep_ram);
    for _ in 0..300 {
        s.step().unwrap();
    }
    let seen = seen.lock().unwrap();
    assert!(!seen.hits.is_empty());
    for (_, h) in &seen.hits {
        match h.watch {
            0 => assert!(h.kind == AccessKind::Write && h.addr <= 0x07FF, "{h:?}"),
            1 => assert!(h.kind == AccessKind::Execute && h.addr == nmi, "{h:?}"),
            2 => assert!(
                h.kind == AccessKind::Read && (0x300..=0x3FF).contains(&h.addr),
                "{h:?}"
            ),
            w => panic!("unknown watch {w}"),
        }
    }
    // The last write each frame to an address is what RAM holds at the callback.
    for (n, ram) in &seen.ram {
        let mut last = std::collections::HashMap::new();
        for (_, h) in seen.hits.iter().filter(|(f, h)| f == n && h.watch == 0) {
            last.insert(h.addr, h.value);
        }
        for (addr, v) in last {
            assert_eq!(ram[usize::from(addr)], v, "frame {n} ${addr:04X}");
        }
    }
    // Once the game runs, its NMI handler starts exactly once per frame.
    for n in 100..300 {
        let count = seen
            .hits
            .iter()
            .filter(|(f, h)| *f == n && h.watch == 1)
            .count();
        assert_eq!(count, 1, "NMI entries reported at frame {n}");
    }
    // Execute hits carry the opcode fetched.
    let (_, h) = seen.hits.iter().find(|(_, h)| h.watch == 1).unwrap();
    assert_eq!(h.value, s.machine().peek(nmi));
}

#[test]
fn no_watches_means_the_bus_does_not_check() {
    let (s, _) = session_with(lawn_mower(), vec![], play);
    assert!(!s.machine().watching());
}

#[test]
fn fork_leaves_the_real_machine_untouched() {
    fn with_lookahead(f: &mut dyn Frame, seen: &mut Seen) {
        play(f, seen);
        if !f.frame_number().is_multiple_of(50) {
            return;
        }
        let before = (f.ram().to_vec(), f.picture().to_vec(), f.buttons(0));
        let mut fork = f.fork().expect("the session can fork");
        fork.set_buttons(0, Buttons::START | Buttons::A);
        fork.poke(0x0010, 0x55);
        fork.run_frames(60).unwrap();
        assert_eq!(fork.frame_number(), f.frame_number() + 60);
        // Forks run on worker threads and agree with each other.
        let runs: Vec<_> = (0..2)
            .map(|_| {
                let mut g = fork.clone();
                std::thread::spawn(move || {
                    g.run_frames(30).unwrap();
                    g.ram().to_vec()
                })
            })
            .collect();
        let results: Vec<_> = runs.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(results[0], results[1]);
        assert_eq!(
            before,
            (f.ram().to_vec(), f.picture().to_vec(), f.buttons(0))
        );
        seen.notes.push(format!("forked at {}", f.frame_number()));
    }
    let (mut forking, seen) = session_with(
        lawn_mower(),
        vec![(AccessKind::Write, 0..=0x7FF)],
        with_lookahead,
    );
    let (mut plain, _) = session_with(lawn_mower(), vec![(AccessKind::Write, 0..=0x7FF)], play);
    for _ in 0..400 {
        forking.step().unwrap();
        plain.step().unwrap();
        assert_eq!(state_hash(forking.machine()), state_hash(plain.machine()));
    }
    assert_eq!(state(forking.machine()), state(plain.machine()));
    assert!(seen.lock().unwrap().notes.len() >= 7);
}

#[test]
fn a_refusing_plugin_is_an_error_with_its_reason() {
    struct Picky;
    impl Plugin for Picky {
        fn name(&self) -> &str {
            "picky"
        }
        fn description(&self) -> &str {
            "refuses everything"
        }
        fn on_attach(&mut self, rom: &RomInfo, _: &mut dyn Setup) -> Result<(), String> {
            Err(format!("CRC32 {:08X} is not a game I know", rom.crc32))
        }
        fn on_frame(&mut self, _: &mut dyn Frame) {}
    }
    let mut s = Session::new(lawn_mower()).unwrap();
    let err = s.attach(Box::new(Picky), &[]).unwrap_err();
    assert!(err.contains("picky") && err.contains("3B96FBCA"), "{err}");
    assert!(s.plugin_name().is_none());
}

#[test]
fn a_human_can_take_a_pad_and_give_it_back() {
    fn hold_start(f: &mut dyn Frame, _: &mut Seen) {
        f.set_buttons(0, Buttons::START);
        f.set_buttons(1, Buttons::A);
    }
    let (mut s, _) = session_with(lawn_mower(), vec![], hold_start);
    s.set_human_buttons(0, Buttons::RIGHT);
    s.step().unwrap();
    assert_eq!(s.machine().buttons(0), Buttons::START);
    s.set_owner(0, PadOwner::Human);
    s.step().unwrap();
    assert_eq!(
        (s.machine().buttons(0), s.machine().buttons(1)),
        (Buttons::RIGHT, Buttons::A)
    );
    s.set_owner(0, PadOwner::Plugin);
    s.step().unwrap();
    assert_eq!(s.machine().buttons(0), Buttons::START);
}
