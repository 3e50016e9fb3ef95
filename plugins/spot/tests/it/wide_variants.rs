//! The DOTS cart's wide variant space: the board's storage and the play screen's picture
//! drawn from a seed while the game stays the same. CHECK builds verify their storage against
//! a plain shadow after every change; the cart's own computer plays every seat, and every
//! move and result its test port reports is checked against the rules (fresh seeds each
//! run, printed on failure). Also: every storage kind and picture option is reachable, and
//! the plain build's port reports what its RAM board holds. (`nesmind demo spot
//! --cart-variant wide:SEED` is checked in tests/demo_spot.rs.)

use nesmind_host::{AccessKind, Buttons, Frame, Plugin, Rom, RomInfo, Session, Setup, WatchHit};
use nesmind_spot::demo::cart::{CartFacts, PHASE_OVER, PHASE_SPLASH, PHASE_TITLE, menu_press};
use nesmind_spot::demo::port::{PortReader, PortReport};
use nesmind_spot::demo::variant::{self, Family, VariantSpec};
use nesmind_spot::demo::{self, Cart, Options};
use nesmind_testroms::support::cc65_installed;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};

/// Every seat the cart's computer (levels 5, 3, 4, 5: level 5 moves are checked against the
/// heuristic), `games` games with animations on or off.
fn cart_alone(cart: Cart, players: usize, games: usize, animations: bool, seed: u64) -> Options {
    let mut opts = Options::new(players, 0, 5).unwrap();
    let levels = [5, 3, 4, 5];
    opts.settings[..players].copy_from_slice(&levels[..players]);
    opts.games = games;
    opts.animations = animations;
    opts.threads = 1;
    opts.seed = seed;
    opts.cart = cart;
    opts
}

/// Plays `opts` and fails on anything the harness or the cart's self-check reported.
fn play_checked(opts: &Options, what: &str) {
    let r = demo::play(opts).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(r.errors.is_empty(), "{what}: {:#?}", r.errors);
    assert_eq!(r.games.len(), opts.games, "{what}");
    assert_eq!(r.cpu_off_model, 0, "{what}");
    let moves: u32 = r.moves_by_slot.iter().sum();
    assert!(moves > 10, "{what}: only {moves} moves");
}

fn check_build(spec: &VariantSpec) -> Option<Cart> {
    if !cc65_installed() {
        return None;
    }
    Some(variant::build_spec(spec).unwrap_or_else(|e| panic!("variant {}: {e}", spec.name())))
}

#[test]
fn random_wide_variants_play_checked_games() {
    let seeds: Vec<u64> = (0..5).map(|_| variant::random_seed()).collect();
    let mut pictures = BTreeSet::new();
    for (i, &seed) in seeds.iter().enumerate() {
        let mut spec = VariantSpec::new(seed, Family::Wide);
        spec.check = true;
        let Some(cart) = check_build(&spec) else {
            return;
        };
        let f = &cart.facts;
        pictures.insert(["CELL_W", "CELL_H", "CELL_GAP", "BOARD_X", "BOARD_Y"].map(|n| f.value(n)));
        let what = format!(
            "wide variant {seed} (STORAGE {}; replay: nesmind demo spot --headless --games 1 \
             --threads 1 --plugin-seats 0 --players 4 --seed {seed} --cart-variant wide:{seed} \
             --cart-check)",
            f.storage()
        );
        // Four players without animations, then two or three with them.
        play_checked(&cart_alone(cart.clone(), 4, 1, false, seed), &what);
        play_checked(&cart_alone(cart, 2 + i % 2, 1, true, seed + 1), &what);
    }
    assert!(
        pictures.len() > 1,
        "seeds {seeds:?} all drew the same board picture {pictures:?}"
    );
}

#[test]
fn each_storage_kind_plays_checked_games() {
    for storage in 0..=3u32 {
        let seed = variant::random_seed();
        let mut spec = VariantSpec::new(seed, Family::Wide);
        spec.check = true;
        spec.defines.push(("STORAGE".into(), storage));
        let Some(cart) = check_build(&spec) else {
            return;
        };
        assert_eq!(cart.facts.storage(), i64::from(storage));
        assert_eq!(cart.facts.truth_map().is_some(), storage == 0);
        let what = format!(
            "wide variant {seed} with STORAGE {storage} (build.sh -D STORAGE={storage} --variant {seed} --check)"
        );
        play_checked(&cart_alone(cart, 3, 1, false, seed), &what);
    }
}

/// Definitions drawn by many seeds (awk only), and what they cover.
#[test]
fn every_storage_kind_and_picture_option_is_reachable() {
    const SEEDS: u64 = 160;
    let drawn: Vec<CartFacts> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2u64)
            .map(|w| {
                s.spawn(move || {
                    (0..SEEDS / 2)
                        .map(|i| {
                            let spec = VariantSpec::new(1000 + 2 * i + w, Family::Wide);
                            variant::draw_spec(&spec).unwrap_or_else(|e| panic!("{e}"))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let mut seen: BTreeMap<String, BTreeSet<i64>> = BTreeMap::new();
    let names = [
        "STORAGE",
        "SHOWN_FORM",
        "ST_OWNER",
        "ST_BUFS",
        "ST_FLIP",
        "ST_BITS",
        "ST_ROWLEN",
        "ST_MSB",
        "PL_LINEAR",
        "PL_STRIDE",
        "CELL_W",
        "CELL_H",
        "CELL_GAP",
        "PAL_MODE",
        "LOOK_CURSOR",
        "LOOK_SELECT",
        "PANEL_X",
        "STATUS_ROW",
        "CYCLE",
    ];
    for f in &drawn {
        for n in names {
            if let Some(v) = f.get(n) {
                seen.entry(n.into()).or_default().insert(v);
            }
        }
        let flag = |n: &str| i64::from(f.get(n).is_some_and(|v| v != 0 && v != 0xFF));
        if f.storage() == 1 {
            for n in ["ST_DIRTY", "ST_HIGH", "ST_PHASE_MASK"] {
                seen.entry(n.into()).or_default().insert(flag(n));
            }
            seen.entry("ST_AGE".into())
                .or_default()
                .insert(flag("ST_AGE"));
            seen.entry("ST_STEP>1".into())
                .or_default()
                .insert(i64::from(f.value("ST_STEP") > 1));
        }
        if f.storage() == 3 {
            for n in ["PL_DIRTY", "PL_HIGH", "PL_TURN"] {
                seen.entry(n.into()).or_default().insert(flag(n));
            }
        }
        let size = f.get("CELL_W").zip(f.get("CELL_H"));
        seen.entry("non-square".into())
            .or_default()
            .insert(i64::from(size.is_some_and(|(w, h)| w != h)));
    }
    let want: &[(&str, &[i64])] = &[
        ("STORAGE", &[0, 1, 2, 3]),
        ("SHOWN_FORM", &[1, 2]),
        ("ST_OWNER", &[0, 1]),
        ("ST_BUFS", &[1, 2, 3]),
        ("ST_FLIP", &[0, 1]),
        ("ST_BITS", &[3, 4]),
        ("ST_ROWLEN", &[7, 8]),
        ("ST_MSB", &[0, 1]),
        ("PL_LINEAR", &[0, 1]),
        ("ST_DIRTY", &[0, 1]),
        ("ST_HIGH", &[0, 1]),
        ("ST_PHASE_MASK", &[0, 1]),
        ("ST_AGE", &[0, 1]),
        ("ST_STEP>1", &[0, 1]),
        ("PL_DIRTY", &[0, 1]),
        ("PL_HIGH", &[0, 1]),
        ("PL_TURN", &[0, 1]),
        ("CELL_W", &[2, 3, 4]),
        ("CELL_H", &[2, 3, 4]),
        ("CELL_GAP", &[0, 1, 2]),
        ("non-square", &[0, 1]),
        ("PAL_MODE", &[0, 1]),
        ("LOOK_CURSOR", &[0, 1]),
        ("LOOK_SELECT", &[0, 1]),
        ("PANEL_X", &[0, 28]),
        ("STATUS_ROW", &[0, 28]),
        ("CYCLE", &[0, 1]),
    ];
    for (name, values) in want {
        let got = seen.get(*name).cloned().unwrap_or_default();
        for v in *values {
            assert!(
                got.contains(v),
                "{name} = {v} never drawn in {SEEDS} seeds (drawn: {got:?})"
            );
        }
    }
    // Interleaved and separate planes.
    assert!(seen["PL_STRIDE"].contains(&1) && seen["PL_STRIDE"].iter().any(|&s| s > 1));
    // The art: every frame, empty, blocked, piece, hand and mark design.
    let art: BTreeSet<String> = drawn.iter().flat_map(|f| f.art_words()).collect();
    for word in [
        "bevel", "flat", "plain", "dotted", "framed", "hatched", "solid", "cross", "disc",
        "square", "diamond", "ring", "plus", "saltire", "hand", "arrow", "frame", "dot", "bar",
        "corners", "brackets",
    ] {
        assert!(art.contains(word), "art '{word}' never drawn: {art:?}");
    }
}

/// Sets the title menu (every seat the cart's computer, animations on or off), starts the
/// games and restarts after each; hands every frame and its watch hits to `observe`.
struct SelfPlay<F> {
    facts: CartFacts,
    wanted: [Option<u8>; 6],
    watches: Vec<(AccessKind, RangeInclusive<u16>)>,
    observe: F,
    release: bool,
    phase_frames: u32,
}

impl<F: FnMut(&dyn Frame, &[WatchHit]) + Send> SelfPlay<F> {
    fn new(facts: CartFacts, players: usize, animations: bool, observe: F) -> SelfPlay<F> {
        let mut wanted = [Some(0); 6];
        for w in &mut wanted[..players] {
            *w = Some(5);
        }
        wanted[5] = Some(u8::from(animations));
        SelfPlay {
            facts,
            wanted,
            watches: Vec::new(),
            observe,
            release: false,
            phase_frames: 0,
        }
    }
}

impl<F: FnMut(&dyn Frame, &[WatchHit]) + Send> Plugin for SelfPlay<F> {
    fn name(&self) -> &str {
        "self-play"
    }
    fn description(&self) -> &str {
        "the DOTS cart's computer on every seat"
    }
    fn on_attach(&mut self, _: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        for (kind, range) in &self.watches {
            setup.watch(*kind, range.clone());
        }
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let hits = frame.watch_hits().to_vec();
        (self.observe)(&*frame, &hits);
        if std::mem::take(&mut self.release) {
            frame.set_buttons(0, Buttons::NONE);
            return;
        }
        self.phase_frames += 1;
        let press = match frame.peek(self.facts.addr("CART_PHASE")) {
            PHASE_TITLE => menu_press(frame, &self.facts, &self.wanted).unwrap_or(Buttons::START),
            PHASE_SPLASH | PHASE_OVER if self.phase_frames.is_multiple_of(16) => Buttons::START,
            _ => return,
        };
        frame.set_buttons(0, press);
        self.release = true;
    }
}

/// Runs `plugin` on `image` for `frames` frames.
fn run(image: &[u8], plugin: Box<dyn Plugin>, frames: u32) {
    let rom = Rom::parse(image, "dots.nes").unwrap();
    let mut session = Session::new(rom).unwrap();
    session.machine_mut().set_audio_enabled(false);
    session.attach(plugin, &[]).unwrap();
    for _ in 0..frames {
        session.step().unwrap();
    }
}

/// What the documented RAM map reads for a report: `None` when it agrees.
fn port_vs_ram(facts: &CartFacts, report: &PortReport, frame: &dyn Frame) -> Option<String> {
    let map = facts.truth_map().unwrap();
    match *report {
        PortReport::Board { cells, to_move } => {
            let ram = map.board_bytes(frame);
            if ram != cells {
                return Some(format!("board: port {cells:?}, RAM {ram:?}"));
            }
            let slot = map.slot_to_move(frame);
            (slot != Some(usize::from(to_move)))
                .then(|| format!("slot to move: port {to_move}, RAM {slot:?}"))
        }
        PortReport::Game { layout, first, .. } => {
            let a = facts.addr("LAYOUT_NUMBER");
            let ram = u16::from_le_bytes([frame.peek(a), frame.peek(a + 1)]);
            let ram_first = frame.peek(facts.addr("FIRST_MOVER"));
            (ram != layout || ram_first != first)
                .then(|| format!("game: port {layout}/{first}, RAM {ram}/{ram_first}"))
        }
        PortReport::Over { winner, counts } => {
            let ram = frame.peek(facts.addr("WINNER"));
            let ram_counts = [0, 1, 2, 3].map(|s| frame.peek(facts.addr("COUNTS") + s));
            (winner.unwrap_or(0xFF) != ram || counts != ram_counts)
                .then(|| format!("over: port {winner:?} {counts:?}, RAM {ram} {ram_counts:?}"))
        }
        PortReport::Fail { .. } => Some(format!("{report:?} in a plain build")),
    }
}

#[test]
fn the_plain_builds_port_reports_its_ram_board() {
    // A turn's board is reported as the turn begins, before anything else changes, so at the
    // frame the report arrives the RAM board is the reported one.
    let facts = CartFacts::dots();
    let seen = Arc::new(Mutex::new((0u32, Vec::new())));
    let (f, out) = (facts.clone(), seen.clone());
    let mut reader = PortReader::default();
    let mut probe = SelfPlay::new(facts.clone(), 2, false, move |frame, hits| {
        for h in hits {
            let Some(report) = reader.feed(h.value) else {
                continue;
            };
            let report = report.unwrap_or_else(|e| panic!("{e}"));
            let mut out = out.lock().unwrap();
            out.0 += u32::from(matches!(report, PortReport::Board { .. }));
            out.1.extend(port_vs_ram(&f, &report, frame));
        }
    });
    let port = facts.port();
    probe.watches.push((AccessKind::Write, port..=port));
    run(demo::DEMO.image, Box::new(probe), 6000);
    let (boards, problems) = seen.lock().unwrap().clone();
    assert!(boards >= 60, "only {boards} boards reported");
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The latest PPU scroll, address or data write while the picture is on, in CPU cycles after
/// the NMI handler began, over `frames` frames of the cart playing itself with animations.
fn latest_ppu_write(cart: &Cart, players: usize, frames: u32) -> (u64, u32) {
    let nmi = u16::from_le_bytes([cart.image[16 + 0x7FFA], cart.image[16 + 0x7FFB]]);
    let latest = Arc::new(Mutex::new((0u64, 0u32)));
    let out = latest.clone();
    let (mut nmi_at, mut rendering) = (None, false);
    let mut probe = SelfPlay::new(cart.facts.clone(), players, true, move |_, hits| {
        let mut l = out.lock().unwrap();
        for h in hits {
            match (h.watch, h.addr) {
                (0, _) => nmi_at = Some(h.cycle),
                (1, 0x2001) => rendering = h.value & 0x18 != 0,
                (1, 0x2005..=0x2007) if rendering => {
                    if let Some(at) = nmi_at {
                        l.0 = l.0.max(h.cycle - at);
                        l.1 += 1;
                    }
                }
                _ => {}
            }
        }
    });
    probe.watches.push((AccessKind::Execute, nmi..=nmi));
    probe.watches.push((AccessKind::Write, 0x2001..=0x2007));
    run(&cart.image, Box::new(probe), frames);
    *latest.lock().unwrap()
}

#[test]
fn ppu_writes_fit_in_vertical_blank() {
    // Vertical blank lasts 20 scanlines, 2273 CPU cycles, from the NMI (7 cycles) on. The
    // plain build and fresh wide variants (their cells redraw more tiles and attributes).
    let mut carts = vec![("plain".to_string(), demo::committed_cart())];
    if cc65_installed() {
        for _ in 0..2 {
            let spec = VariantSpec::new(variant::random_seed(), Family::Wide);
            let cart = variant::build_spec(&spec).unwrap_or_else(|e| panic!("{e}"));
            carts.push((format!("wide variant {}", spec.seed), cart));
        }
    }
    for (name, cart) in carts {
        let (worst, writes) = latest_ppu_write(&cart, 4, 4000);
        eprintln!("{name}: {writes} PPU writes, the latest {worst} cycles into the NMI");
        assert!(writes > 2_000, "{name}: only {writes} PPU writes seen");
        assert!(
            worst < 2273 - 7,
            "{name}: a PPU write came {worst} cycles into the NMI handler"
        );
    }
}
