//! RAM search on a running machine: snapshots taken from a fork find the pad byte the DOTS
//! demo cart (Spot's committed `plugins/spot/cart/dots.nes`) keeps, and cartridge RAM
//! through side-effect-free reads.

use nesmind_emu::{Machine, Rom};
use nesmind_host::ramsearch::{PRG_RAM, Search, Snapshot, Test, Width};
use nesmind_host::{Buttons, Fork, Frame};
use nesmind_testroms::support::workspace_path;

fn dots_after(frames: u64) -> Fork {
    let rom = Rom::load(&workspace_path("plugins/spot/cart/dots.nes")).unwrap();
    let mut m = Machine::new(&rom).unwrap();
    m.set_audio_enabled(false);
    let mut fork = Fork::new(&m);
    fork.run_frames(frames).unwrap();
    fork
}

#[test]
fn a_held_button_shows_in_the_pad_byte() {
    let mut fork = dots_after(60);
    let mut search = Search::new(Snapshot::take(&fork, true), Width::U8);
    assert_eq!(search.len(), 0x800 + 0x2000);
    fork.set_buttons(0, Buttons::RIGHT);
    fork.run_frame().unwrap();
    search.filter(Snapshot::take(&fork, true), Test::EqualTo(0x80));
    fork.set_buttons(0, Buttons::NONE);
    fork.run_frame().unwrap();
    search.filter(Snapshot::take(&fork, true), Test::ChangedBy(-0x80));
    assert!(
        search.addresses().contains(&0x0000),
        "{:?}",
        search.survivors()
    );
    assert!(search.len() <= 3, "{:?}", search.survivors());
}

#[test]
fn cartridge_ram_is_read_without_side_effects() {
    let mut fork = dots_after(30);
    fork.poke(0x6123, 0x5A);
    let snap = Snapshot::take(&fork, true);
    assert_eq!(snap.byte(0x6123), Some(0x5A));
    assert!(
        PRG_RAM
            .clone()
            .filter(|&a| snap.byte(a) == Some(0x5A))
            .count()
            >= 1
    );
    assert_eq!(
        Snapshot::take(&fork, true),
        snap,
        "reading changed the machine"
    );
    assert_eq!(snap.frame(), fork.frame_number());
    assert_eq!(Snapshot::take(&fork, false).byte(0x6123), None);
}
