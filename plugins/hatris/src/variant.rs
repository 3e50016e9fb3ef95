//! Variants of the demo cartridge. `cart/build.sh --variant SEED` draws one from the wide
//! space (README.md, "Variants"): the piles, the falling and next pair and the helper pool
//! kept in many storage shapes, and the picture (well, columns, palette, drawings, panels)
//! changed too; `--classic` draws only the older family (every variable moved and
//! re-encoded, the piles as arrays of codes), which the RAM-calibrating player plays.
//! `--check` adds the cart's self-check of its storage against a plain shadow. The sources
//! are compiled into nesmind, so `nesmind demo hatris --cart-variant SEED` (classic) or
//! `wide:SEED` can build one anywhere ca65 is installed.
//!
//! What a variant's defines say is for the harness; the player is never told. A classic
//! variant's piles can be read with [`Cart::piles`]; a wide one's only through the test
//! port (`port.rs`).

use nesmind_host::Frame;
use nesmind_host::kit::CartBuild;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Reads the machine: `(false, addr)` the CPU's address space, `(true, addr)` the PPU's.
pub type Memory<'a> = &'a dyn Fn(bool, u16) -> u8;

/// A [`Memory`] over a plug-in's frame.
pub fn frame_memory(frame: &dyn Frame) -> impl Fn(bool, u16) -> u8 + '_ {
    move |ppu, addr| {
        if ppu {
            frame.peek_ppu(addr)
        } else {
            frame.peek(addr)
        }
    }
}

/// The cartridge's source files, as build.sh expects them beside itself.
const SOURCES: &[(&str, &str)] = &[
    ("build.sh", include_str!("../cart/build.sh")),
    ("nes.cfg", include_str!("../cart/nes.cfg")),
    ("defs.inc", include_str!("../cart/defs.inc")),
    ("hatris.s", include_str!("../cart/hatris.s")),
    ("wide.inc", include_str!("../cart/wide.inc")),
    ("layout.inc", include_str!("../cart/layout.inc")),
    ("classic.sh", include_str!("../cart/classic.sh")),
    ("wide.sh", include_str!("../cart/wide.sh")),
    ("wide_picture.sh", include_str!("../cart/wide_picture.sh")),
    ("port.s", include_str!("../cart/port.s")),
    ("check.s", include_str!("../cart/check.s")),
    ("store_vram.s", include_str!("../cart/store_vram.s")),
    ("store.s", include_str!("../cart/store.s")),
    ("store_cell.s", include_str!("../cart/store_cell.s")),
    ("store_count.s", include_str!("../cart/store_count.s")),
    ("store_move.s", include_str!("../cart/store_move.s")),
    ("pair.s", include_str!("../cart/pair.s")),
    ("pool.s", include_str!("../cart/pool.s")),
    ("main.s", include_str!("../cart/main.s")),
    ("art.s", include_str!("../cart/art.s")),
    ("hats.s", include_str!("../cart/hats.s")),
    ("piles.s", include_str!("../cart/piles.s")),
    ("rng.s", include_str!("../cart/rng.s")),
    ("play.s", include_str!("../cart/play.s")),
    ("fall.s", include_str!("../cart/fall.s")),
    ("helpers.s", include_str!("../cart/helpers.s")),
    ("render.s", include_str!("../cart/render.s")),
    ("preview.s", include_str!("../cart/preview.s")),
    ("sprites.s", include_str!("../cart/sprites.s")),
    ("shop.s", include_str!("../cart/shop.s")),
    ("screen.s", include_str!("../cart/screen.s")),
    ("text.s", include_str!("../cart/text.s")),
    ("sound.s", include_str!("../cart/sound.s")),
];

/// The defines of the default cartridge that the harness reads.
const DEFAULTS: &[(&str, u32)] = &[
    ("SPAWNS", 0x0310),
    ("GAME_STATE", 0x0313),
    ("SHOP", 0x03A8),
    ("STAGE", 0x03A9),
    ("CASH", 0x03E8),
    ("MENU", 0),
    ("PILE_SPACE", 0),
    ("COUNTS", 0x0430),
    ("HATS", 0x0440),
    ("PILE_STRIDE", 64),
    ("ELEM_STRIDE", 1),
    ("PILE_REVERSED", 0),
    ("SCRAMBLE", 0),
    ("HEIGHTS", 0x0436),
    ("CODE_1", 1),
    ("CODE_2", 2),
    ("CODE_3", 3),
    ("CODE_4", 4),
    ("CODE_5", 5),
    ("CODE_6", 6),
    ("HEIGHT_MAX", 128),
    ("NEST_B", 0),
    ("HAT_BLOCK", 0x03D0),
    ("HAT_STRIDE", 8),
    ("OFF_TYPE", 0),
    ("OFF_COL", 2),
    ("COL_BASE", 0),
];

/// The cart's state byte once a pile has grown past the limit.
pub const STATE_OVER: u8 = 7;

/// Which space a variant is drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The older family: variables moved and re-encoded, piles as arrays of codes.
    Classic,
    /// Every storage shape and picture option (the classic family among them).
    Wide,
}

/// A built cartridge (the default one or a variant) and the map its build used.
#[derive(Clone, Debug)]
pub struct Cart {
    /// The variant's seed; `None` for the committed default cartridge.
    pub seed: Option<u64>,
    pub family: Family,
    /// Whether the cart checks its storage against a shadow (reports on the test port).
    pub check: bool,
    pub image: Vec<u8>,
    defines: BTreeMap<String, u32>,
}

/// The committed demo cartridge (built from `cart/` with no variant), and its file name.
pub const COMMITTED_IMAGE: &[u8] = include_bytes!("../cart/hatris-like.nes");
pub const COMMITTED_FILE: &str = "hatris-like.nes";

impl Cart {
    /// The committed demo cartridge.
    pub fn default_cart() -> Cart {
        Cart {
            seed: None,
            family: Family::Classic,
            check: false,
            image: COMMITTED_IMAGE.to_vec(),
            defines: DEFAULTS.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }
    }

    /// Builds classic variant `seed`, with `overrides` of drawn values (`NAME=VALUE`).
    pub fn classic(seed: u64, overrides: &[(&str, u32)]) -> Result<Cart, String> {
        Cart::build(seed, Family::Classic, false, overrides)
    }

    /// Builds wide variant `seed` (with the self-check when `check`).
    pub fn wide(seed: u64, check: bool, overrides: &[(&str, u32)]) -> Result<Cart, String> {
        Cart::build(seed, Family::Wide, check, overrides)
    }

    pub fn build(
        seed: u64,
        family: Family,
        check: bool,
        overrides: &[(&str, u32)],
    ) -> Result<Cart, String> {
        build_in(&sources(seed)?, seed, family, check, overrides)
    }

    /// What build.sh draws for `seed` in `family`, without assembling (NAME -> value).
    pub fn draw(seed: u64, family: Family) -> Result<BTreeMap<String, u32>, String> {
        let build = sources(seed)?;
        let out = run_build(&build, seed, family, false, &[], true)?;
        read_defines(build.dir(), &out, seed)
    }

    /// The drawn values, as build.sh wrote them to the `.defines` file.
    pub fn defines(&self) -> &BTreeMap<String, u32> {
        &self.defines
    }

    /// A define of the build (the default cartridge's value where the variant left it).
    pub fn define(&self, name: &str) -> u32 {
        self.defines.get(name).copied().unwrap_or_else(|| {
            DEFAULTS
                .iter()
                .find(|(k, _)| *k == name)
                .map_or(0, |(_, v)| *v)
        })
    }

    /// A file name for messages and the window title.
    pub fn file_name(&self) -> String {
        match (self.seed, self.family) {
            (Some(s), Family::Classic) => format!("hatris-like-variant-{s}.nes"),
            (Some(s), Family::Wide) => format!("hatris-like-wide-{s}.nes"),
            (None, _) => COMMITTED_FILE.to_string(),
        }
    }

    /// How to build this cart again, for messages.
    pub fn replay_hint(&self) -> String {
        let Some(seed) = self.seed else {
            return "the committed demo cartridge".into();
        };
        let family = match self.family {
            Family::Classic => "--classic ",
            Family::Wide => "",
        };
        let check = if self.check { "--check " } else { "" };
        format!("plugins/hatris/cart/build.sh --variant {seed} {family}{check}OUT.nes")
    }

    fn peek(&self, mem: Memory, addr: u32) -> u8 {
        mem(false, addr as u16)
    }

    /// Pairs spawned so far in this game.
    pub fn spawns(&self, mem: Memory) -> u64 {
        let at = self.define("SPAWNS");
        (0..3).fold(0, |acc, i| acc | (self.peek(mem, at + i) as u64) << (8 * i))
    }
    pub fn game_over(&self, mem: Memory) -> bool {
        self.peek(mem, self.define("GAME_STATE")) == STATE_OVER
    }
    /// Whether a pair (or a split pair's free hat) is falling, with every variable of the
    /// spawn written (the spawn routine's pick loop can take several frames).
    pub fn pair_live(&self, mem: Memory) -> bool {
        matches!(self.peek(mem, self.define("GAME_STATE")), 1 | 2)
    }
    pub fn cash(&self, mem: Memory) -> u64 {
        let at = self.define("CASH");
        (0..8)
            .rev()
            .fold(0, |acc, d| acc * 10 + self.peek(mem, at + d) as u64 % 10)
    }
    pub fn level(&self, mem: Memory) -> u32 {
        self.peek(mem, self.define("SHOP")) as u32 * 10
            + self.peek(mem, self.define("STAGE")) as u32
    }
    /// Whether the title leads to a menu that waits for A.
    pub fn has_menu(&self) -> bool {
        self.define("MENU") != 0
    }

    /// The six piles as the cart stores them, bottom first, as types 1-6. Only the default
    /// cartridge and classic variants keep piles this way; wide ones are read through the
    /// test port.
    pub fn piles(&self, mem: Memory) -> [Vec<u8>; 6] {
        let vram = self.define("PILE_SPACE") == 2;
        let read = |addr: u32| mem(vram, addr as u16);
        let (stride, elem) = (self.define("PILE_STRIDE"), self.define("ELEM_STRIDE"));
        let reversed = self.define("PILE_REVERSED") != 0;
        std::array::from_fn(|c| {
            let n = read(self.define("COUNTS") + c as u32) as u32;
            (0..n.min(64))
                .map(|i| {
                    let slot = if reversed { 63 - i } else { i };
                    let mut code = read(self.define("HATS") + c as u32 * stride + elem * slot);
                    if self.define("SCRAMBLE") != 0 {
                        code ^= i as u8;
                    }
                    self.type_of(code)
                })
                .collect()
        })
    }

    /// The type a byte code stands for, 0 for none.
    fn type_of(&self, code: u8) -> u8 {
        // A test build's late code (`-D LATE_SPAWN=N`) is a second code of type 1.
        if self.define("LATE_SPAWN") != 0 && self.define("CODE_1_LATE") == code as u32 {
            return 1;
        }
        (1..=6u8)
            .find(|&t| self.define(&format!("CODE_{t}")) == code as u32)
            .unwrap_or(0)
    }

    /// The falling hats: (type 1-6 or 0, column 0-5) of hat 1 and hat 2.
    pub fn falling(&self, mem: Memory) -> [(u8, u8); 2] {
        std::array::from_fn(|i| {
            let rec = self.define("HAT_BLOCK") + i as u32 * self.define("HAT_STRIDE");
            let code = self.peek(mem, rec + self.define("OFF_TYPE"));
            let col = self.peek(mem, rec + self.define("OFF_COL"));
            (
                self.type_of(code),
                col.wrapping_sub(self.define("COL_BASE") as u8),
            )
        })
    }

    /// Pile heights in pixels (console RAM in every variant).
    pub fn heights(&self, mem: Memory) -> [i16; 6] {
        std::array::from_fn(|c| self.peek(mem, self.define("HEIGHTS") + c as u32) as i16)
    }
}

/// A fresh seed for `--cart-variant random` and the tests.
pub fn fresh_seed() -> u64 {
    use rand::Rng;
    rand::thread_rng().gen_range(1..1_000_000_000_000)
}

/// The cartridge's sources in a scratch folder, ready for build.sh.
fn sources(seed: u64) -> Result<CartBuild, String> {
    CartBuild::new(&format!("hatris-variant-{seed}"), SOURCES)
}

/// Runs build.sh in `dir` for variant `seed`; returns the output image's path.
fn run_build(
    build: &CartBuild,
    seed: u64,
    family: Family,
    check: bool,
    overrides: &[(&str, u32)],
    defines_only: bool,
) -> Result<PathBuf, String> {
    let out = build.dir().join("variant.nes");
    let mut args = vec!["--variant".to_string(), seed.to_string()];
    if family == Family::Classic {
        args.push("--classic".into());
    }
    if check {
        args.push("--check".into());
    }
    if defines_only {
        args.push("--defines-only".into());
    }
    for (name, value) in overrides {
        args.push("-D".into());
        args.push(format!("{name}={value}"));
    }
    args.push(out.to_string_lossy().into_owned());
    build.run(&args, &format!("Hatris cart variant {seed}"))?;
    Ok(out)
}

/// The `.defines` file build.sh wrote beside `out`.
fn read_defines(
    dir: &std::path::Path,
    out: &std::path::Path,
    seed: u64,
) -> Result<BTreeMap<String, u32>, String> {
    let name = format!(
        "{}.defines",
        out.file_name().unwrap_or_default().to_string_lossy()
    );
    let text = std::fs::read_to_string(dir.join(name))
        .map_err(|e| format!("build.sh wrote no defines for variant {seed}: {e}"))?;
    let mut defines = BTreeMap::new();
    for line in text.lines() {
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| format!("variant {seed}: bad define line '{line}'"))?;
        let v: u32 = v
            .trim()
            .parse()
            .map_err(|_| format!("variant {seed}: bad define value in '{line}'"))?;
        defines.insert(k.trim().to_string(), v);
    }
    Ok(defines)
}

fn build_in(
    build: &CartBuild,
    seed: u64,
    family: Family,
    check: bool,
    overrides: &[(&str, u32)],
) -> Result<Cart, String> {
    let out = run_build(build, seed, family, check, overrides, false)?;
    let image = std::fs::read(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
    let defines = read_defines(build.dir(), &out, seed)?;
    Ok(Cart {
        seed: Some(seed),
        family,
        check,
        image,
        defines,
    })
}
