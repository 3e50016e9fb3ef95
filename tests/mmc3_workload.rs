//! The MMC3 workload cart (benches/carts/mmc3): the committed image is what its sources
//! build, and it runs the same with every shortcut as in lockstep, sound included.

mod common;

use nesmind::emu::{Machine, Rom, Speedups};
use nesmind::frontend::bench::scripted_buttons;
use std::path::Path;

fn cart_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/carts/mmc3"))
}

fn committed() -> Vec<u8> {
    std::fs::read(cart_dir().join("mmc3-workload.nes")).unwrap()
}

#[test]
fn committed_image_matches_a_rebuild() {
    if !common::cc65_installed() {
        return;
    }
    let rebuilt = common::rebuild_cart("benches/carts/mmc3");
    assert!(
        rebuilt == committed(),
        "benches/carts/mmc3/mmc3-workload.nes is stale: run benches/carts/mmc3/build.sh"
    );
}

/// Picture, RAM, cycles and sound of one frame.
fn frame(m: &mut Machine, f: u64, sound: &mut Vec<i16>) -> (Vec<u16>, Vec<u8>, u64) {
    m.set_buttons(0, scripted_buttons(f));
    m.run_frame().expect("the cart runs");
    sound.clear();
    m.take_audio(sound);
    (m.picture().to_vec(), m.ram().to_vec(), m.cpu_cycles())
}

#[test]
fn shortcuts_match_lockstep_with_sound() {
    let rom = Rom::parse(&committed(), "mmc3-workload.nes").unwrap();
    assert_eq!(rom.info.mapper, 4);
    let mut lazy = Machine::new(&rom).unwrap();
    let mut lockstep = Machine::new(&rom).unwrap();
    lockstep.set_speedups(Speedups::NONE);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut levels = std::collections::HashSet::new();
    let mut first = None;
    for f in 0..600 {
        let x = frame(&mut lazy, f, &mut a);
        let y = frame(&mut lockstep, f, &mut b);
        assert!(x == y, "frame {f}: picture, RAM or cycles differ");
        assert!(a == b, "frame {f}: sound differs");
        levels.extend(a.iter().copied());
        first.get_or_insert(x.1);
    }
    // The script steers it: scroll speed, player height and score all moved.
    assert!(first.unwrap() != lazy.ram(), "the game state never moved");
    assert!(levels.len() > 500, "little sound: {} levels", levels.len());
}

/// The status bar stays put while the playfield above it scrolls: the scanline IRQ split
/// works (without it the bar would scroll with the rest).
#[test]
fn status_bar_is_split_off() {
    let rom = Rom::parse(&committed(), "mmc3-workload.nes").unwrap();
    let mut m = Machine::new(&rom).unwrap();
    let mut sound = Vec::new();
    let rows = |p: &[u16], from: usize, to: usize| p[from * 256..to * 256].to_vec();
    for f in 0..30 {
        frame(&mut m, f, &mut sound);
    }
    let (p1, _, _) = frame(&mut m, 30, &mut sound);
    for f in 31..70 {
        frame(&mut m, f, &mut sound);
    }
    let (p2, _, _) = frame(&mut m, 70, &mut sound);
    assert!(
        rows(&p1, 8, 180) != rows(&p2, 8, 180),
        "the playfield does not scroll"
    );
    // Lines 200-207: a row of bar tiles across the whole width of the left nametable;
    // scrolled, the right nametable's blank row would show in part of it.
    let bar = |p: &[u16]| p[200 * 256..208 * 256].to_vec();
    assert!(
        bar(&p2).iter().all(|&c| c == p2[200 * 256]),
        "the status bar scrolled"
    );
    assert!(bar(&p1) == bar(&p2), "the status bar moved");
}
