//! The Spot player finds its way in carts it was not told about: random variants of the DOTS
//! cart (fresh seeds each run, printed on failure), the committed cart (calibration confirms
//! the shipped map), and bad inputs (another game, a game held on its title screen, a variant
//! whose cursor calibration cannot explain): a clear message and no presses.

mod common;

use nesmind::emu::{Machine, Rom};
use nesmind::host::{Buttons, Fork, Frame, Plugin, PluginOptions, RomInfo, Setup};
use nesmind::plugins::spot::demo::{self, Cart, Options, timing, variant};
use nesmind::plugins::spot::plugin::SpotPlugin;
use nesmind::plugins::spot::ram_map::{BUILTIN_RAM_MAPS, load_ram_maps, parse_ram_maps};

/// A variant, or `None` when cc65 is missing (the test then passes, except under CI).
fn variant_or_skip(seed: u64, scrambled: bool) -> Option<Cart> {
    if !common::cc65_installed() {
        return None;
    }
    Some(variant::build_with(seed, scrambled).unwrap_or_else(|e| panic!("variant {seed}: {e}")))
}

fn temp_file(name: &str) -> String {
    let p = std::env::temp_dir().join(format!("nesmind-{}-{name}", std::process::id()));
    p.to_string_lossy().into_owned()
}

/// Variants that once misled calibration: 2605778535 (a sprite's position and a scratch
/// byte followed the hand as well as its x/y pair), 933726921 (a row stride of 40 from $02FF
/// met a start position whose last row was the board's first), 716517039 (turn values 1 and
/// 2, as the game's state machine has for human and computer turns: it was taken for the
/// turn byte and read nothing at a pass, which the harness took for a misreading).
const ONCE_FAILED: [u64; 3] = [2_605_778_535, 933_726_921, 716_517_039];

#[test]
fn random_variants_are_calibrated_and_won() {
    let mut seeds: Vec<u64> = (0..5).map(|_| variant::random_seed()).collect();
    seeds.extend(ONCE_FAILED);
    let mut wins = 0;
    let mut games = 0;
    for &seed in &seeds {
        let replay = format!(
            "variant {seed} (replay: nesmind demo spot --headless --games 2 --threads 1 --seed 5 --cart-variant {seed})"
        );
        let Some(cart) = variant_or_skip(seed, false) else {
            return;
        };
        let saved = temp_file(&format!("variant-{seed}.ron"));
        let mut opts = Options::new(2, 1, 5).unwrap();
        opts.games = 2;
        // The headless demo's default: a node budget, so the games replay exactly.
        opts.move_nodes = Some(demo::DEFAULT_MOVE_NODES);
        opts.seed = 5;
        opts.cart = cart;
        opts.plugin_options.insert("save_map".into(), saved.clone());
        let r = demo::play(&opts).unwrap_or_else(|e| panic!("{replay}: {e}"));
        assert!(r.errors.is_empty(), "{replay}: {:#?}", r.errors);
        assert_eq!(r.games.len(), 2, "{replay}");
        assert_eq!(r.refused_presses, 0, "{replay}");
        assert_eq!(r.cpu_off_model, 0, "{replay}");
        // The map calibration found reads back from the file it saved.
        let (found, frame, _) = r
            .calibrations
            .first()
            .unwrap_or_else(|| panic!("{replay}: no calibration"));
        let back = load_ram_maps(&saved).unwrap_or_else(|e| panic!("{replay}: {e}"));
        let _ = std::fs::remove_file(&saved);
        assert_eq!(&back[0], found, "{replay}");
        assert!(
            *frame < 600,
            "{replay}: calibrated at frame {frame}, over 10 s"
        );
        games += r.games.len();
        wins += r.games.iter().filter(|g| g.plugin_won).count();
    }
    assert!(
        wins * 10 >= games * 8,
        "won {wins} of {games} on variants {seeds:?}"
    );
}

#[test]
fn on_the_committed_cart_calibration_confirms_the_shipped_map() {
    let saved = temp_file("dots.ron");
    let mut opts = Options::new(2, 1, 5).unwrap();
    opts.games = 2;
    opts.move_nodes = Some(demo::DEFAULT_MOVE_NODES);
    opts.plugin_options.insert("save_map".into(), saved.clone());
    let r = demo::play(&opts).unwrap();
    assert!(r.errors.is_empty(), "{:#?}", r.errors);
    let maps = parse_ram_maps(BUILTIN_RAM_MAPS, "built-in").unwrap();
    let shipped = maps.iter().find(|m| m.name.starts_with("DOTS")).unwrap();
    assert_eq!(
        &r.calibrations[0].0, shipped,
        "calibration did not confirm the entry"
    );
    // The saved map, given back with ram_map=FILE, is played as it is (no calibration).
    let mut opts = Options::new(2, 1, 5).unwrap();
    opts.games = 1;
    opts.move_nodes = Some(demo::DEFAULT_MOVE_NODES);
    opts.plugin_options.insert("ram_map".into(), saved.clone());
    let r = demo::play(&opts).unwrap();
    let _ = std::fs::remove_file(&saved);
    assert!(r.errors.is_empty(), "{:#?}", r.errors);
    assert!(r.calibrations.is_empty());
    assert_eq!(r.games.len(), 1);
    assert!(r.plugin_moves > 0);
}

#[test]
fn calibration_finishes_within_ten_seconds_from_power_on() {
    // The player alone: the cart's title starts a game by itself.
    let t = timing::time_calibration(&demo::committed_cart(), 600, &PluginOptions::new()).unwrap();
    assert!(t.frames < 600, "{} frames", t.frames);
    assert!(t.fork_frames > 0);
    assert!(
        t.longest_frame < std::time::Duration::from_secs(1),
        "a frame took {:?}",
        t.longest_frame
    );
    // RAM calibration runs beside it and confirms the shipped map.
    let ram = t.calibration.expect("RAM calibrated by then");
    assert!(ram.confirmed, "{:?}", ram.lines);
    let seed = variant::random_seed();
    let Some(cart) = variant_or_skip(seed, false) else {
        return;
    };
    let t = timing::time_calibration(&cart, 600, &PluginOptions::new())
        .unwrap_or_else(|e| panic!("variant {seed}: {e}"));
    assert!(t.frames < 600, "variant {seed}: {} frames", t.frames);
    assert!(
        t.longest_frame < std::time::Duration::from_secs(1),
        "variant {seed}: a frame took {:?}",
        t.longest_frame
    );
    if let Some(ram) = t.calibration {
        assert!(!ram.confirmed, "variant {seed}");
    }
}

/// A frame that counts the buttons a plug-in presses and keeps its status line.
struct Watched<'a> {
    inner: &'a mut Fork,
    presses: u32,
    status: String,
}

impl Frame for Watched<'_> {
    fn frame_number(&self) -> u64 {
        self.inner.frame_number()
    }
    fn peek(&self, addr: u16) -> u8 {
        self.inner.peek(addr)
    }
    fn ram(&self) -> &[u8] {
        self.inner.ram()
    }
    fn poke(&mut self, addr: u16, value: u8) {
        self.inner.poke(addr, value)
    }
    fn picture(&self) -> &[u16] {
        self.inner.picture()
    }
    fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        if !buttons.is_empty() {
            self.presses += 1;
        }
        self.inner.set_buttons(pad, buttons)
    }
    fn buttons(&self, pad: usize) -> Buttons {
        self.inner.buttons(pad)
    }
    fn set_status(&mut self, line: &str) {
        self.status = line.to_string();
    }
    fn fork(&self) -> Option<Fork> {
        Some(self.inner.clone())
    }
}

struct NoSetup;
impl Setup for NoSetup {
    fn watch(&mut self, _: nesmind::host::AccessKind, _: std::ops::RangeInclusive<u16>) -> usize {
        0
    }
    fn use_pads(&mut self, _: usize) {}
}

/// Runs the Spot player alone on `image` for `frames` frames; `hold` is held on pad 2
/// throughout. Returns (presses, last status, the player).
fn run_alone(image: &[u8], name: &str, frames: u64, hold: Buttons) -> (u32, String, SpotPlugin) {
    let rom = Rom::parse(image, name).unwrap();
    let info: RomInfo = rom.info.clone();
    let mut machine = Machine::new(&rom).unwrap();
    machine.set_audio_enabled(false);
    let mut real = Fork::new(&machine);
    let mut plugin = SpotPlugin::from_options(&PluginOptions::new()).unwrap();
    plugin.on_attach(&info, &mut NoSetup).unwrap();
    let (mut presses, mut status) = (0, String::new());
    for _ in 0..frames {
        real.set_buttons(1, hold);
        real.run_frame().unwrap();
        let mut w = Watched {
            inner: &mut real,
            presses: 0,
            status: status.clone(),
        };
        plugin.on_frame(&mut w);
        presses += w.presses;
        status = w.status;
    }
    (presses, status, plugin)
}

#[test]
fn another_game_gets_no_presses_and_a_clear_status() {
    let hatris = &nesmind::plugins::hatris::demo::DEMO;
    let (presses, status, plugin) = run_alone(hatris.image, hatris.file_name, 900, Buttons::NONE);
    assert_eq!(presses, 0);
    assert!(status.contains("waiting for a game to start"), "{status}");
    assert!(plugin.map().is_none() && plugin.failure().is_none());
    assert!(plugin.sight_calibration().is_none());
    let line = plugin.result().unwrap();
    assert!(line.contains("0 moves entered"), "{line}");
}

#[test]
fn a_game_held_on_its_title_screen_gets_no_presses() {
    // Select held on pad 2 keeps the DOTS title from starting by itself.
    let dots = demo::committed_cart();
    let (presses, status, plugin) = run_alone(&dots.image, &dots.file_name, 900, Buttons::SELECT);
    assert_eq!(presses, 0);
    assert!(status.contains("waiting for a game to start"), "{status}");
    assert!(plugin.map().is_none() && plugin.sight_calibration().is_none());
}

#[test]
fn a_board_without_a_visible_hand_gets_no_presses_and_says_why() {
    // These variants draw no hand and code the cursor in no order: a person could not play
    // them either. The picture player finds no hand to walk; RAM calibration finds no
    // cursor. Neither presses anything, and both say so.
    for seed in [variant::random_seed(), 4093041415] {
        let Some(cart) = variant_or_skip(seed, true) else {
            return;
        };
        // The cart's own title starts a game by itself (player 1 on pad 1, the computer on 2).
        let (presses, status, plugin) =
            run_alone(&cart.image, &cart.file_name, 1200, Buttons::NONE);
        assert_eq!(presses, 0, "variant {seed}");
        assert!(plugin.sight_calibration().is_none(), "variant {seed}");
        assert!(
            status.contains("waiting for a game to start") && status.contains("hand"),
            "variant {seed}: {status}"
        );
        let ram = plugin
            .ram_problem()
            .unwrap_or_else(|| panic!("variant {seed}: RAM calibration named no problem"));
        assert!(ram.contains("cursor:"), "variant {seed}: {ram}");
        assert!(plugin.map().is_none(), "variant {seed}");
    }
}

#[test]
fn a_ram_map_the_picture_contradicts_is_dropped() {
    // A user's hint that is wrong for this cart: the committed cart's map, claimed for a
    // variant that keeps its board elsewhere (as a cart does that moves its data).
    let seed = 933_726_921;
    let Some(cart) = variant_or_skip(seed, false) else {
        return;
    };
    let replay = format!("variant {seed}, given the committed cart's RAM map");
    let rom = Rom::parse(&cart.image, "v.nes").unwrap();
    let mut wrong = parse_ram_maps(BUILTIN_RAM_MAPS, "ram_maps.ron").unwrap()[0].clone();
    wrong.crc32 = vec![rom.info.crc32];
    let path = temp_file("wrong-map.ron");
    std::fs::write(&path, nesmind::host::kit::file_text(&wrong).unwrap()).unwrap();
    let mut opts = Options::new(2, 1, 5).unwrap();
    opts.games = 2;
    opts.move_nodes = Some(demo::DEFAULT_MOVE_NODES);
    opts.seed = 5;
    opts.cart = cart;
    opts.plugin_options.insert("ram_map".into(), path.clone());
    let r = demo::play(&opts).unwrap_or_else(|e| panic!("{replay}: {e}"));
    let _ = std::fs::remove_file(&path);
    assert!(r.errors.is_empty(), "{replay}: {:#?}", r.errors);
    assert_eq!(r.refused_presses, 0, "{replay}");
    assert_eq!(
        r.games.iter().filter(|g| g.plugin_won).count(),
        2,
        "{replay}"
    );
    // The picture contradicted the hint: it was dropped (a hint left in place would leave
    // no problem to report), and any map the player went on to use is the variant's own,
    // found again (the driver checks every map in use against the cart's own definitions
    // at each idle frame).
    assert_eq!(r.ram_problems.len(), 2, "{replay}: {:?}", r.ram_problems);
    assert!(
        r.calibrations.iter().all(|(m, _, _)| m != &wrong),
        "{replay}"
    );
}

#[test]
fn a_cell_code_that_appears_late_is_noticed_and_the_games_won() {
    // From the 12th move of each game on, the cart stores slot 1's pieces in a code that the
    // start position and the first moves never showed (`build.sh -D LATE_MOVE`); the picture
    // does not change. A player that learnt the codes early must not stall on it, nor read
    // those cells as anything but slot 1's, nor keep quiet about it.
    let seed = 933_726_921;
    if !common::cc65_installed() {
        return;
    }
    let mut spec = variant::VariantSpec::new(seed, variant::Family::Classic);
    spec.defines = vec![("LATE_MOVE".into(), 12), ("CELL_P1_LATE".into(), 0xC8)];
    let cart = variant::build_spec(&spec).unwrap_or_else(|e| panic!("late-code cart: {e}"));
    let replay = format!("variant {seed} with a late cell code");
    let mut opts = Options::new(2, 1, 5).unwrap();
    opts.games = 2;
    opts.move_nodes = Some(demo::DEFAULT_MOVE_NODES);
    opts.seed = 5;
    opts.cart = cart;
    let r = demo::play(&opts).unwrap_or_else(|e| panic!("{replay}: {e}"));
    eprintln!("{replay}: ram problems {:?}", r.ram_problems);
    assert!(r.errors.is_empty(), "{replay}: {:#?}", r.errors);
    assert_eq!(r.refused_presses, 0, "{replay}");
    assert_eq!(
        r.games.iter().filter(|g| g.plugin_won).count(),
        2,
        "{replay}"
    );
    assert!(
        !r.ram_problems.is_empty(),
        "{replay}: the late code went unremarked"
    );
}
