//! End-to-end: the Hatris plug-in plays the RAM-image host through the plug-in API only.

use nesmind_hatris::game::Game;
use nesmind_hatris::ram_map;
use nesmind_hatris::ramhost::RamHost;
use nesmind_hatris::rules::{Helper, Settings};
use nesmind_host::{AccessKind, Frame, Plugin, PluginOptions, RomInfo, Setup};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::ops::RangeInclusive;

const HOST_CRC: u32 = 0x48415452;

struct NoSetup;
impl Setup for NoSetup {
    fn watch(&mut self, _: AccessKind, _: RangeInclusive<u16>) -> usize {
        0
    }
    fn use_pads(&mut self, _: usize) {}
}

fn rom(crc: u32) -> RomInfo {
    RomInfo {
        crc32: crc,
        prg_crc32: crc,
        sha1: [0; 20],
        mapper: 1,
        submapper: 0,
        file_name: "test.nes".into(),
    }
}

fn player() -> Box<dyn Plugin> {
    (nesmind_hatris::ENTRY.create)(&PluginOptions::new()).expect("plug-in builds")
}

fn host(seed: u64) -> RamHost {
    let game = Game::new(Settings::default(), &mut StdRng::seed_from_u64(seed));
    let map = ram_map::shipped()
        .into_iter()
        .find(|m| m.crc32 == [HOST_CRC])
        .unwrap();
    RamHost::new(game, map).unwrap()
}

fn run(p: &mut dyn Plugin, h: &mut RamHost, frames: u32) {
    for _ in 0..frames {
        if h.is_over() {
            break;
        }
        p.on_frame(h);
        h.advance();
    }
}

#[test]
fn plays_the_ram_image_host_by_pad_alone() {
    let mut p = player();
    p.on_attach(&rom(HOST_CRC), &mut NoSetup).unwrap();
    let mut h = host(5);
    run(p.as_mut(), &mut h, 40_000);
    eprintln!(
        "spawns {} stacks {} level {} over {} helpers {}",
        h.game.spawns,
        h.game.stacks_cleared,
        h.game.level,
        h.is_over(),
        h.helpers_used
    );
    assert_eq!(h.error, None, "the host saw an illegal move");
    // Every pair must be steered and dropped: hundreds of spawns and many cleared stacks.
    assert!(h.game.spawns > 300, "only {} spawns", h.game.spawns);
    assert!(
        h.game.stacks_cleared > 60,
        "only {} stacks",
        h.game.stacks_cleared
    );
    assert!(h.game.level >= 4, "level {}", h.game.level);
    assert!(!h.status().is_empty());
    assert!(p.result().unwrap().contains("decisions"));
}

#[test]
fn calls_helpers_through_the_helper_screen() {
    let mut p = player();
    p.on_attach(&rom(HOST_CRC), &mut NoSetup).unwrap();
    let mut h = host(9);
    run(p.as_mut(), &mut h, 3_000);
    h.game.pool = vec![
        Helper::Vladimir,
        Helper::Alexey,
        Helper::Vladimir,
        Helper::Alexey,
    ];
    run(p.as_mut(), &mut h, 6_000);
    eprintln!("helpers used {} pool {:?}", h.helpers_used, h.game.pool);
    assert_eq!(h.error, None);
    assert!(h.helpers_used >= 1, "no helper was used");
}

#[test]
fn any_cart_attaches_but_a_given_map_must_know_the_piles() {
    // Calibration decides later whether a cartridge makes sense; attaching never refuses.
    let mut p = player();
    p.on_attach(&rom(0x12345678), &mut NoSetup).unwrap();
    // A map the user gives is used as given, so it must say where the piles are.
    let path = std::env::temp_dir().join(format!("hatris-nopiles-{}.ron", std::process::id()));
    std::fs::write(&path, ram_map::SHIPPED).unwrap();
    let mut o = PluginOptions::new();
    o.insert("ram_map".into(), path.display().to_string());
    let mut p = (nesmind_hatris::ENTRY.create)(&o).unwrap();
    let e = p.on_attach(&rom(0x841B69B6), &mut NoSetup).unwrap_err();
    let _ = std::fs::remove_file(&path);
    assert!(
        e.contains("does not say where the piles are") && e.contains("Hatris (U)"),
        "{e}"
    );
}

/// A host that cannot fork and has no shipped map: the player says so and presses nothing.
#[test]
fn without_forks_or_a_map_nothing_is_pressed() {
    let mut p = player();
    p.on_attach(&rom(0x12345678), &mut NoSetup).unwrap();
    let mut h = host(3);
    for _ in 0..600 {
        p.on_frame(&mut h);
        assert_eq!(
            h.buttons(0),
            nesmind_host::Buttons::NONE,
            "a button was pressed"
        );
        h.advance();
    }
    assert!(h.status().contains("not playing"), "{}", h.status());
    assert!(
        p.result().unwrap().contains("calibration failed"),
        "{:?}",
        p.result()
    );
}

#[test]
fn bad_options_are_named() {
    let mut o = PluginOptions::new();
    o.insert("depth".into(), "3".into());
    let e = (nesmind_hatris::ENTRY.create)(&o).err().unwrap();
    assert!(e.contains("unknown option 'depth'"), "{e}");
    let mut o = PluginOptions::new();
    o.insert("ram_map".into(), "/nonexistent/map.ron".into());
    let e = (nesmind_hatris::ENTRY.create)(&o).err().unwrap();
    assert!(e.contains("/nonexistent/map.ron"), "{e}");
}

/// The plug-in API's PPU reads on a host without a PPU (the RAM host): nothing there.
#[test]
fn hosts_without_a_ppu_show_none() {
    let game = Game::new(Settings::default(), &mut StdRng::seed_from_u64(1));
    let map = ram_map::shipped()
        .into_iter()
        .find(|m| m.crc32 == [0x48415452])
        .unwrap();
    let host = RamHost::new(game, map).unwrap();
    assert_eq!(host.peek_ppu(0x3F00), 0);
    assert!(host.oam().is_empty());
}
