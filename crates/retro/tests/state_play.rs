//! Play from a stable-retro state on nesmind, checked against stable-retro itself.
//! `state_play.py` plays a ROM in stable-retro (a custom integration made on the spot),
//! saves the state, plays on with recorded buttons and records the CPU RAM after every
//! frame; here the state is loaded into a nesmind machine, the same buttons are fed frame
//! by frame, and the RAM must agree. One ROM per board nesmind loads states of: every byte
//! of every frame for NROM (Lawn Mower), UxROM (NESert Golfing), AxROM (Lawn Mower
//! relabelled, and Holy Mapperel's AxROM test until stable-retro's own run of it crashes)
//! and MMC3 (Holy Mapperel's two MMC3 tests, the scanline IRQ on); for MMC1 (the hatris
//! demo cart), CNROM (Yun), GxROM (Lala) and MMC3 (the workload cart in `benches/carts`,
//! a status bar split off by the IRQ every frame) every byte but the few stack bytes an interrupt
//! leaves behind, where the two emulators' NMI timing differs (see
//! `mmc1_game_plays_on_from_a_stable_retro_state`), and for GxROM a byte the game is
//! changing as the frame ends, one step apart now and then (see
//! `gxrom_game_plays_on_from_a_stable_retro_state`); for MMC2, MMC4 and FME-7 (Holy
//! Mapperel's tests, boards set through their register writes) every byte once the tests
//! are done, and every byte but the stack while the closing melody plays.

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
    record_after(python, rom, seed, WARMUP)
}

fn record_after(python: &Path, rom: &Path, seed: u32, warmup: u32) -> Recording {
    // Tests run side by side in one process: each recording gets its own folder.
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = std::env::temp_dir().join(format!(
        "nesmind-state-play-{}-{seed}-{run}",
        std::process::id()
    ));
    std::fs::create_dir_all(&out).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/state_play.py");
    let status = std::process::Command::new(python)
        .arg(&script)
        .arg(rom)
        .arg(&out)
        .args([seed.to_string(), warmup.to_string(), FRAMES.to_string()])
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
            common::cannot_run(&e);
            return None;
        }
    };
    let python = match common::python() {
        Ok((py, _)) => py,
        Err(e) => {
            common::cannot_run(&e);
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

/// True when a frame's differences reach outside the stack page ($100-$1FF), where an
/// interrupt taken a few cycles apart leaves different return addresses and saved registers.
fn outside_stack(d: &[(usize, u8, u8)]) -> bool {
    d.iter().any(|&(a, ..)| !(0x100..0x200).contains(&a))
}

/// A summary line, and the first differences, for the test's output.
fn report(name: &str, diffs: &Differences) {
    let first = diffs.iter().position(|d| !d.is_empty());
    let game = diffs.iter().filter(|d| !outside_stack(d)).count();
    println!(
        "{name}: {} of {FRAMES} frames agree with stable-retro in all 2 KiB of RAM (the first \
         difference in frame {first:?}), {game} outside the stack page",
        agreeing(diffs),
    );
    for (f, d) in diffs
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_empty())
        .take(3)
    {
        println!("  frame {f}: {:02X?}", &d[..d.len().min(8)]);
    }
    for (f, d) in diffs
        .iter()
        .enumerate()
        .filter(|(_, d)| outside_stack(d))
        .take(3)
    {
        println!("  frame {f}: {:02X?}", &d[..d.len().min(8)]);
    }
}

/// The corpus ROM `name` with its header changed by `patch`, written to a temporary file.
fn patched(name: &str, patch: fn(&mut [u8])) -> Result<PathBuf, String> {
    let path = common::corpus_rom(name)?;
    let mut image = std::fs::read(&path).map_err(|e| e.to_string())?;
    patch(&mut image[..16]);
    let out = std::env::temp_dir().join(format!(
        "nesmind-state-play-{}-{}",
        std::process::id(),
        path.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&out, image).map_err(|e| e.to_string())?;
    Ok(out)
}

/// An NES 2.0 header's PRG RAM set to 8 KiB: FCEUmm gives every mapper-4 cart 8 KiB of
/// work RAM whatever the header says, and an import takes the state's work RAM only into
/// a cart that has as much.
fn work_ram(header: &mut [u8]) {
    assert_eq!(header[7] & 0x0C, 0x08, "an NES 2.0 header");
    header[10] = (header[10] & 0xF0) | 7;
}

/// An iNES header's mapper set to 7 (AxROM).
fn axrom(header: &mut [u8]) {
    header[6] = (header[6] & 0x0F) | 0x70;
}

/// A frame whose only difference is the low byte of the return address the NMI pushed at
/// $1F8 ... (anywhere in the stack page): stable-retro's two more, one instruction later
/// in the game's wait loop (see `mmc1_game_plays_on_from_a_stable_retro_state`).
fn nmi_one_instruction_later(d: &[(usize, u8, u8)]) -> bool {
    matches!(d, [(a, fceumm, nesmind)] if (0x100..0x200).contains(a) && *fceumm == nesmind.wrapping_add(2))
}

#[test]
fn uxrom_game_plays_on_from_a_stable_retro_state() {
    let rom = common::corpus_rom("homebrew/nesert-golfing/nesert-golfing.nes");
    let Some((python, path, rom)) = setup(rom) else {
        return;
    };
    let rec = record(&python, &path, 3);
    let diffs = replay(&rom, &rec, true);
    report("NESert Golfing (UxROM)", &diffs);
    assert_eq!(agreeing(&diffs), FRAMES);
    let idle = replay(&rom, &rec, false);
    assert!(agreeing(&idle) < FRAMES / 2, "the game ignores the buttons");
}

#[test]
fn cnrom_game_plays_on_from_a_stable_retro_state() {
    let rom = common::corpus_rom("homebrew/yun/yun.nes");
    let Some((python, path, rom)) = setup(rom) else {
        return;
    };
    let rec = record(&python, &path, 3);
    let diffs = replay(&rom, &rec, true);
    report("Yun (CNROM)", &diffs);
    // As with MMC1: the NMI interrupts neslib's `CMP FRAME_CNT1; BEQ` wait one instruction
    // apart, and only what it pushes differs, below the stack pointer once it returns.
    let f = diffs
        .iter()
        .position(|d| !d.is_empty())
        .expect("the NMI timing shows");
    assert!(nmi_one_instruction_later(&diffs[f]), "{:02X?}", diffs[f]);
    assert_eq!(diffs.iter().position(|d| outside_stack(d)), None);
    let idle = replay(&rom, &rec, false);
    assert!(agreeing(&idle) < FRAMES / 2, "the game ignores the buttons");
}

#[test]
fn gxrom_game_plays_on_from_a_stable_retro_state() {
    let rom = common::corpus_rom("homebrew/lala/lala.nes");
    let Some((python, path, rom)) = setup(rom) else {
        return;
    };
    let rec = record(&python, &path, 3);
    let diffs = replay(&rom, &rec, true);
    report("Lala the Magical (GxROM)", &diffs);
    assert!(nmi_one_instruction_later(&diffs[0]), "{:02X?}", diffs[0]);
    // This game is often still at work when the frame ends (its logic outlasts the
    // vertical blank), and the two emulators stop a few CPU cycles apart relative to the
    // picture (the NMI above; FCEUmm runs the CPU a slice of a line at a time). A byte the
    // game is changing at that moment then shows one step apart: a temporary one shift
    // further ($1C/$38, $70/$E0), a counter one further. The game agrees again in the
    // frames after, and once it stops running late, in all RAM outside the stack page.
    let late: Vec<usize> = (0..FRAMES).filter(|&f| outside_stack(&diffs[f])).collect();
    println!("  frames with a byte outside the stack page apart: {late:?}");
    let mut longest = std::collections::BTreeMap::<usize, (usize, usize)>::new();
    for d in &diffs {
        let here: std::collections::BTreeSet<usize> = d.iter().map(|x| x.0).collect();
        for (a, (run, max)) in longest.iter_mut() {
            *run = if here.contains(a) { *run + 1 } else { 0 };
            *max = (*max).max(*run);
        }
        for a in here.into_iter().filter(|a| !(0x100..0x200).contains(a)) {
            longest.entry(a).or_insert((1, 1));
        }
    }
    let longest = longest.values().map(|v| v.1).max().unwrap_or(0);
    assert!(
        longest <= 30,
        "a byte outside the stack stays apart {longest} frames"
    );
    assert!(late.iter().all(|&f| f < FRAMES / 2), "{late:?}");
    let idle = replay(&rom, &rec, false);
    assert!(agreeing(&idle) < FRAMES / 2, "the game ignores the buttons");
}

#[test]
fn axrom_plays_on_from_a_stable_retro_state() {
    // Holy Mapperel's AxROM test, 30 frames in: its latch holds $0F (the last 32 KiB bank,
    // the lower screen). stable-retro's own run of it leaves the ROM 72 frames after power
    // on, with or without buttons, and runs into zero page ($00F0: BRK after BRK, the
    // stack page filling with return frames), so only the frames before that compare.
    let Some((python, path, rom)) = setup(common::corpus_rom("holy-mapperel/M7_P128K_CR8K.nes"))
    else {
        return;
    };
    let rec = record_after(&python, &path, 3, 30);
    let state = FceuState::parse(&rec.state).unwrap();
    let parts = MachineParts::from_state(&state).unwrap();
    assert_eq!(parts.board, nesmind_emu::BoardImport::Latch(0x0F));
    let diffs = replay(&rom, &rec, true);
    report("Holy Mapperel (AxROM), 30 frames in", &diffs);
    let first = diffs.iter().position(|d| !d.is_empty());
    assert!(first.is_some_and(|f| f >= 40), "{first:?}");
    let crashed = &rec.ram[first.unwrap() * 0x800..][..0x800];
    assert!(
        crashed[0x100..0x200].contains(&0xF2),
        "stable-retro's BRK loop at $00F0"
    );

    // A game on the same board: Lawn Mower (NROM-256) relabelled mapper 7, in both.
    let Some((python, path, rom)) = setup(patched("homebrew/lawn_mower/lawn_mower.nes", axrom))
    else {
        return;
    };
    let rec = record(&python, &path, 3);
    let diffs = replay(&rom, &rec, true);
    let _ = std::fs::remove_file(&path);
    report("Lawn Mower as AxROM", &diffs);
    assert_eq!(agreeing(&diffs), FRAMES);
}

#[test]
fn mmc3_game_plays_on_from_a_stable_retro_state() {
    // The MMC3 workload cart: a status bar split off by the scanline IRQ every frame, CHR
    // and PRG banks switched, the pad steering the scroll, the player and the music.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/carts/mmc3/mmc3-workload.nes");
    let Some((python, path, rom)) = setup(Ok(path)) else {
        return;
    };
    let rec = record(&python, &path, 5);
    let diffs = replay(&rom, &rec, true);
    report("the MMC3 workload cart", &diffs);
    // Only the stack differs: where the NMI lands in the wait loop (`$E092: CMP nmi_count;
    // $E094: BEQ $E092`). nesmind takes it before the BEQ, FCEUmm one instruction later,
    // back at the CMP: the pushed return address's low byte is two less.
    let f = diffs
        .iter()
        .position(|d| !d.is_empty())
        .expect("the NMI timing shows");
    assert_eq!(diffs[f], [(0x1FE, 0x92, 0x94)]);
    assert_eq!(diffs.iter().position(|d| outside_stack(d)), None);
    let idle = replay(&rom, &rec, false);
    assert!(agreeing(&idle) < FRAMES / 2, "the game ignores the buttons");
}

#[test]
fn mmc3_test_roms_play_on_from_a_stable_retro_state() {
    // Holy Mapperel's MMC3 tests (CHR RAM, and 256 KiB of CHR ROM), 400 frames in: the
    // scanline IRQ enabled, and in the first one raised and waiting for the game's CLI.
    for (name, seed) in [
        ("holy-mapperel/M4_P128K_CR8K.nes", 3),
        ("holy-mapperel/M4_P256K_C256K.nes", 4),
    ] {
        let Some((python, path, rom)) = setup(patched(name, work_ram)) else {
            return;
        };
        let rec = record(&python, &path, seed);
        let _ = std::fs::remove_file(&path);
        let state = FceuState::parse(&rec.state).unwrap();
        let parts = MachineParts::from_state(&state).unwrap();
        let nesmind_emu::BoardImport::Mmc3(regs) = parts.board else {
            panic!("{:?}", parts.board)
        };
        println!("{name}: {regs:02X?}");
        assert!(regs.irq_enabled);
        let diffs = replay(&rom, &rec, true);
        report(name, &diffs);
        assert_eq!(agreeing(&diffs), FRAMES);
        let idle = replay(&rom, &rec, false);
        assert!(agreeing(&idle) < FRAMES / 2, "the ROM ignores the buttons");
    }
}

#[test]
fn register_set_boards_play_on_from_a_stable_retro_state() {
    // Holy Mapperel's MMC2, MMC4 and FME-7 tests (boards imported through their register
    // writes: MMC2/MMC4's latches through PPU fetches). 400 frames in, the tests are done
    // and the result screen waits on the NMI: all RAM agrees in every frame. 3 frames in,
    // the closing melody plays: the NMI lands one instruction apart in a busy loop (the
    // stack page, as for the MMC1 cart), and in at most 2 frames a zero-page byte the game
    // is changing as the frame ends is caught one step apart.
    for name in [
        "holy-mapperel/M9_P128K_C64K.nes",
        "holy-mapperel/M10_P128K_C64K_W8K.nes",
        "holy-mapperel/M69_P128K_C64K_W8K.nes",
    ] {
        let Some((python, path, rom)) = setup(common::corpus_rom(name)) else {
            return;
        };
        for (warmup, unequal_frames) in [(400, 0), (3, 2)] {
            let rec = record_after(&python, &path, 3, warmup);
            let state = FceuState::parse(&rec.state).unwrap();
            let parts = MachineParts::from_state(&state).unwrap();
            assert!(
                matches!(parts.board, nesmind_emu::BoardImport::Registers(_)),
                "{name}: {:?}",
                parts.board
            );
            let diffs = replay(&rom, &rec, true);
            report(&format!("{name}, {warmup} frames in"), &diffs);
            if unequal_frames == 0 {
                assert_eq!(agreeing(&diffs), FRAMES, "{name}, {warmup} frames in");
            }
            let outside = diffs.iter().filter(|d| outside_stack(d)).count();
            assert!(
                outside <= unequal_frames,
                "{name}, {warmup} frames in: {outside}"
            );
        }
    }
}
