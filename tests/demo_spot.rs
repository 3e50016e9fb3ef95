//! The DOTS demo cart end to end: 6502 code on the emulated machine, the Spot plug-in reading
//! RAM and pressing buttons, the cart's own computer player on the other seats.

mod common;

use nesmind::emu::Rom;
use nesmind::host::Session;
use nesmind::plugins::spot::arena::decided_by_layout;
use nesmind::plugins::spot::demo::{self, DEMO, Options, SETTING_HUMAN};
use nesmind::plugins::spot::layouts::{ThirdCorner, builtin_layout, players_can_meet};
use nesmind::plugins::spot::ram_map::{BUILTIN_RAM_MAPS, find_ram_map, parse_ram_maps};
use std::collections::BTreeSet;
use std::process::Command;

#[test]
fn committed_image_matches_a_rebuild() {
    if !common::cc65_installed() {
        return;
    }
    let rebuilt = common::rebuild_cart("plugins/spot/cart");
    assert!(
        rebuilt == DEMO.image,
        "plugins/spot/cart/dots.nes is stale: run plugins/spot/cart/build.sh and update the \
         CRC32 in plugins/spot/ram_maps.ron"
    );
}

#[test]
fn the_ram_maps_know_the_committed_image() {
    let rom = Rom::parse(DEMO.image, DEMO.file_name).unwrap();
    assert_eq!(rom.mapper, 1, "the cart is MMC1");
    assert_eq!(rom.chr_ram_size, 8 * 1024);
    assert_eq!(rom.prg_ram_size, 8 * 1024);
    let maps = parse_ram_maps(BUILTIN_RAM_MAPS, "built-in").unwrap();
    let map = find_ram_map(&maps, &rom.info).unwrap_or_else(|| {
        panic!(
            "{}\n(put the cart's CRC32 in the DOTS entry of plugins/spot/ram_maps.ron)",
            nesmind::plugins::spot::ram_map::no_map_for(&maps, &rom.info)
        )
    });
    assert!(map.name.starts_with("DOTS"), "{}", map.name);
}

#[test]
fn plugin_beats_the_cart_computer_in_two_player_games() {
    let mut opts = Options::new(2, 1, 5).unwrap();
    opts.games = 100;
    opts.threads = 2;
    // A node budget, not a time one: on a loaded machine 20 ms a move once left a won
    // game shuttling past the frame limit, and the same seed must play the same games.
    opts.move_nodes = Some(demo::DEFAULT_MOVE_NODES);
    opts.seed = 2026;
    let r = demo::play(&opts).unwrap();
    for (i, g) in r.games.iter().enumerate() {
        println!("{}", demo::game_line(i + 1, g, &opts.settings));
    }
    print!("{}", demo::summary(&r, &opts));
    assert!(r.errors.is_empty(), "{:#?}", r.errors);
    assert_eq!(r.games.len(), 100);
    let wins = r.games.iter().filter(|g| g.plugin_won).count();
    assert!(wins >= 95, "the plug-in won only {wins} of 100");
    // Each machine's cart passes the first move to the other side every game.
    let plugin_first = r
        .games
        .iter()
        .filter(|g| opts.settings[g.first] == SETTING_HUMAN)
        .count();
    assert_eq!(plugin_first, 50, "first moves did not alternate");
    // The cart's computer is the one-ply heuristic: every move it made was a best-rated one.
    assert!(
        r.cpu_moves > 1000,
        "only {} cart moves checked",
        r.cpu_moves
    );
    assert_eq!(r.cpu_off_model, 0);
    assert_eq!(r.refused_presses, 0);
    let layouts: BTreeSet<u16> = r.games.iter().map(|g| g.layout).collect();
    assert!(layouts.len() >= 12, "layouts barely vary: {layouts:?}");
    for &l in &layouts {
        let blocked = builtin_layout(l as usize).unwrap();
        assert!(players_can_meet(blocked, 2, ThirdCorner::LowerLeft));
        assert!(!decided_by_layout(blocked), "layout {l} is a forced win");
    }
}

#[test]
fn three_and_four_player_games_finish_through_the_four_score() {
    // (players, plug-in seats, games): the plug-in plays slot 1, and slot 3 through the
    // Four Score's third pad in the last run; the cart's computer plays the rest.
    for (players, seats, games) in [(4, 1, 4), (3, 1, 2), (4, 2, 2)] {
        let mut opts = Options::new(players, seats, 5).unwrap();
        opts.games = games;
        opts.threads = 2;
        opts.move_nodes = Some(demo::DEFAULT_MOVE_NODES);
        opts.seed = 7 + players as u64;
        let r = demo::play(&opts).unwrap();
        print!("{}", demo::summary(&r, &opts));
        assert!(r.errors.is_empty(), "{players} players: {:#?}", r.errors);
        assert_eq!(r.games.len(), games);
        assert_eq!(r.refused_presses, 0);
        assert_eq!(r.cpu_off_model, 0);
        for (slot, &n) in r.moves_by_slot[..players].iter().enumerate() {
            assert!(n > 0, "{players} players: slot {} never moved", slot + 1);
        }
        assert!(r.games.iter().all(|g| g.counts.len() == players));
    }
}

#[test]
fn plugin_in_slot_two_calibrates_through_pad_two() {
    // The cart's computer holds slot 1 (pad 1) and the plug-in slot 2: calibration finds
    // the pad, cursor and turns from pad 2 and the plug-in plays there. (The plug-in is
    // told nothing; the map it settles on must read the cart as its definitions do, which
    // the harness checks on every idle frame.)
    let mut opts = Options::new(2, 1, 5).unwrap();
    opts.settings = [5, SETTING_HUMAN, 0, 0];
    opts.games = 4;
    opts.threads = 1;
    opts.move_nodes = Some(2_000);
    opts.seed = 11;
    let r = demo::play(&opts).unwrap();
    print!("{}", demo::summary(&r, &opts));
    assert!(r.errors.is_empty(), "{:#?}", r.errors);
    assert_eq!(r.games.len(), 4);
    assert!(r.moves_by_slot[1] > 0 && r.plugin_moves > 0);
    assert_eq!(r.refused_presses, 0);
    let (map, _, _) = &r.calibrations[0];
    assert_eq!(map.pad_of_player[1], 1, "{map:?}");
}

#[test]
fn window_demo_plays_out_of_the_box() {
    // What `nesmind demo spot` runs in the window: the cart's default settings (player 1
    // human, player 2 the computer at level 5) start by themselves on the title screen.
    let rom = Rom::parse(DEMO.image, DEMO.file_name).unwrap();
    let mut session = Session::new(rom).unwrap();
    session.machine_mut().set_audio_enabled(false);
    let entry = nesmind::plugins::find("spot").unwrap();
    let opts = DEMO
        .window_options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    session.attach((entry.create)(&opts).unwrap(), &[]).unwrap();
    for _ in 0..1500 {
        session.step().unwrap();
    }
    let summary = session.plugin_result().unwrap();
    let moves: u32 = summary
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("unexpected summary '{summary}'"));
    assert!(moves >= 3, "the plug-in entered {moves} moves: {summary}");
    // On the play screen, or back on the title after a game the plug-in saw end (a game
    // against level 5 can be over within the 1500 frames).
    let games: u32 = summary
        .split_whitespace()
        .nth(4)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("unexpected summary '{summary}'"));
    let mode = session.machine().peek(0x0017);
    assert!(
        mode == 3 || (mode == 5 && games >= 1),
        "not on the play screen (mode {mode}) and no game ended: {summary}"
    );
}

/// `nesmind demo spot --headless`, two games on one thread, plus `extra`.
fn headless_two_games(extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nesmind"));
    c.args([
        "demo",
        "spot",
        "--headless",
        "--games",
        "2",
        "--threads",
        "1",
    ])
    .args(extra);
    c
}

#[test]
fn headless_command_ends_with_the_win_rate() {
    let o = headless_two_games(&["--move-ms", "10", "--seed", "3"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let last = out.lines().last().unwrap_or("");
    let rate: f64 = last
        .strip_prefix("win_rate ")
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("last line '{last}'"));
    assert!((0.0..=1.0).contains(&rate));
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 2);
    // Stderr is a pipe here: no progress line, so logs stay byte-identical run to run.
    assert!(!String::from_utf8_lossy(&o.stderr).contains('\r'));
    let bad = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args([
            "demo",
            "spot",
            "--headless",
            "--players",
            "3",
            "--plugin-seats",
            "3",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("plug-in seats"), "{err}");
}

/// On a terminal (forced here) a long run shows games done, the win rate and an ETA.
#[test]
fn headless_games_show_progress_on_a_terminal() {
    let o = headless_two_games(&["--move-nodes", "2000", "--seed", "5"])
        .env("NESMIND_PROGRESS", "always")
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("1/2 games") && err.contains("plug-in won") && err.contains("ETA"),
        "{err}"
    );
}

/// The headless demo on a wide DOTS variant (the variants themselves:
/// plugins/spot/tests/it/wide_variants.rs).
#[test]
fn the_headless_demo_plays_a_wide_variant_and_names_bad_ones() {
    let nesmind = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_nesmind"))
            .args([
                "demo",
                "spot",
                "--headless",
                "--games",
                "1",
                "--threads",
                "1",
            ])
            .args(args)
            .output()
            .unwrap()
    };
    for (bad, says) in [
        (&["--cart-variant", "wide:x"][..], "is not a seed"),
        (&["--cart-variant", "wide:4294967296"][..], "is not a seed"),
        (&["--cart-check"][..], "--cart-variant"),
    ] {
        let o = nesmind(bad);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(says), "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
    if !common::cc65_installed() {
        return;
    }
    let seed = demo::variant::random_seed().to_string();
    let wide = format!("wide:{seed}");
    let o = nesmind(&[
        "--plugin-seats",
        "0",
        "--cart-variant",
        &wide,
        "--cart-check",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{wide}: {out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.starts_with(&format!("cart variant {wide}\n")), "{out}");
    assert!(out.contains("1 games:"), "{out}");
}

/// `nesmind demo spot ARGS` must fail, before any window opens, with a message holding `want`.
fn refused(args: &[&str], want: &str) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(["demo", "spot"])
        .args(args)
        .env("DISPLAY", ":nowhere")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains(want), "{args:?}: {err}");
}

#[test]
fn the_command_names_what_is_wrong_with_its_seats_and_levels() {
    refused(&["--human", "1,2"], "leave at least one");
    refused(&["--human", "3", "--players", "2"], "--players 3");
    refused(&["--human", "0"], "'0' is not a seat 1-4");
    refused(&["--human", "1", "--ai-level", "expert"], "2 easy");
    refused(&["--human", "1", "--level", "2"], "--ai-level");
    refused(&["--ai-level", "2"], "--human");
    refused(&["--human", "1", "--headless"], "--headless");
    // A valid game still needs a display.
    refused(&["--human", "2"], "--human needs the window");
}
