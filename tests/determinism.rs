//! Same ROM + same inputs = same frames and RAM: straight, through a clone, and through a
//! RON savestate round trip.

use nesmind::emu::{Machine, Rom};
use nesmind::frontend::bench::scripted_buttons;
use nesmind::host::savestate::{self, StateError};

const TOTAL: u64 = 600;
const SPLIT: u64 = 250;

fn run(m: &mut Machine, from: u64, to: u64) {
    for f in from..to {
        m.set_buttons(0, scripted_buttons(f));
        m.run_frame().expect("homebrew game runs");
    }
}

fn snapshot(m: &Machine) -> (Vec<u16>, Vec<u8>, u64) {
    (m.picture().to_vec(), m.ram().to_vec(), m.cpu_cycles())
}

#[test]
fn straight_clone_and_savestate_runs_agree() {
    let corpus = nesmind::conformance::find_corpus().unwrap_or_else(|e| panic!("{e}"));
    for game in [
        "homebrew/lawn_mower/lawn_mower.nes",
        "homebrew/kubo/kubo.nes",
    ] {
        let rom = Rom::load(&corpus.join(game)).unwrap();
        let mut straight = Machine::new(&rom).unwrap();
        run(&mut straight, 0, TOTAL);
        let want = snapshot(&straight);

        let mut first = Machine::new(&rom).unwrap();
        run(&mut first, 0, SPLIT);
        let mut cloned = first.clone();
        let text = savestate::encode(&first, &rom).unwrap();
        let mut restored = savestate::decode(&text, &rom).unwrap();
        run(&mut cloned, SPLIT, TOTAL);
        run(&mut restored, SPLIT, TOTAL);

        assert!(
            snapshot(&first).1 != want.1,
            "{game}: the game state should move between the split and the end"
        );
        run(&mut first, SPLIT, TOTAL);
        assert!(snapshot(&first) == want, "{game}: split run differs");
        assert!(snapshot(&cloned) == want, "{game}: clone differs");
        assert!(
            snapshot(&restored) == want,
            "{game}: savestate round trip differs"
        );
    }
}

#[test]
fn corrupt_state_is_an_error() {
    let corpus = nesmind::conformance::find_corpus().unwrap_or_else(|e| panic!("{e}"));
    let rom = Rom::load(&corpus.join("homebrew/lawn_mower/lawn_mower.nes")).unwrap();
    let text = savestate::encode(&Machine::new(&rom).unwrap(), &rom).unwrap();
    let err = savestate::decode(&text[..text.len() / 2], &rom)
        .err()
        .expect("truncated state fails");
    assert!(matches!(err, StateError::Length { .. }), "{err}");
}

/// Catching the PPU up on demand (with lines drawn ahead and wait loops fast-forwarded)
/// must give exactly what running it every half cycle, and every loop pass, gives; also
/// for the boards that watch the PPU bus (MMC3's scanline IRQ, MMC2/MMC4's latches).
#[test]
fn on_demand_ppu_matches_lockstep() {
    let corpus = nesmind::conformance::find_corpus().unwrap_or_else(|e| panic!("{e}"));
    for game in [
        "homebrew/lawn_mower/lawn_mower.nes",
        "homebrew/nes15/nes15-NTSC.nes",
        "homebrew/megamountain/megamountain.nes",
        "homebrew/kubo/kubo.nes",
        "blargg/sprite_hit_tests_2005.10.05/09.timing_basics.nes",
        // Sprite 0 polling inside lines drawn ahead, with OAM DMA and mid-line writes.
        "bisqwit/ppu_read_buffer/test_ppu_read_buffer.nes",
        // $2000 written thousands of times a frame while lines are drawn ahead.
        "blargg/read_joy3/count_errors_fast.nes",
        // MMC3: the A12 counter fed by whole lines, its IRQ predicted (and TxSROM).
        "holy-mapperel/M4_P128K_CR8K.nes",
        "holy-mapperel/M4_P256K_C256K.nes",
        "holy-mapperel/M118_P128K_C64K.nes",
        "blargg/mmc3_test_2/rom_singles/3-A12_clocking.nes",
        "blargg/mmc3_test_2/rom_singles/4-scanline_timing.nes",
        // MMC2 and MMC4: CHR latches flipped by tile fetches inside whole lines.
        "holy-mapperel/M9_P128K_C64K.nes",
        "holy-mapperel/M10_P128K_C64K_W8K.nes",
    ] {
        let rom = Rom::load(&corpus.join(game)).unwrap();
        let mut lazy = Machine::new(&rom).unwrap();
        let mut lockstep = Machine::new(&rom).unwrap();
        lockstep.set_speedups(nesmind::emu::Speedups::NONE);
        for f in 0..400 {
            run(&mut lazy, f, f + 1);
            run(&mut lockstep, f, f + 1);
            assert!(
                snapshot(&lazy) == snapshot(&lockstep),
                "{game}: frame {f} differs"
            );
        }
    }
}
