//! Wide variants of the Hatris-like cartridge: piles, pairs and pool in any of the storage
//! shapes the generator draws, and another picture, built with the cart's self-check. A
//! harness that knows the game only from the cart's test port steers every pair to a random
//! place, calls the helpers now and then, and checks at every spawn that the piles are what
//! the model makes of the previous piles and of what happened since; the cart checks its
//! storage against a plain shadow after every change. Seeds are printed, so a failure can be
//! rebuilt with `plugins/hatris/cart/build.sh --variant SEED --check OUT.nes`.

use nesmind_hatris::board::{Board, Geometry, Landing};
use nesmind_hatris::demo;
use nesmind_hatris::eval::Weights;
use nesmind_hatris::game::{Action, Game};
use nesmind_hatris::moves::{Placement, Route, route};
use nesmind_hatris::port::{PORT_RANGE, Piles, PortReader, Report, Spawn};
use nesmind_hatris::rules::{COLUMNS, Helper, Settings};
use nesmind_hatris::search::Searcher;
use nesmind_hatris::variant::{Cart, Family, fresh_seed};
use nesmind_host::{AccessKind, Buttons, Frame, Plugin, RomInfo, Setup};
use nesmind_testroms::support::cc65_installed;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

/// The default cartridge's height limit (the wide space keeps the rules).
const LIMIT: i16 = 128;
/// Frames a helper screen's press is held, and then released.
const HOLD: u32 = 6;
/// The first CHR tile of the piles' pictures (`TILE_PILES` in the cart's layout.inc).
const PILE_TILES: u16 = 64;

#[derive(Default, Debug)]
struct Tally {
    /// Spawns over all games, and games started.
    total: u64,
    games: u64,
    checked: u64,
    splits: u64,
    alexey: u64,
    vladimir: u64,
    clears: u64,
    refills: u64,
    overs: u64,
    hello: bool,
    errors: Vec<String>,
}

/// What the harness does next: buttons, each pressed for one frame and released for one.
#[derive(Default)]
struct Plan {
    presses: Vec<Buttons>,
    /// Where the falling pair goes: the type wanted on the left, the left column, and
    /// where the free hat goes if the pair splits.
    route: Option<Route>,
    /// The free hat, once the pair has split.
    free: Option<u8>,
}

struct PortSteer {
    geo: Geometry,
    rand: StdRng,
    reader: PortReader,
    watch: usize,
    /// The piles as the model has them, from the last spawn and the reports since.
    model: Option<Board>,
    last: Option<Spawn>,
    /// Non-quiet landings and helper calls since the last spawn, and the stacks the model
    /// and the cart cleared.
    landed: Vec<(u8, u8)>,
    helped: bool,
    clears: (u32, u32),
    /// The falling hats (type, column) as last reported.
    hats: [(u8, u8); 2],
    cursor: u8,
    plan: Plan,
    release: bool,
    /// A helper press being held (while `hold` >= HOLD) or released (below).
    held: Buttons,
    hold: u32,
    /// Print every report (`HATRIS_WIDE_TRACE=1`).
    trace: bool,
    searcher: Searcher,
    /// The frame on which Start is pressed.
    start_at: u64,
    /// Where the cart keeps the piles' pictures in PRG RAM (six 512-byte bitmaps, uploaded
    /// to CHR RAM from tile `PILE_TILES`).
    bitmaps: u16,
    /// Spawns (over all games) up to which the search mostly steers.
    calm_until: u64,
    tally: Arc<Mutex<Tally>>,
}

fn piles_of(b: &Board) -> Piles {
    std::array::from_fn(|c| b.piles[c].hats().collect())
}

impl PortSteer {
    fn err(&self, e: String) {
        self.tally.lock().unwrap().errors.push(e);
    }

    fn report(&mut self, r: Report) {
        if self.trace {
            eprintln!("{r:?}");
        }
        match r {
            Report::Hello { check, .. } => {
                let mut t = self.tally.lock().unwrap();
                t.hello = true;
                if !check {
                    t.errors.push("the cart says it is no check build".into());
                }
            }
            Report::Start { .. } => {
                self.model = Some(Board::default());
                self.last = None;
                self.clears = (0, 0);
                self.tally.lock().unwrap().games += 1;
            }
            Report::Spawn(s) => self.spawn(*s),
            Report::Landed { col, hat, quiet } => {
                if !quiet {
                    self.landed.push((col, hat));
                }
                if let Some(m) = self.model.as_mut() {
                    if col as usize >= COLUMNS || !(1..=6).contains(&hat) {
                        self.err(format!("landed report col {col} hat {hat}"));
                        return;
                    }
                    let mut log = Vec::new();
                    if let Landing::Cleared(_) = m.land(&self.geo, col as usize, hat, &mut log) {
                        self.clears.0 += 1;
                        self.tally.lock().unwrap().clears += 1;
                    }
                }
            }
            Report::Cleared { .. } => self.clears.1 += 1,
            Report::Helper(h) => {
                self.helped = true;
                let mut t = self.tally.lock().unwrap();
                if h == 1 {
                    t.alexey += 1
                } else {
                    t.vladimir += 1
                }
            }
            Report::Take(col) => {
                if let Some(m) = self.model.as_mut() {
                    let mut counts = [0; COLUMNS];
                    counts[col as usize % COLUMNS] = 1;
                    m.remove_bottoms(&self.geo, &counts);
                }
            }
            Report::Swap(a, b) => {
                if let Some(m) = self.model.as_mut() {
                    m.swap_piles(a as usize % COLUMNS, b as usize % COLUMNS);
                }
            }
            Report::Refill { .. } => {
                self.tally.lock().unwrap().refills += 1;
                if self.model.is_some() {
                    self.model = Some(Board::default());
                }
            }
            Report::Moved { hats } => self.hats = hats,
            Report::Split { free } => self.plan.free = Some(free),
            Report::Over { piles, .. } => {
                self.check_piles("game over", &piles);
                if let Some(m) = &self.model
                    && m.max_height() <= LIMIT
                {
                    self.err(format!("game over, model heights {:?}", m.heights()));
                }
                self.plan = Plan::default();
                self.tally.lock().unwrap().overs += 1;
            }
            Report::Fail { .. } => self.err(r.failure().unwrap_or_default()),
        }
    }

    /// A pair spawns only once every changed pile picture has been sent to the screen: the
    /// piles' tiles in CHR RAM must then be the cart's bitmaps (a lost upload leaves a
    /// cleared stack on screen, and a player that reads the picture plays on a wrong board).
    fn check_picture(&self, frame: &dyn Frame) {
        for c in 0..COLUMNS as u16 {
            let differ: Vec<(u16, u8, u8)> = (0..512u16)
                .map(|i| {
                    let ram = frame.peek(self.bitmaps + c * 512 + i);
                    (i, ram, frame.peek_ppu(PILE_TILES * 16 + c * 512 + i))
                })
                .filter(|(_, ram, chr)| ram != chr)
                .collect();
            if let Some(&(i, ram, chr)) = differ.first() {
                self.err(format!(
                    "frame {}: pile {} on screen differs from the cart's bitmap in {} bytes \
                     (first: byte {i}, {chr:#04x} on screen, {ram:#04x} in the bitmap)",
                    frame.frame_number(),
                    c + 1,
                    differ.len()
                ));
            }
        }
    }

    fn check_piles(&self, when: &str, piles: &Piles) {
        if let Some(m) = &self.model {
            let want = piles_of(m);
            if &want != piles {
                self.err(format!(
                    "{when}: the cart's piles {piles:?}, the model's {want:?} (from {:?} and \
                     landings {:?})",
                    self.last.as_ref().map(|s| &s.piles),
                    self.landed
                ));
            }
        }
    }

    fn spawn(&mut self, s: Spawn) {
        self.check_piles(&format!("spawn {}", s.spawns), &s.piles);
        let mut model = Board::default();
        model.set_piles(&self.geo, &s.piles);
        let heights: [i16; COLUMNS] = std::array::from_fn(|c| s.heights[c] as i16);
        if model.heights() != heights {
            self.err(format!(
                "spawn {}: heights {heights:?}, model {:?}",
                s.spawns,
                model.heights()
            ));
        }
        if model.max_height() > LIMIT {
            self.err(format!("spawn {} over the limit: {heights:?}", s.spawns));
        }
        if let Some(prev) = &self.last {
            if s.spawns != prev.spawns + 1 {
                self.err(format!("spawn {} after {}", s.spawns, prev.spawns));
            }
            let types = [s.hats[0].0, s.hats[1].0];
            if types != prev.next {
                self.err(format!(
                    "spawn {}: pair {types:?}, next was {:?}",
                    s.spawns, prev.next
                ));
            }
            if !self.helped {
                // The pair landed where it was last seen, hat 1 first.
                let want = [
                    (self.hats[0].1, self.hats[0].0),
                    (self.hats[1].1, self.hats[1].0),
                ];
                if self.landed != want {
                    self.err(format!(
                        "spawn {}: landings {:?}, the pair was last at {want:?}",
                        s.spawns, self.landed
                    ));
                }
                let h = self.last_heights();
                let mut t = self.tally.lock().unwrap();
                t.splits += (h[want[0].0 as usize % 6] != h[want[1].0 as usize % 6]) as u64;
            }
            self.tally.lock().unwrap().checked += 1;
        }
        if s.hats[0].1 as usize >= COLUMNS
            || s.hats[1].1 as usize >= COLUMNS
            || s.pool.iter().any(|&h| h != 1 && h != 2)
        {
            self.err(format!("spawn {}: {s:?}", s.spawns));
        }
        self.tally.lock().unwrap().total += 1;
        self.hats = s.hats;
        self.landed.clear();
        self.helped = false;
        if self.clears.0 != self.clears.1 && self.model.is_some() {
            self.err(format!(
                "spawn {}: the model cleared {} stacks, the cart {}",
                s.spawns, self.clears.0, self.clears.1
            ));
        }
        self.clears = (0, 0);
        self.model = Some(model);
        self.plan = self.choose(&s);
        self.last = Some(s);
    }

    fn last_heights(&self) -> [i16; COLUMNS] {
        self.last.as_ref().map_or([0; COLUMNS], |s| {
            std::array::from_fn(|c| s.heights[c] as i16)
        })
    }

    /// What to do with the pair: mostly what the model's search would (so games last and
    /// reach the levels where every hat type and both helpers come), now and then a random
    /// place; once `calm_until` spawns have been played, only random places, so the game
    /// ends and the next one starts.
    fn choose(&mut self, s: &Spawn) -> Plan {
        let total = self.tally.lock().unwrap().total;
        let action = if total < self.calm_until && !self.rand.gen_ratio(1, 12) {
            self.search(s)
        } else if !s.pool.is_empty() && self.rand.gen_ratio(1, 8) {
            match s.pool.last() {
                Some(1) => Action::Alexey(std::array::from_fn(|c| (c == 0) as u8)),
                _ => Action::Vladimir(0, self.rand.gen_range(1..COLUMNS as u8)),
            }
        } else {
            let first = self.rand.gen_range(0..COLUMNS as u8 - 1);
            let (first, second) = if self.rand.r#gen() {
                (first + 1, first)
            } else {
                (first, first + 1)
            };
            Action::Place(Placement { first, second })
        };
        if self.trace {
            eprintln!("choose {action:?}");
        }
        self.plan_for(action, s)
    }

    /// The model's search's choice for the game the spawn shows.
    fn search(&mut self, s: &Spawn) -> Action {
        let mut board = Board::default();
        board.set_piles(&self.geo, &s.piles);
        let pool = s
            .pool
            .iter()
            .map(|&h| {
                if h == 1 {
                    Helper::Alexey
                } else {
                    Helper::Vladimir
                }
            })
            .collect();
        let game = Game::observed(
            Settings::default(),
            board,
            ((s.hats[0].0, s.hats[1].0), (s.next[0], s.next[1])),
            pool,
            s.shop as u32 * 10 + s.stage as u32,
            s.cash,
        );
        self.searcher.choose(&game)
    }

    /// Presses that carry `action` out.
    fn plan_for(&mut self, action: Action, s: &Spawn) -> Plan {
        let mut plan = Plan::default();
        match action {
            Action::Place(p) => {
                let heights = std::array::from_fn(|c| s.heights[c] as i16);
                let pair = (s.hats[0].0, s.hats[1].0);
                plan.route = route(&self.geo, &heights, pair, p);
                if plan.route.is_none() {
                    self.err(format!("spawn {}: no way to {p:?}", s.spawns));
                }
            }
            Action::Alexey(counts) => {
                plan.presses.push(Buttons::B);
                self.cursor = 0;
                let mut taken = 0;
                for (c, &k) in counts.iter().enumerate() {
                    let k = (k as usize).min(s.piles[c].len());
                    if k > 0 {
                        self.walk(&mut plan, c as u8);
                        plan.presses.extend(std::iter::repeat_n(Buttons::A, k));
                        taken += k;
                    }
                }
                if taken < 5 {
                    plan.presses.push(Buttons::B);
                }
            }
            Action::Vladimir(a, b) => {
                plan.presses.push(Buttons::B);
                self.cursor = 0;
                self.walk(&mut plan, a);
                plan.presses.push(Buttons::A);
                self.walk(&mut plan, b);
                plan.presses.push(Buttons::A);
            }
        }
        plan
    }

    /// Presses that move the helper cursor to `to`.
    fn walk(&mut self, plan: &mut Plan, to: u8) {
        while self.cursor != to {
            if self.cursor < to {
                plan.presses.push(Buttons::RIGHT);
                self.cursor += 1;
            } else {
                plan.presses.push(Buttons::LEFT);
                self.cursor -= 1;
            }
        }
    }

    fn buttons(&mut self) -> Buttons {
        if !self.plan.presses.is_empty() {
            return self.plan.presses.remove(0);
        }
        let Some(r) = self.plan.route else {
            return Buttons::DOWN;
        };
        let toward = |now: u8, to: u8| match now.cmp(&to) {
            std::cmp::Ordering::Less => Buttons::RIGHT,
            std::cmp::Ordering::Greater => Buttons::LEFT,
            std::cmp::Ordering::Equal => Buttons::DOWN,
        };
        match self.plan.free {
            None => {
                let left = (self.hats[0].1 > self.hats[1].1) as usize;
                let [(t0, _), (t1, _)] = self.hats;
                if self.hats[left].0 != r.left_type && t0 != t1 {
                    Buttons::A
                } else {
                    toward(self.hats[left].1, r.left)
                }
            }
            Some(f) => match r.free_target {
                Some(to) => toward(self.hats[f as usize % 2].1, to),
                None => Buttons::DOWN,
            },
        }
    }
}

impl Plugin for PortSteer {
    fn name(&self) -> &str {
        "wide-steer"
    }
    fn description(&self) -> &str {
        "steers pairs knowing the game from the test port only, checks it against the model"
    }
    fn on_attach(&mut self, _: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.watch = setup.watch(AccessKind::Write, PORT_RANGE);
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let bytes: Vec<u8> = frame
            .watch_hits()
            .iter()
            .filter(|h| h.watch == self.watch)
            .map(|h| h.value)
            .collect();
        match self.reader.feed(bytes) {
            Ok(reports) => {
                let spawned = reports.iter().any(|r| matches!(r, Report::Spawn(_)));
                reports.into_iter().for_each(|r| self.report(r));
                if spawned {
                    self.check_picture(frame);
                }
            }
            Err(e) => self.err(e),
        }
        // The first game starts when the seed says (the frame counter feeds the hat
        // generator, so each seed gets its own hats); later ones start by themselves.
        if frame.frame_number() == self.start_at {
            frame.set_buttons(0, Buttons::START);
            self.release = true;
            return;
        }
        // A new press only counts after a release: every press is followed by a frame
        // with nothing held. The helpers' presses are held and released for HOLD frames
        // each: the check build's storage work can hold the game up for a few frames, and
        // a press that came and went meanwhile would be lost.
        let press = if self.hold > 0 {
            self.hold -= 1;
            if self.hold >= HOLD {
                self.held
            } else {
                Buttons::NONE
            }
        } else if self.release {
            Buttons::NONE
        } else {
            let from_plan = !self.plan.presses.is_empty();
            let press = self.buttons();
            if from_plan {
                self.held = press;
                self.hold = 2 * HOLD - 1;
            }
            press
        };
        self.release = press != Buttons::DOWN && press != Buttons::NONE;
        if self.trace && press != Buttons::DOWN && press != Buttons::NONE {
            eprintln!("frame {}: press {press:?}", frame.frame_number());
        }
        frame.set_buttons(0, press);
    }
}

/// Plays `cart` (the title starts each game by itself) until `spawns` pairs have spawned
/// over however many games that takes and a game has ended (or three times as many).
fn play_wide(cart: &Cart, seed: u64, spawns: u64) -> Tally {
    let tally = Arc::new(Mutex::new(Tally::default()));
    let steer = PortSteer {
        geo: Geometry::new(&Settings::default()),
        rand: StdRng::seed_from_u64(seed),
        reader: PortReader::default(),
        watch: usize::MAX,
        model: None,
        last: None,
        landed: Vec::new(),
        helped: false,
        clears: (0, 0),
        hats: [(0, 2), (0, 3)],
        cursor: 0,
        plan: Plan::default(),
        release: false,
        held: Buttons::NONE,
        hold: 0,
        trace: std::env::var("HATRIS_WIDE_TRACE").is_ok_and(|v| v == "1"),
        searcher: Searcher::new(&Weights::shipped()),
        start_at: demo::start_frame(seed),
        bitmaps: cart.define("BITMAPS") as u16,
        calm_until: spawns * 2 / 3,
        tally: tally.clone(),
    };
    let context = format!(
        "wide variant {} ({})",
        cart.seed.unwrap_or(0),
        cart.replay_hint()
    );
    let mut session = demo::cart_session(cart, Box::new(steer)).unwrap();
    let (mut last, mut since) = (0, 0);
    loop {
        if let Err(e) = session.step() {
            panic!("{context}: {e}");
        }
        let t = tally.lock().unwrap();
        if !t.errors.is_empty() || (t.total >= spawns && t.overs > 0) || t.total >= 3 * spawns {
            break;
        }
        if t.total != last {
            (last, since) = (t.total, 0);
        }
        since += 1;
        assert!(
            since < 3600,
            "{context}: no spawn for 3600 frames after {} ({} errors: {:?})",
            t.total,
            t.errors.len(),
            t.errors
        );
    }
    let t = std::mem::take(&mut *tally.lock().unwrap());
    eprintln!(
        "{context}: {} games, {} spawns, {} checked, {} split, {} Alexey, {} Vladimir, {} clears, \
         {} refills, {} topped out",
        t.games, t.total, t.checked, t.splits, t.alexey, t.vladimir, t.clears, t.refills, t.overs
    );
    assert!(t.hello, "{context}: no hello on the test port");
    assert!(
        t.errors.is_empty(),
        "{context}: {} mismatches:\n{}",
        t.errors.len(),
        t.errors
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    t
}

/// Five fresh seeds, or those in `HATRIS_WIDE_SEEDS` (`7,12` or a range `1..100`), to replay
/// a failure or sweep many variants (`HATRIS_WIDE_TRACE=1` prints every report).
fn seeds() -> Vec<u64> {
    let Ok(list) = std::env::var("HATRIS_WIDE_SEEDS") else {
        return (0..5).map(|_| fresh_seed()).collect();
    };
    if let Some((a, b)) = list.split_once("..") {
        let (a, b): (u64, u64) = (a.trim().parse().unwrap(), b.trim().parse().unwrap());
        return (a..=b).collect();
    }
    list.split(',').map(|s| s.trim().parse().unwrap()).collect()
}

/// Drawn values to override (`HATRIS_WIDE_DEFINES=CELL=1,COUNT_KIND=2`), to narrow a failure.
fn overrides() -> Vec<(String, u32)> {
    let Ok(list) = std::env::var("HATRIS_WIDE_DEFINES") else {
        return Vec::new();
    };
    list.split(',')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().parse().unwrap()))
        .collect()
}

#[test]
fn fresh_wide_variants_follow_the_model_and_pass_their_self_check() {
    if !cc65_installed() {
        return;
    }
    let mut totals = Tally::default();
    for (i, seed) in seeds().into_iter().enumerate() {
        let i = i as u64;
        eprintln!("wide variant {seed} (build.sh --variant {seed} --check)");
        let overrides = overrides();
        let pairs: Vec<(&str, u32)> = overrides.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let cart = Cart::wide(seed, true, &pairs).unwrap_or_else(|e| panic!("variant {seed}: {e}"));
        let spawns = std::env::var("HATRIS_WIDE_SPAWNS").map_or(300, |v| v.parse().unwrap());
        let t = play_wide(&cart, seed + i, spawns);
        assert!(
            t.checked >= 250,
            "variant {seed}: only {} pairs checked",
            t.checked
        );
        totals.splits += t.splits;
        totals.alexey += t.alexey;
        totals.vladimir += t.vladimir;
        totals.clears += t.clears;
    }
    assert!(totals.splits >= 100, "only {} split pairs", totals.splits);
    assert!(totals.clears >= 20, "only {} stacks cleared", totals.clears);
    assert!(
        totals.alexey + totals.vladimir >= 2,
        "helpers called: {totals:?}"
    );
}

/// Values each drawn define must take somewhere in the wide space.
const OPTIONS: &[(&str, &[u32])] = &[
    ("PILE_SPACE", &[0, 1, 2]),
    ("CELL", &[0, 1]),
    ("NIB_HI_FIRST", &[0, 1]),
    ("ELEM_STRIDE", &[1, 2]),
    ("PILE_REVERSED", &[0, 1]),
    ("COUNT_KIND", &[0, 1, 2, 3]),
    ("COUNT_HDR", &[0, 1]),
    ("HAT_ENC", &[0, 1, 2]),
    ("FLAG_KIND", &[0, 1, 2]),
    ("PILE_ADDR", &[0, 1]),
    ("PILE_MOVE", &[0, 1, 2]),
    ("SWAP_PTRS", &[0, 1]),
    ("PTR_SPLIT", &[0, 1]),
    ("BRIM_VRAM", &[0, 1]),
    ("PAIR_KIND", &[0, 1, 2]),
    ("NEXT_KIND", &[0, 1]),
    ("PK_TYPE_HI", &[0, 1]),
    ("COL_KIND", &[0, 1]),
    ("Y_DOWN", &[0, 1]),
    ("SWAP_TYPES", &[0, 1]),
    ("POOL_KIND", &[0, 1, 2, 3]),
    ("COL_STEP", &[2, 3, 4]),
    ("WELL_TOP", &[9, 10, 11]),
    ("STATUS_ROW", &[1, 28]),
    ("NEXT_BG", &[0, 1]),
    ("POOL_SPR", &[0, 1]),
    ("PAL_CYCLE", &[0, 1]),
    ("FLASH", &[0, 24, 32, 40]),
    ("ART_SET", &[0, 1]),
    ("ART_FLIP", &[0, 1]),
    ("ART_PERM", &[0, 1, 2, 3, 4, 5]),
];

#[test]
fn every_storage_shape_and_picture_option_is_drawn() {
    if !cc65_installed() {
        return;
    }
    let mut seen: BTreeMap<&str, BTreeSet<u32>> = BTreeMap::new();
    let mut scroll = BTreeSet::new();
    for seed in 1..=100 {
        let d = Cart::draw(seed, Family::Wide).unwrap_or_else(|e| panic!("{e}"));
        for (name, _) in OPTIONS {
            let v = *d
                .get(*name)
                .unwrap_or_else(|| panic!("seed {seed}: no {name}"));
            seen.entry(name).or_default().insert(v);
        }
        scroll.insert((d["SCROLL_X"] > 0, d["SCROLL_Y"] > 0));
        // The rules are the default cartridge's: no rule option is drawn.
        for rule in [
            "NEST_B",
            "HEIGHT_MAX",
            "MENU",
            "HARD_DROP",
            "SPAWN_LEFT",
            "SCRAMBLE",
        ] {
            assert!(!d.contains_key(rule), "seed {seed} draws {rule}");
        }
    }
    for (name, values) in OPTIONS {
        let got = &seen[name];
        let missing: Vec<_> = values.iter().filter(|v| !got.contains(v)).collect();
        assert!(
            missing.is_empty(),
            "{name} never drew {missing:?} in 100 seeds"
        );
    }
    assert_eq!(
        scroll.len(),
        4,
        "fine scroll combinations drawn: {scroll:?}"
    );
}
