//! Play from a stable-retro state on nesmind, checked against stable-retro itself.
//! `state_play.py` plays a ROM in stable-retro (a custom integration made on the spot),
//! saves the state, plays on with recorded buttons and records the CPU RAM after every
//! frame; here the state is loaded into a nesmind machine, the same buttons are fed frame
//! by frame, and the RAM must agree: every byte of every frame for the NROM game, and for
//! the MMC1 game every byte but the few stack bytes an interrupt leaves behind, where the
//! two emulators' NMI timing differs (see `mmc1_game_plays_on_from_a_stable_retro_state`).

mod common;

use nesmind_emu::{Buttons, Rom};
use nesmind_retro::FceuState;
use nesmind_retro::parts::MachineParts;
use std::path::{Path, PathBuf};

const WARMUP: u32 = 400;
const FRAMES: usize = 1000;

/// What stable-retro recorded.
struct Recording {
    state: Vec<u8>,
    buttons: Vec<Buttons>,
    ram: Vec<u8>,
}

fn record(python: &Path, rom: &Path, seed: u32) -> Recording {
    let out =
        std::env::temp_dir().join(format!("nesmind-state-play-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/state_play.py");
    let status = std::process::Command::new(python)
        .arg(&script)
        .arg(rom)
        .arg(&out)
        .args([seed.to_string(), WARMUP.to_string(), FRAMES.to_string()])
        .status()
        .expect("python runs");
    assert!(status.success(), "{} failed", script.display());
    let names: Vec<Vec<String>> =
        serde_json::from_str(&std::fs::read_to_string(out.join("buttons.json")).unwrap()).unwrap();
    let rec = Recording {
        state: std::fs::read(out.join("state.fcs")).unwrap(),
        buttons: names.iter().map(|held| pad(held)).collect(),
        ram: std::fs::read(out.join("ram.bin")).unwrap(),
    };
    let _ = std::fs::remove_dir_all(&out);
    assert_eq!(rec.ram.len(), FRAMES * 0x800);
    rec
}

/// stable-retro's button names (its action array's B, SELECT, START, UP, DOWN, LEFT,
/// RIGHT, A) as the NES pad's buttons.
fn pad(held: &[String]) -> Buttons {
    held.iter().fold(Buttons::NONE, |acc, name| {
        acc | match name.as_str() {
            "A" => Buttons::A,
            "B" => Buttons::B,
            "SELECT" => Buttons::SELECT,
            "START" => Buttons::START,
            "UP" => Buttons::UP,
            "DOWN" => Buttons::DOWN,
            "LEFT" => Buttons::LEFT,
            "RIGHT" => Buttons::RIGHT,
            other => panic!("unknown button {other}"),
        }
    })
}

/// The bytes in which nesmind's RAM differs from stable-retro's after each frame:
/// (address, stable-retro's byte, nesmind's byte).
type Differences = Vec<Vec<(usize, u8, u8)>>;

/// Plays the recorded buttons on a machine built from the recorded state.
fn replay(rom: &Rom, rec: &Recording, buttons: bool) -> Differences {
    let state = FceuState::parse(&rec.state).unwrap();
    let parts = MachineParts::from_state(&state).unwrap();
    let mut m = parts.to_machine(rom).unwrap();
    let mut out = Vec::new();
    for (&held, want) in rec.buttons.iter().zip(rec.ram.chunks(0x800)) {
        m.set_buttons(0, if buttons { held } else { Buttons::NONE });
        m.run_frame().unwrap();
        out.push(
            (0..0x800)
                .filter(|&i| m.ram()[i] != want[i])
                .map(|i| (i, want[i], m.ram()[i]))
                .collect(),
        );
    }
    out
}

/// A Python with stable-retro, and the ROM (`None`, said why, when either is missing:
/// under CI=true that fails the test).
fn setup(rom: Result<PathBuf, String>) -> Option<(PathBuf, PathBuf, Rom)> {
    let path = match rom {
        Ok(path) => path,
        Err(e) => {
            common::unavailable(&e);
            return None;
        }
    };
    let python = match common::python() {
        Ok((py, _)) => py,
        Err(e) => {
            common::unavailable(&e);
            return None;
        }
    };
    let rom = Rom::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some((python, path, rom))
}

fn agreeing(diffs: &Differences) -> usize {
    diffs.iter().filter(|d| d.is_empty()).count()
}

#[test]
fn nrom_game_plays_on_from_a_stable_retro_state() {
    let rom = common::corpus_rom("homebrew/lawn_mower/lawn_mower.nes");
    let Some((python, path, rom)) = setup(rom) else {
        return;
    };
    let rec = record(&python, &path, 1);
    let diffs = replay(&rom, &rec, true);
    println!(
        "Lawn Mower (NROM): {} of {FRAMES} frames agree with stable-retro in all 2 KiB of RAM",
        agreeing(&diffs)
    );
    let first = diffs.iter().position(|d| !d.is_empty());
    assert_eq!(
        first,
        None,
        "first difference: {:02X?}",
        first.map(|f| &diffs[f])
    );
    // The buttons steer the game, so the comparison covers play, not an attract loop.
    let idle = replay(&rom, &rec, false);
    assert!(agreeing(&idle) < FRAMES / 2, "the game ignores the buttons");
}

#[test]
fn mmc1_game_plays_on_from_a_stable_retro_state() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/hatris/cart/hatris-like.nes");
    let Some((python, path, rom)) = setup(Ok(path)) else {
        return;
    };
    let rec = record(&python, &path, 2);
    let diffs = replay(&rom, &rec, true);
    let first = diffs.iter().position(|d| !d.is_empty());
    // The first difference: a frame whose work ran past the vertical blank, so the NMI
    // interrupted the game's `SEC; loop: SBC #6; BCS loop` (a division by 6) instead of its
    // wait loop. nesmind takes the NMI on the 2C02's dot (VBL set at line 241, dot 1);
    // stable-retro's FCEUmm raises it 12 dots (4 CPU cycles) after setting VBL, so it
    // interrupts one SBC later. Only what the interrupt pushed differs: the return
    // address's low byte ($1F4, two bytes further) and the handler's saved A ($1F2, 6
    // less), both below the stack pointer once the handler returns.
    let f = first.expect("the NMI lands in the division loop in one frame");
    let d = &diffs[f];
    let ram = |frame: usize, addr: usize| rec.ram[frame * 0x800 + addr];
    assert_eq!(d.len(), 2, "frame {f}: {d:02X?}");
    let (pcl, a) = ((d[1].1, d[1].2), (d[0].1, d[0].2));
    assert_eq!((d[0].0, d[1].0), (0x1F2, 0x1F4), "frame {f}: {d:02X?}");
    assert_eq!(
        pcl.0,
        pcl.1 + 2,
        "stable-retro interrupts one instruction later"
    );
    assert_eq!(a.0, a.1.wrapping_sub(6), "after one more SBC #6");
    let nesmind_pc = u16::from_le_bytes([pcl.1, ram(f, 0x1F5)]);
    let code = rom.prg_rom[usize::from(nesmind_pc) - 0x8000..][..4].to_vec();
    assert_eq!(
        code,
        [0xE9, 0x06, 0xB0, 0xFC],
        "SBC #6; BCS at {nesmind_pc:04X}"
    );
    // From then on only those dead stack bytes may differ: the game's state agrees.
    let dead = 0x1F0..=0x1F4;
    let game_agrees = diffs
        .iter()
        .filter(|d| d.iter().all(|(a, ..)| dead.contains(a)));
    println!(
        "hatris-like (MMC1): {} of {FRAMES} frames agree with stable-retro in all 2 KiB of \
         RAM (the first difference in frame {f}), {} outside the stack bytes $1F0-$1F4",
        agreeing(&diffs),
        game_agrees.count()
    );
    let game_differs = diffs
        .iter()
        .position(|d| d.iter().any(|(a, ..)| !dead.contains(a)));
    assert_eq!(
        game_differs,
        None,
        "{:02X?}",
        game_differs.map(|f| &diffs[f])
    );
}
