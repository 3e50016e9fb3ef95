//! The Hatris player on cartridges whose storage and picture both vary (the wide space of
//! `cart/build.sh`), told neither: it reads the piles, the falling pair and the next pair
//! from the picture and checks any RAM map against them. Spawns and game over come from
//! the cart's test port, never from the player.
//!
//! Fresh random variants (seeds printed; replay with `nesmind demo hatris --headless
//! --cart-variant wide:SEED`) must be played honestly: nothing pressed before the player
//! has calibrated from the picture, and a game it does not play comes with its reason.
//! Variants played before must be played to the cap; the picture alone (`ram=off`) plays
//! the demo cartridge.

use crate::spy::Spy;

use nesmind_hatris::demo;
use nesmind_hatris::play::run_parallel;
use nesmind_hatris::player::HatrisPlayer;
use nesmind_hatris::variant::{Cart, fresh_seed};
use nesmind_host::{Frame, Plugin, PluginOptions, RomInfo, Setup};
use nesmind_testroms::support::cc65_installed;
use std::sync::{Arc, Mutex};

/// Wide variants the player has played to the cap (each once showed a problem: a status
/// line behind the spawning pair, a background shifted from the sprites, a score line
/// that blinks beside the piles, OAM left half rebuilt for a frame at a spawn).
const PLAYED: [u64; 4] = [
    192_132_628_008,
    353_128_698_324,
    488_889_554_498,
    254_157_510_448,
];

#[derive(Default)]
struct Seen {
    presses_before_calibrating: u64,
    calibrated: bool,
    result: Option<String>,
    status: String,
}

/// The player, watched: every press must come after its picture calibration.
struct Watched {
    player: HatrisPlayer,
    seen: Arc<Mutex<Seen>>,
}

impl Plugin for Watched {
    fn name(&self) -> &str {
        "hatris"
    }
    fn description(&self) -> &str {
        "the Hatris player, watched by a test"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.player.on_attach(rom, setup)
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let before = self.player.sight().is_some();
        let mut spy = Spy::new(frame);
        self.player.on_frame(&mut spy);
        let mut s = self.seen.lock().unwrap();
        if spy.pressed && !before {
            s.presses_before_calibrating += 1;
        }
        s.calibrated |= self.player.sight().is_some();
        s.result = self.player.result();
        s.status = self
            .player
            .sight_problem()
            .map(str::to_string)
            .unwrap_or_default();
    }
    fn result(&self) -> Option<String> {
        self.player.result()
    }
}

fn play(
    cart: &Cart,
    opts: &PluginOptions,
    cap: u64,
) -> (
    Result<nesmind_hatris::play::RunResult, String>,
    Arc<Mutex<Seen>>,
) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let plugin = Box::new(Watched {
        player: HatrisPlayer::from_options(opts).unwrap(),
        seen: seen.clone(),
    });
    let mut session = demo::cart_session(cart, plugin).unwrap();
    (demo::drive(&mut session, cart, 1, Some(cap)), seen)
}

#[test]
fn played_variants_reach_the_cap() {
    if !cc65_installed() {
        return;
    }
    let job = |i: usize| {
        let seed = PLAYED[i];
        let context = format!(
            "wide variant {seed} (nesmind demo hatris --headless --cart-variant wide:{seed})"
        );
        let cart = Cart::wide(seed, false, &[]).unwrap_or_else(|e| panic!("{context}: {e}"));
        let (run, seen) = play(&cart, &PluginOptions::new(), 200);
        let run = run.unwrap_or_else(|e| panic!("{context}: {e}"));
        let s = seen.lock().unwrap();
        assert!(run.capped, "{context}: {run:?}; {:?}", s.result);
        assert_eq!(s.presses_before_calibrating, 0, "{context}");
    };
    // Two at a time: CI's machines have two cores.
    run_parallel(PLAYED.len(), 2, &job, &|_, _, _| {});
}

#[test]
fn fresh_variants_are_played_honestly() {
    if !cc65_installed() {
        return;
    }
    let seeds: Vec<u64> = (0..5).map(|_| fresh_seed()).collect();
    let job = |i: usize| {
        let seed = seeds[i];
        let context = format!(
            "wide variant {seed} (nesmind demo hatris --headless --cart-variant wide:{seed})"
        );
        let cart = Cart::wide(seed, false, &[]).unwrap_or_else(|e| panic!("{context}: {e}"));
        let (run, seen) = play(&cart, &PluginOptions::new(), 50);
        let s = seen.lock().unwrap();
        eprintln!("{context}: {run:?}; {:?}", s.result);
        assert_eq!(
            s.presses_before_calibrating, 0,
            "{context}: pressed before calibrating"
        );
        // Not calibrated: it says why (the last try's problem), and pressed nothing.
        if !s.calibrated {
            assert!(
                !s.status.is_empty(),
                "{context}: no calibration and no reason"
            );
        }
    };
    // Two at a time: CI's machines have two cores.
    run_parallel(seeds.len(), 2, &job, &|_, _, _| {});
}

#[test]
fn the_picture_alone_plays_the_demo_cart() {
    let mut opts = PluginOptions::new();
    opts.insert("ram".into(), "off".into());
    let (run, seen) = play(&Cart::default_cart(), &opts, 300);
    let run = run.unwrap();
    assert!(run.capped, "{run:?}");
    let s = seen.lock().unwrap();
    let line = s.result.as_deref().unwrap_or("");
    // Never a RAM map with ram=off.
    assert!(!line.contains("RAM map"), "{line}");
}
