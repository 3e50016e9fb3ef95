//! Variants of the Hatris-like cartridge follow the rules: a harness that knows each
//! variant's map steers every pair to a random place and checks, at every spawn, that the
//! piles the cart stores are what the player's model makes of the previous piles.
//! One variant per storage feature, so each path of the cart's variant code runs.

use nesmind_hatris::board::{Board, Geometry};
use nesmind_hatris::demo;
use nesmind_hatris::rules::{COLUMNS, NestReading, Settings};
use nesmind_hatris::variant::{Cart, frame_memory};
use nesmind_host::{Buttons, Frame, Plugin, RomInfo, Setup};
use nesmind_testroms::support::cc65_installed;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Tally {
    checked: u64,
    splits: u64,
    over: bool,
    errors: Vec<String>,
}

/// Piles when the pair spawned.
type Pending = [Vec<u8>; COLUMNS];

struct Steer {
    cart: Cart,
    geo: Geometry,
    limit: i16,
    rand: StdRng,
    seen: u64,
    /// The column the pair's left hat should reach, and whether to press A once.
    target: Option<(u8, bool)>,
    pending: Option<Pending>,
    /// The falling hats (type, column) on the last frame both were known.
    last_hats: [(u8, u8); 2],
    release: bool,
    tally: Arc<Mutex<Tally>>,
}

impl Steer {
    fn model(&self, piles: &[Vec<u8>; COLUMNS]) -> Board {
        let mut b = Board::default();
        b.set_piles(&self.geo, piles);
        b
    }

    fn check(&mut self, now: &[Vec<u8>; COLUMNS], heights: [i16; COLUMNS], over: bool) {
        let mut t = self.tally.lock().unwrap();
        let model_now = self.model(now);
        if model_now.heights() != heights {
            t.errors.push(format!(
                "heights {heights:?}, model {:?} for {now:?}",
                model_now.heights()
            ));
        }
        let Some(before) = self.pending.take() else {
            return;
        };
        let mut b = self.model(&before);
        let h = b.heights();
        let [(t1, c1), (t2, c2)] = self.last_hats;
        let pair = (t1, t2);
        t.splits += (h[c1 as usize] != h[c2 as usize]) as u64;
        let mut log = Vec::new();
        b.land(&self.geo, c1 as usize, pair.0, &mut log);
        b.land(&self.geo, c2 as usize, pair.1, &mut log);
        let want: [Vec<u8>; COLUMNS] = std::array::from_fn(|c| b.piles[c].hats().collect());
        if &want != now {
            t.errors.push(format!(
                "{pair:?} to {c1},{c2} on {before:?} gave {now:?}, model {want:?}"
            ));
        }
        if (b.max_height() > self.limit) != over {
            t.errors
                .push(format!("cart over {over}, model {:?}", b.heights()));
        }
        t.checked += 1;
    }
}

impl Plugin for Steer {
    fn name(&self) -> &str {
        "variant-steer"
    }
    fn description(&self) -> &str {
        "steers pairs with the variant's own map and checks the cart against the model"
    }
    fn on_attach(&mut self, _: &RomInfo, _: &mut dyn Setup) -> Result<(), String> {
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let mem = frame_memory(&*frame);
        let spawns = self.cart.spawns(&mem);
        let over = self.cart.game_over(&mem);
        let hats = self.cart.falling(&mem);
        if spawns != self.seen || (over && self.pending.is_some()) {
            let now = self.cart.piles(&mem);
            self.check(&now, self.cart.heights(&mem), over);
            self.seen = spawns;
            self.tally.lock().unwrap().over |= over;
            if !over {
                self.pending = Some(now);
                let left = self.rand.gen_range(0..COLUMNS as u8 - 1);
                self.target = Some((left, self.rand.r#gen()));
            }
        }
        // Not while the spawn routine is still writing the next pair.
        if self.cart.pair_live(&mem) {
            self.last_hats = hats;
        }
        drop(mem);
        let mut press = Buttons::DOWN;
        if let Some((left, swap)) = self.target {
            let now_left = hats[0].1.min(hats[1].1);
            press = if swap {
                self.target = Some((left, false));
                Buttons::A
            } else if now_left < left {
                Buttons::RIGHT
            } else if now_left > left {
                Buttons::LEFT
            } else {
                self.target = None;
                Buttons::DOWN
            };
        }
        // New presses only count after a release.
        if self.release && press != Buttons::DOWN {
            press = Buttons::NONE;
        }
        self.release = press != Buttons::DOWN && press != Buttons::NONE;
        frame.set_buttons(0, press);
    }
}

fn check_cart(cart: Cart, seed: u64, spawns: u64) {
    let settings = Settings {
        nest_reading: if cart.define("NEST_B") != 0 {
            NestReading::B
        } else {
            NestReading::A
        },
        ..Settings::default()
    };
    let tally = Arc::new(Mutex::new(Tally::default()));
    let steer = Steer {
        geo: Geometry::new(&settings),
        limit: cart.define("HEIGHT_MAX") as i16,
        cart: cart.clone(),
        rand: StdRng::seed_from_u64(seed),
        seen: 0,
        target: None,
        pending: None,
        last_hats: [(0, 2), (0, 3)],
        release: false,
        tally: tally.clone(),
    };
    let mut session = demo::cart_session(&cart, Box::new(steer)).unwrap();
    let run = demo::drive(&mut session, &cart, seed, Some(spawns)).unwrap();
    let t = tally.lock().unwrap();
    eprintln!(
        "variant {:?}: {run:?}, {} pairs checked, {} split, topped out {}",
        cart.seed, t.checked, t.splits, t.over
    );
    assert!(
        t.errors.is_empty(),
        "variant {:?}: {} mismatches:\n{}",
        cart.seed,
        t.errors.len(),
        t.errors.join("\n")
    );
    assert!(t.checked >= 10, "only {} pairs checked", t.checked);
    assert!(t.splits >= 3, "only {} split pairs", t.splits);
}

#[test]
fn the_default_cart_follows_the_model_under_random_steering() {
    check_cart(Cart::default_cart(), 11, 200);
}

#[test]
fn each_storage_feature_follows_the_model() {
    if !cc65_installed() {
        return;
    }
    let cases: &[(u64, &[(&str, u32)])] = &[
        (
            101,
            &[("PILE_SPACE", 0), ("ELEM_STRIDE", 1), ("PILE_REVERSED", 0)],
        ),
        (
            102,
            &[("PILE_SPACE", 1), ("ELEM_STRIDE", 2), ("PILE_REVERSED", 1)],
        ),
        (
            103,
            &[("PILE_SPACE", 2), ("ELEM_STRIDE", 1), ("PILE_REVERSED", 1)],
        ),
        (
            104,
            &[("PILE_SPACE", 2), ("ELEM_STRIDE", 2), ("PILE_REVERSED", 0)],
        ),
        (105, &[("SWAP_TYPES", 1), ("Y_DOWN", 1), ("COL_BASE", 37)]),
        (106, &[("NEST_B", 1), ("HEIGHT_MAX", 115), ("MENU", 1)]),
        (107, &[("HARD_DROP", 1), ("SPAWN_LEFT", 0)]),
    ];
    for (seed, overrides) in cases {
        let cart = Cart::classic(*seed, overrides).unwrap_or_else(|e| panic!("{e}"));
        check_cart(cart, *seed, 200);
    }
}
