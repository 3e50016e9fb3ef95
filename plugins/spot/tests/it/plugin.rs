//! End-to-end: the Spot plug-in plays complete games against the RAM-image host, reading the
//! game only from RAM and answering only with pad buttons.

use nesmind_host::{AccessKind, Plugin, PluginOptions, RomInfo, Setup};
use nesmind_spot::layouts::{ThirdCorner, builtin_layout, parse_fen};
use nesmind_spot::moves::Kind;
use nesmind_spot::plugin::SpotPlugin;
use nesmind_spot::position::Outcome;
use nesmind_spot::ram_host::{HostConfig, RamHost};
use nesmind_spot::ram_map::{BUILTIN_RAM_MAPS, parse_ram_maps};
use std::ops::RangeInclusive;

struct TestSetup {
    pads: usize,
}
impl Setup for TestSetup {
    fn watch(&mut self, _kind: AccessKind, _range: RangeInclusive<u16>) -> usize {
        0
    }
    fn use_pads(&mut self, count: usize) {
        self.pads = count;
    }
}

fn spot_rom() -> RomInfo {
    RomInfo {
        crc32: 0x1234_5678,
        prg_crc32: 0xCFAE_9DFA,
        sha1: [0; 20],
        mapper: 1,
        submapper: 0,
        file_name: "Spot (U).nes".into(),
    }
}

fn options(pairs: &[(&str, &str)]) -> PluginOptions {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const HUMAN: u8 = 6;

fn host(settings: [u8; 4], layout: usize, secret: u8, seed: u64) -> RamHost {
    let map = parse_ram_maps(BUILTIN_RAM_MAPS, "builtin")
        .unwrap()
        .remove(0);
    let cfg = HostConfig {
        settings,
        blocked: builtin_layout(layout).unwrap(),
        third: ThirdCorner::LowerRight,
        secret,
        seed,
    };
    RamHost::new(map, &cfg).unwrap()
}

/// The shipped maps as a file: the RAM-image host cannot be copied, so the player cannot
/// calibrate on it and is given the map (`ram_map=FILE`, trusted as given).
/// Written once per test process: the tests run on parallel threads of one process, and a
/// file rewritten by one test while another reads it was read empty (CI, stop 20).
fn shipped_map_file() -> String {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let path =
            std::env::temp_dir().join(format!("nesmind-spot-maps-{}.ron", std::process::id()));
        std::fs::write(&path, BUILTIN_RAM_MAPS).unwrap();
        path.to_string_lossy().into_owned()
    })
    .clone()
}

fn attach(opts: &[(&str, &str)]) -> (SpotPlugin, usize) {
    let maps = shipped_map_file();
    let mut all = opts.to_vec();
    all.push(("ram_map", &maps));
    let mut plugin = SpotPlugin::from_options(&options(&all)).unwrap();
    let mut setup = TestSetup { pads: 0 };
    plugin.on_attach(&spot_rom(), &mut setup).unwrap();
    (plugin, setup.pads)
}

/// Runs frames until the game ends; returns the frames used.
fn play_out(plugin: &mut SpotPlugin, host: &mut RamHost, max_frames: u64) -> u64 {
    for frame in 0..max_frames {
        plugin.on_frame(host);
        host.step();
        if host.is_over() {
            plugin.on_frame(host);
            return frame;
        }
    }
    panic!(
        "game not finished after {max_frames} frames; history {:?}",
        host.history
    );
}

#[test]
fn plays_a_two_player_game_through_the_pad_and_wins() {
    let mut wins = 0;
    for (game, layout) in [(0u64, 0usize), (1, 66), (2, 300)] {
        let (mut plugin, pads) = attach(&[("move_ms", "15")]);
        assert_eq!(pads, 4);
        let mut host = host([HUMAN, 5, 0, 0], layout, 0xFF, game);
        play_out(&mut plugin, &mut host, 60_000);
        let ours = host.history.iter().filter(|(slot, _)| *slot == 0).count();
        assert!(ours >= 3, "the plug-in made only {ours} moves");
        assert_eq!(host.rejected_presses, 0, "the game ignored some presses");
        assert!(plugin.errors.is_empty(), "{:?}", plugin.errors);
        assert_eq!(plugin.games, 1);
        if host.position().ranking_outcome() == Outcome::Win(0) {
            wins += 1;
        }
        assert_eq!(
            plugin.wins,
            u32::from(host.position().ranking_outcome() == Outcome::Win(0))
        );
    }
    assert!(wins >= 2, "won {wins} of 3 against the NES AI model");
}

#[test]
fn reads_the_cursor_back_when_presses_get_lost() {
    let (mut plugin, _) = attach(&[("move_ms", "10")]);
    let mut host = host([5, HUMAN, 0, 0], 130, 0xFF, 4);
    host.drop_dpad_every = 3;
    play_out(&mut plugin, &mut host, 80_000);
    assert!(host.history.iter().filter(|(s, _)| *s == 1).count() >= 3);
    assert_eq!(
        host.rejected_presses, 0,
        "an A press landed on the wrong cell"
    );
    assert!(plugin.errors.is_empty(), "{:?}", plugin.errors);
}

#[test]
fn plays_two_seats_through_the_four_score() {
    let (mut plugin, pads) = attach(&[("move_ms", "10"), ("seats", "1,3")]);
    assert_eq!(pads, 3);
    let mut host = host([HUMAN, 5, HUMAN, 5], 17, 0xFF, 9);
    play_out(&mut plugin, &mut host, 80_000);
    for slot in [0, 2] {
        assert!(
            host.history
                .iter()
                .any(|(s, m)| *s == slot && m.kind == Kind::Step),
            "slot {slot} never moved"
        );
    }
    assert_eq!(host.rejected_presses, 0);
    assert!(plugin.errors.is_empty(), "{:?}", plugin.errors);
}

#[test]
fn stops_the_reels_on_the_chosen_prize_and_enters_it() {
    let (mut plugin, _) = attach(&[("move_ms", "10")]);
    let mut host = host([HUMAN, 5, 0, 0], 0, 0xFF, 3);
    // The plug-in's colour (x) is far behind when it wins the bonus game.
    let pos = parse_fen("xx5/7/7/7/7/1o5/ooooooo x", 2).unwrap();
    host.set_position(pos).unwrap();
    let behind = host.position().count(0);
    host.force_bonus();
    for _ in 0..2_000 {
        plugin.on_frame(&mut host);
        host.step();
        if host
            .history
            .last()
            .is_some_and(|(s, m)| *s == 0 && m.is_prize())
        {
            break;
        }
    }
    let (slot, reels) = *host.bonus_results.last().expect("bonus game played");
    assert_eq!(slot, 0);
    assert!(
        reels[0] == reels[1] && reels[1] == reels[2],
        "reels {reels:?} do not match"
    );
    let (_, prize) = *host.history.last().unwrap();
    assert_eq!(
        prize.kind,
        Kind::Swap,
        "far behind, swapping colours is best"
    );
    assert!(host.position().count(0) > behind);
    assert_eq!(host.rejected_presses, 0);
}

#[test]
fn bad_options_and_unknown_cartridges_are_reported() {
    let e = SpotPlugin::from_options(&options(&[("colour", "red")]))
        .err()
        .unwrap();
    assert!(e.contains("colour"));
    let e = SpotPlugin::from_options(&options(&[("ram_map", "/nonexistent/map.ron")]))
        .err()
        .unwrap();
    assert!(e.contains("/nonexistent/map.ron"));
    let e = SpotPlugin::from_options(&options(&[("seats", "1,5")]))
        .err()
        .unwrap();
    assert!(e.contains("'5'"));
    let maps = shipped_map_file();
    let mut plugin = SpotPlugin::from_options(&options(&[("ram_map", &maps)])).unwrap();
    let mut rom = spot_rom();
    rom.prg_crc32 = 0xDEAD_BEEF;
    let e = plugin
        .on_attach(&rom, &mut TestSetup { pads: 0 })
        .unwrap_err();
    assert!(e.contains("DEADBEEF") && e.contains("CFAE9DFA"), "{e}");
    // Without a given map the player calibrates; a host that cannot be copied stops it at
    // the first start position, with the reason, before any press.
    let mut plugin = SpotPlugin::from_options(&PluginOptions::new()).unwrap();
    plugin.on_attach(&rom, &mut TestSetup { pads: 0 }).unwrap();
    let mut host = host([HUMAN, 5, 0, 0], 0, 0xFF, 1);
    for _ in 0..3 {
        plugin.on_frame(&mut host);
        host.step();
    }
    let why = plugin.failure().expect("stopped").to_string();
    assert!(
        why.contains("cannot copy the machine") && why.contains("ram_map"),
        "{why}"
    );
    assert!(host.history.is_empty());
}
