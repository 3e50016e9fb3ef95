//! The Spot player on DOTS variants whose storage and picture both vary (the wide space of
//! `cart/build.sh`): it is told neither, reads the game from the picture and checks any RAM
//! map against it. The harness checks every move and result through the cart's test port,
//! never through the player.
//!
//! Fresh random variants (seeds printed; replay with `nesmind demo spot --headless
//! --cart-variant wide:SEED`) must be played honestly: no move the rules refuse, no A press
//! the cart refuses, no frame held up for a second, and a game the player does not play
//! comes with its reason. Variants that have been played before must be won.

mod common;

use nesmind::host::PluginOptions;
use nesmind::plugins::hatris::play::run_parallel;
use nesmind::plugins::spot::demo::{self, Options, timing, variant};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Wide variants the player has calibrated on and won (a regression list: each one once
/// showed a different picture or storage problem).
const PLAYED: [u64; 15] = [
    892_557_422,
    2_530_544_273,
    3_511_846_411,
    2_779_894_789,
    964_295_044,
    1_367_063_654,
    3_472_440_263,
    // A panel that draws the mover's pieces in a row beside the board.
    3_836_503_912,
    // A status line over the board's top row, cut off by a cut that left that row off.
    1_789_191_553,
    // 32 px cells whose hand's mean moves 25 and 38 px by turns.
    2_555_042_829,
    // The hand drawn into the cells, the cell it leaves looking the same either way; a
    // game that thinks a few frames before it shows a move.
    2_303_327_578,
    // A hand of corner sprites whose boxes hide the whole cell it stands on.
    2_538_682_613,
    // A picked piece that shows its selection going some frames before the new piece.
    1_555_359_174,
    // 32x16 px cells and a cross of blocked cells whose art shares the hand's colours:
    // the means of the walk's changes step 11.6, 11.8, 20.2, 20.2 px down.
    3_838_649_052,
    // A board from the screen's top line, its hand a bar under the cell: the cut's search
    // window held the right phase only a cell too low, its last row off screen.
    4_040_099_964,
];

/// Wide variants the player has won from the picture alone (`ram=off`) after failing so.
const PLAYED_PICTURE_ONLY: [u64; 3] = [
    // A play screen still being drawn when the turn begins: what changed in its first
    // frames was taken for things that change by themselves, and hid the hand's cells.
    1_207_822_197,
    // A hand whose sprites hide the whole new piece: the source's selection going was
    // taken for the piece, and the cells were cut a cell off.
    1_408_491_761,
    // A dot for a hand on 32 px cells whose changes' means stepped 22 and 42 px by turns:
    // the exact step was searched for only round 22, and the pitch read as 30.
    2_605_033_068,
];

/// `nodes`: the player's search budget per move (what it plays well with is not what
/// this file checks, but a won game needs a fair search on an unusual layout).
/// The tests here take a core or two each: one at a time, so that the frame timing below
/// measures the player, not the other tests of this file running beside it.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn alone() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

fn options(seed: u64, games: usize, nodes: u64) -> Result<Options, String> {
    let mut opts = Options::new(2, 1, 5)?;
    opts.games = games;
    opts.move_nodes = Some(nodes);
    opts.threads = 1;
    opts.cart = variant::build_wide(seed, false)?;
    Ok(opts)
}

#[test]
fn played_variants_are_won() {
    let _alone = alone();
    if !common::cc65_installed() {
        return;
    }
    let cases: Vec<(u64, bool)> = (PLAYED.iter().map(|&s| (s, false)))
        .chain(PLAYED_PICTURE_ONLY.iter().map(|&s| (s, true)))
        .collect();
    let job = |i: usize| {
        let (seed, picture_only) = cases[i];
        let flag = if picture_only {
            " --plugin-opt ram=off"
        } else {
            ""
        };
        let context = format!(
            "wide variant {seed} (nesmind demo spot --headless --cart-variant wide:{seed}{flag})"
        );
        // One game each: what once failed was calibration and reading, which a game shows.
        let mut opts = options(seed, 1, 10_000).unwrap_or_else(|e| panic!("{context}: {e}"));
        if picture_only {
            opts.plugin_options.insert("ram".into(), "off".into());
        }
        let r = demo::play(&opts).unwrap_or_else(|e| panic!("{context}: {e}"));
        assert!(r.errors.is_empty(), "{context}: {:#?}", r.errors);
        assert_eq!(r.refused_presses, 0, "{context}");
        assert_eq!(r.games.len(), 1, "{context}");
        let won = r.games.iter().filter(|g| g.plugin_won).count();
        assert_eq!(won, 1, "{context}: the game was not won");
    };
    // Two at a time: CI's machines have two cores.
    run_parallel(cases.len(), 2, &job, &|_, _, _| {});
}

#[test]
fn fresh_variants_are_played_honestly() {
    let _alone = alone();
    if !common::cc65_installed() {
        return;
    }
    let seeds: Vec<u64> = (0..5).map(|_| variant::random_seed()).collect();
    let job = |i: usize| {
        let seed = seeds[i];
        let context = format!(
            "wide variant {seed} (nesmind demo spot --headless --cart-variant wide:{seed})"
        );
        let opts = options(seed, 1, 2_000).unwrap_or_else(|e| panic!("{context}: {e}"));
        let r = demo::play(&opts).unwrap_or_else(|e| panic!("{context}: {e}"));
        eprintln!(
            "{context}: {} game(s), {} won, {} plug-in moves, problems {:?}",
            r.games.len(),
            r.games.iter().filter(|g| g.plugin_won).count(),
            r.plugin_moves,
            r.errors
        );
        // The cart never refused a press and every move the port reported was legal.
        assert_eq!(r.refused_presses, 0, "{context}");
        // A move the copy did not take is tried again or replaced; nothing reached the game.
        let on_forks = |e: &String| e.contains("not taken on a fork");
        assert!(
            r.errors
                .iter()
                .filter(|e| !on_forks(e))
                .all(|e| e.starts_with("stuck") || e.starts_with("a game lasted")),
            "{context}: {:#?}",
            r.errors
        );
        // A game the player did not play ends with it saying why (not that it waits for
        // its turn while the game waits for it).
        for e in r.errors.iter().filter(|e| !on_forks(e)) {
            assert!(
                e.contains("the plug-in") && !e.contains("waiting for my turn"),
                "{context}: a silent stall: {e}"
            );
        }
    };
    // Two at a time: CI's machines have two cores.
    run_parallel(seeds.len(), 2, &job, &|_, _, _| {});
}

#[test]
fn no_frame_is_held_up_on_a_wide_variant() {
    let _alone = alone();
    if !common::cc65_installed() {
        return;
    }
    let seed = PLAYED[0];
    let cart = variant::build_wide(seed, false).unwrap();
    let t = timing::time_calibration(&cart, 900, &PluginOptions::new())
        .unwrap_or_else(|e| panic!("wide variant {seed}: {e}"));
    assert!(
        t.longest_frame < Duration::from_secs(1),
        "wide variant {seed}: a frame took {:?}",
        t.longest_frame
    );
    assert!(t.fork_frames > 0);
}

#[test]
fn the_picture_alone_wins_the_committed_cart() {
    let _alone = alone();
    let mut opts = Options::new(2, 1, 5).unwrap();
    opts.games = 2;
    opts.move_nodes = Some(2_000);
    opts.threads = 1;
    opts.plugin_options.insert("ram".into(), "off".into());
    let r = demo::play(&opts).unwrap();
    assert!(r.errors.is_empty(), "{:#?}", r.errors);
    assert_eq!(r.games.iter().filter(|g| g.plugin_won).count(), 2);
    // RAM was never calibrated.
    assert!(r.calibrations.is_empty());
}
