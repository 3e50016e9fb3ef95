//! The Hatris-like demo cartridge: its image matches its source, it follows the player's
//! model exactly, and the player survives 1,000 spawns on it in at least 9 of 10 games.

mod common;

use nesmind::emu::Rom;
use nesmind::host::{Buttons, Frame, Plugin, PluginOptions, RomInfo, Setup};
use nesmind::plugins::hatris::board::{Board, Geometry};
use nesmind::plugins::hatris::demo::{self, DEMO};
use nesmind::plugins::hatris::game::Action;
use nesmind::plugins::hatris::moves::Placement;
use nesmind::plugins::hatris::play::run_parallel;
use nesmind::plugins::hatris::player::HatrisPlayer;
use nesmind::plugins::hatris::rules::{COLUMNS, Settings};
use nesmind::plugins::hatris::variant::{Cart, Family, frame_memory};
use std::process::Command;
use std::sync::{Arc, Mutex};

const SHOP: u16 = 0x03A8;

#[test]
fn committed_image_matches_a_rebuild() {
    if !common::cc65_installed() {
        return;
    }
    let built = common::rebuild_cart("plugins/hatris/cart");
    assert!(
        built == DEMO.image,
        "plugins/hatris/cart/hatris-like.nes is stale: run plugins/hatris/cart/build.sh and \
         update the cart's CRC in plugins/hatris/ram_maps.ron"
    );
}

#[test]
fn the_player_knows_the_demo_cart() {
    let rom = Rom::parse(DEMO.image, DEMO.file_name).unwrap();
    assert_eq!(rom.info.mapper, 1);
    let mut p = HatrisPlayer::from_options(&PluginOptions::new()).unwrap();
    struct NoSetup;
    impl Setup for NoSetup {
        fn watch(
            &mut self,
            _: nesmind::host::AccessKind,
            _: std::ops::RangeInclusive<u16>,
        ) -> usize {
            0
        }
        fn use_pads(&mut self, _: usize) {}
    }
    p.on_attach(&rom.info, &mut NoSetup)
        .unwrap_or_else(|e| panic!("CRC {:08X}: {e}", rom.info.crc32));
}

/// The piles as RAM holds them, bottom first.
fn ram_piles(frame: &dyn Frame) -> [Vec<u8>; COLUMNS] {
    Cart::default_cart().piles(&frame_memory(frame))
}

#[derive(Default)]
struct Tally {
    spawns: u64,
    checked: u64,
    helpers: u64,
    splits: u64,
    refills: u64,
    topped_out: bool,
    errors: Vec<String>,
}

/// Piles, falling pair and shop when a pair spawned, and the player's action for it.
type Spawned = ([Vec<u8>; COLUMNS], (u8, u8), u8, Option<Action>);

/// A player plus a check at every spawn: the piles in RAM must be exactly what the
/// player's model makes of the previous piles and the action the player chose.
struct Checker {
    /// The Hatris player, or none: then Down is held, so every pair drops where it spawns.
    player: Option<HatrisPlayer>,
    geo: Geometry,
    pending: Option<Spawned>,
    decisions: u64,
    tally: Arc<Mutex<Tally>>,
}

impl Checker {
    fn model(&self, piles: &[Vec<u8>; COLUMNS]) -> Board {
        let mut b = Board::default();
        b.set_piles(&self.geo, piles);
        b
    }

    fn check(&mut self, frame: &dyn Frame, now: &[Vec<u8>; COLUMNS], over: bool) {
        let heights = Cart::default_cart().heights(&frame_memory(frame));
        let mut t = self.tally.lock().unwrap();
        let spawn = t.spawns;
        let model_now = self.model(now);
        if model_now.heights() != heights {
            t.errors.push(format!(
                "spawn {spawn}: RAM heights {heights:?}, model {:?} for {now:?}",
                model_now.heights()
            ));
        }
        let Some((before, pair, shop, Some(action))) = self.pending.take() else {
            return;
        };
        if frame.peek(SHOP) != shop {
            t.refills += 1; // a finished shop deals new piles
            return;
        }
        let mut b = self.model(&before);
        let mut log = Vec::new();
        match action {
            Action::Place(p) => {
                b.land(&self.geo, p.first as usize, pair.0, &mut log);
                b.land(&self.geo, p.second as usize, pair.1, &mut log);
                let h = self.model(&before).heights();
                t.splits += (h[p.first as usize] != h[p.second as usize]) as u64;
            }
            Action::Alexey(counts) => {
                b.remove_bottoms(&self.geo, &counts);
                t.helpers += 1;
            }
            Action::Vladimir(x, y) => {
                b.swap_piles(x as usize, y as usize);
                t.helpers += 1;
            }
        }
        let want: [Vec<u8>; COLUMNS] = std::array::from_fn(|c| b.piles[c].hats().collect());
        if &want != now {
            t.errors.push(format!(
                "spawn {spawn}: {action:?} of {pair:?} on {before:?} gave {now:?}, model {want:?}"
            ));
        }
        let model_over = b.max_height() > self.geo.height_limit;
        if model_over != over {
            t.errors.push(format!(
                "spawn {spawn}: cart over {over}, model over {model_over} ({:?})",
                b.heights()
            ));
        }
        t.checked += 1;
    }
}

impl Plugin for Checker {
    fn name(&self) -> &str {
        "hatris-checker"
    }
    fn description(&self) -> &str {
        "the Hatris player with a model check at every spawn"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        match self.player.as_mut() {
            Some(p) => p.on_attach(rom, setup),
            None => Ok(()),
        }
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let cart = Cart::default_cart();
        let spawns = cart.spawns(&frame_memory(&*frame));
        let over = cart.game_over(&frame_memory(&*frame));
        let seen = self.tally.lock().unwrap().spawns;
        if spawns != seen || (over && self.pending.is_some()) {
            let now = ram_piles(&*frame);
            self.check(&*frame, &now, over);
            let mut t = self.tally.lock().unwrap();
            t.spawns = spawns;
            t.topped_out |= over;
            if !over {
                let pair = (frame.peek(0x03D0), frame.peek(0x03D8));
                self.pending = Some((now, pair, frame.peek(SHOP), None));
            }
        }
        let Some(player) = self.player.as_mut() else {
            frame.set_buttons(0, Buttons::DOWN);
            if let Some(p) = self.pending.as_mut() {
                p.3 = Some(Action::Place(Placement {
                    first: 2,
                    second: 3,
                }));
            }
            return;
        };
        player.on_frame(frame);
        if player.decisions != self.decisions {
            self.decisions = player.decisions;
            if let Some(p) = self.pending.as_mut() {
                p.3 = player.last_action();
            }
        }
    }
}

fn checked_game(player: Option<HatrisPlayer>, seed: u64, cap: u64) -> Arc<Mutex<Tally>> {
    let tally = Arc::new(Mutex::new(Tally::default()));
    let checker = Checker {
        player,
        geo: Geometry::new(&Settings::default()),
        pending: None,
        decisions: 0,
        tally: tally.clone(),
    };
    let cart = Cart::default_cart();
    let mut session = demo::cart_session(&cart, Box::new(checker)).unwrap();
    let run = demo::drive(&mut session, &cart, seed, Some(cap)).unwrap();
    {
        let t = tally.lock().unwrap();
        eprintln!(
            "{run:?}: {} pairs checked, {} split, {} helpers, {} refills, topped out {}",
            t.checked, t.splits, t.helpers, t.refills, t.topped_out
        );
        assert!(
            t.errors.is_empty(),
            "{} mismatches:\n{}",
            t.errors.len(),
            t.errors.join("\n")
        );
    }
    tally
}

#[test]
fn cart_follows_the_model_pair_by_pair() {
    let player = HatrisPlayer::from_options(&PluginOptions::new()).unwrap();
    let tally = checked_game(Some(player), 3, 500);
    let t = tally.lock().unwrap();
    assert!(t.checked >= 450, "only {} pairs checked", t.checked);
    assert!(t.splits >= 20, "only {} split pairs", t.splits);
    assert!(t.helpers >= 2, "only {} helper calls", t.helpers);
}

#[test]
fn game_ends_when_the_model_tops_out() {
    let tally = checked_game(None, 4, 500);
    let t = tally.lock().unwrap();
    assert!(
        t.topped_out,
        "dropping every pair in the middle never topped out"
    );
    assert!(t.checked >= 10, "only {} pairs checked", t.checked);
}

#[test]
fn player_survives_a_thousand_spawns_in_nine_of_ten_games() {
    let job = |i: usize| demo::play(1 + i as u64, Some(1000));
    let results = run_parallel(10, 2, &job, &|_, _, _| {});
    let mut survived = 0;
    for (i, r) in results.into_iter().enumerate() {
        let r = r.unwrap();
        eprintln!("seed {}: {r:?}", i + 1);
        survived += r.capped as usize;
    }
    assert!(
        survived >= 9,
        "only {survived} of 10 games reached 1000 spawns"
    );
}

#[test]
fn headless_command_ends_with_mean_spawns() {
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args([
            "demo",
            "hatris",
            "--headless",
            "--runs",
            "2",
            "--max-spawns",
            "20",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("cap 20 spawns: 2 reached the cap"), "{out}");
    let last = out.lines().last().unwrap_or("");
    assert_eq!(last, "mean_spawns 20.0", "{out}");
    // Stderr is a pipe: no progress line.
    assert!(!String::from_utf8_lossy(&o.stderr).contains('\r'));
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(["demo", "hatris", "--headless", "--runs", "0"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--runs"));
}

/// On a terminal (forced here) a batch shows the games finished and the spawns so far while
/// a game is still running, a few times a second.
#[test]
fn headless_games_show_spawns_on_a_terminal() {
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args([
            "demo",
            "hatris",
            "--headless",
            "--runs",
            "1",
            "--max-spawns",
            "60",
        ])
        .env("NESMIND_PROGRESS", "always")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err
        .split('\r')
        .filter(|l| l.contains("0/1 games"))
        .collect();
    assert!(
        lines.iter().any(|l| !l.contains(" 0 spawns")),
        "no spawn count while the game ran: {err}"
    );
}

/// Records, per frame, how many CPU cycles after the NMI handler's first instruction the
/// last PPUADDR/PPUDATA write came.
struct Timing {
    player: Box<dyn Plugin>,
    nmi: u16,
    latest: Arc<Mutex<(u64, u64)>>,
}

impl Plugin for Timing {
    fn name(&self) -> &str {
        "hatris-timing"
    }
    fn description(&self) -> &str {
        "a Hatris player, timing the cart's PPU writes"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        setup.watch(nesmind::host::AccessKind::Execute, self.nmi..=self.nmi);
        setup.watch(nesmind::host::AccessKind::Write, 0x2006..=0x2007);
        self.player.on_attach(rom, setup)
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let mut nmi_at = None;
        let mut l = self.latest.lock().unwrap();
        for h in frame.watch_hits() {
            match (h.watch, nmi_at) {
                (0, _) => nmi_at = Some(h.cycle),
                (1, Some(at)) => {
                    l.0 = l.0.max(h.cycle - at);
                    l.1 += 1;
                }
                // Writes before the first NMI are the start-up code's, with the picture off.
                _ => {}
            }
        }
        drop(l);
        self.player.on_frame(frame);
    }
}

/// Holds Down, with Left or Right now and then: pairs land all over the well, and games end
/// and start again by themselves.
struct Dropper(u64);

impl Plugin for Dropper {
    fn name(&self) -> &str {
        "hatris-dropper"
    }
    fn description(&self) -> &str {
        "drops every pair"
    }
    fn on_attach(&mut self, _: &RomInfo, _: &mut dyn Setup) -> Result<(), String> {
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        self.0 += 1;
        let press = match self.0 % 12 {
            0 if self.0.is_multiple_of(24) => Buttons::LEFT,
            0 => Buttons::RIGHT,
            n if n % 2 == 0 => Buttons::DOWN,
            _ => Buttons::NONE,
        };
        frame.set_buttons(0, press);
    }
}

/// The worst cycle of a PPUADDR/PPUDATA write after the NMI handler started, and the number
/// of such writes, over `frames` frames of `cart` played by `player` (or `drive`n to 150
/// spawns when `frames` is 0).
fn ppu_timing(cart: &Cart, player: Box<dyn Plugin>, frames: u64) -> (u64, u64) {
    let nmi = u16::from_le_bytes([cart.image[16 + 0x7FFA], cart.image[16 + 0x7FFB]]);
    let latest = Arc::new(Mutex::new((0, 0)));
    let timing = Timing {
        player,
        nmi,
        latest: latest.clone(),
    };
    let mut session = demo::cart_session(cart, Box::new(timing)).unwrap();
    if frames == 0 {
        demo::drive(&mut session, cart, 5, Some(150)).unwrap();
    } else {
        for _ in 0..frames {
            session.step().unwrap();
        }
    }
    *latest.lock().unwrap()
}

// Vertical blank lasts 20 scanlines, 2273 CPU cycles, from the NMI (7 cycles) on.
const VBLANK_CYCLES: u64 = 2273 - 7;

#[test]
fn ppu_writes_fit_in_vertical_blank() {
    let player = HatrisPlayer::from_options(&PluginOptions::new()).unwrap();
    let (worst, writes) = ppu_timing(&Cart::default_cart(), Box::new(player), 0);
    eprintln!("{writes} PPU writes, the latest {worst} cycles after the NMI handler started");
    assert!(writes > 10_000, "only {writes} PPU writes seen");
    assert!(
        worst < VBLANK_CYCLES,
        "a PPU write came {worst} cycles into the NMI handler"
    );
}

/// The wide space's drawing options that write in vertical blank (the next pair drawn in the
/// background, a cycling palette, sprite icons, fine scroll) stay inside it too. Piles kept
/// in nametable RAM are left out: that storage writes the PPU with the picture off.
#[test]
fn wide_picture_options_fit_in_vertical_blank() {
    if !common::cc65_installed() {
        return;
    }
    let mut found = 0;
    for seed in 1..200 {
        let d = Cart::draw(seed, Family::Wide).unwrap();
        if d["PILE_SPACE"] == 2 || d["BRIM_VRAM"] == 1 {
            continue;
        }
        let overrides = [("NEXT_BG", 1), ("PAL_CYCLE", 1), ("POOL_SPR", found % 2)];
        let cart = Cart::wide(seed, false, &overrides).unwrap();
        let (worst, writes) = ppu_timing(&cart, Box::new(Dropper(0)), 3000);
        eprintln!(
            "wide variant {seed} {overrides:?}: {writes} PPU writes, the latest {worst} cycles \
             after the NMI handler started"
        );
        assert!(
            writes > 3_000,
            "variant {seed}: only {writes} PPU writes seen"
        );
        assert!(
            worst < VBLANK_CYCLES,
            "variant {seed}: a PPU write came {worst} cycles into the NMI handler"
        );
        found += 1;
        if found == 3 {
            break;
        }
    }
    assert_eq!(found, 3);
}
