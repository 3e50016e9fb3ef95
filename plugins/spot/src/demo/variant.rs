//! Building a variant of the DOTS cart at run time (`--cart-variant SEED`): the cart's sources
//! are compiled into the binary, written to a temporary directory and assembled there by
//! `build.sh --variant SEED`, which needs ca65 and ld65 from cc65. Seeds draw from two
//! spaces: the classic family (`build.sh --classic`: variables moved and recoded, the board
//! one byte per cell, which a Spot RAM map can describe; what the RAM-reading player is
//! tested on) and the wide space (the board's storage and the play screen's picture vary
//! too; games are checked through the cart's test port, `port.rs`).

use super::cart::CartFacts;
use nesmind_host::kit::CartBuild;

macro_rules! cart_files {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../cart/", $name)))),*]
    };
}

/// Every file `build.sh` needs (a test checks none is missing).
pub const CART_FILES: &[(&str, &str)] = cart_files!(
    "build.sh",
    "gen_lib.awk",
    "variant.awk",
    "wide.awk",
    "art.awk",
    "dots.cfg",
    "src/ai.s",
    "src/art_macros.inc",
    "src/board.s",
    "src/chr.s",
    "src/dots.s",
    "src/draw.s",
    "src/font.s",
    "src/game.s",
    "src/input.s",
    "src/layouts.s",
    "src/menu.s",
    "src/menu_draw.s",
    "src/nes.inc",
    "src/ornament.s",
    "src/panel.s",
    "src/port.s",
    "src/ram.inc",
    "src/rng.s",
    "src/shape.s",
    "src/sound.s",
    "src/splash.s",
    "src/store.s",
    "src/store_bytes.s",
    "src/store_check.s",
    "src/store_classic.s",
    "src/store_packed.s",
    "src/store_planes.s",
    "src/store_wide.s",
    "src/text.s",
    "src/turns.s",
    "src/video.s",
);

/// A built cart: the iNES image and what the harness knows about it.
#[derive(Clone, Debug)]
pub struct Cart {
    pub image: Vec<u8>,
    pub facts: CartFacts,
    pub file_name: String,
}

/// Which space a seed draws a variant from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `build.sh --variant SEED --classic`: a board a Spot RAM map can describe.
    Classic,
    /// `build.sh --variant SEED`: the storage and the picture vary too.
    Wide,
}

/// A variant to build: its seed and space, and the test-build switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantSpec {
    pub seed: u64,
    pub family: Family,
    /// A CHECK build: the storage verified against a plain shadow after every change.
    pub check: bool,
    /// The cursor coded in no row/column order and no hand drawn.
    pub scrambled: bool,
    /// Definitions fixed instead of drawn (`build.sh -D NAME=VALUE`).
    pub defines: Vec<(String, u32)>,
}

impl VariantSpec {
    pub fn new(seed: u64, family: Family) -> VariantSpec {
        VariantSpec {
            seed,
            family,
            check: false,
            scrambled: false,
            defines: Vec::new(),
        }
    }

    /// `--cart-variant`'s spelling: `SEED` or `wide:SEED`.
    pub fn name(&self) -> String {
        match self.family {
            Family::Classic => self.seed.to_string(),
            Family::Wide => format!("wide:{}", self.seed),
        }
    }
}

/// A fresh seed for `--cart-variant random`.
pub fn random_seed() -> u64 {
    use rand::Rng;
    rand::thread_rng().gen_range(0..=u64::from(u32::MAX))
}

/// Parses `--cart-variant`: `SEED` or `random` (the classic family), `wide:SEED` or
/// `wide:random` (the wide space); random seeds are drawn here.
pub fn parse_spec(text: &str) -> Result<VariantSpec, String> {
    let (family, seed) = match text.strip_prefix("wide:") {
        Some(rest) => (Family::Wide, rest),
        None => (Family::Classic, text),
    };
    let seed = if seed == "random" {
        random_seed()
    } else {
        seed.parse::<u64>()
            .ok()
            .filter(|&s| s <= u64::from(u32::MAX))
            .ok_or_else(|| {
                format!(
                    "--cart-variant: '{text}' is not a seed (0-4294967295), 'random', \
                     'wide:SEED' or 'wide:random'"
                )
            })?
    };
    Ok(VariantSpec::new(seed, family))
}

/// Parses a classic `--cart-variant`: a number, or `random` (drawn here).
pub fn parse_seed(text: &str) -> Result<u64, String> {
    match parse_spec(text)? {
        VariantSpec {
            family: Family::Classic,
            seed,
            ..
        } => Ok(seed),
        _ => Err(format!("'{text}': a classic variant seed was expected")),
    }
}

/// Assembles variant `seed` of the DOTS cart's classic family.
pub fn build(seed: u64) -> Result<Cart, String> {
    build_with(seed, false)
}

/// Assembles variant `seed` of the classic family; `scrambled` also codes its cursor in no
/// row/column order and hides the hand (`build.sh --scrambled-cursor`): a cart calibration
/// cannot explain.
pub fn build_with(seed: u64, scrambled: bool) -> Result<Cart, String> {
    let mut spec = VariantSpec::new(seed, Family::Classic);
    spec.scrambled = scrambled;
    build_spec(&spec)
}

/// Assembles variant `seed` of the wide space, as a CHECK build when `check`.
pub fn build_wide(seed: u64, check: bool) -> Result<Cart, String> {
    let mut spec = VariantSpec::new(seed, Family::Wide);
    spec.check = check;
    build_spec(&spec)
}

/// The arguments `build.sh` takes for `spec`.
fn script_args(spec: &VariantSpec) -> Vec<String> {
    let mut args = vec!["--variant".to_string(), spec.seed.to_string()];
    if spec.family == Family::Classic {
        args.push("--classic".into());
    }
    if spec.scrambled {
        args.push("--scrambled-cursor".into());
    }
    if spec.check {
        args.push("--check".into());
    }
    for (name, value) in &spec.defines {
        args.push("-D".into());
        args.push(format!("{name}={value}"));
    }
    args
}

/// The cart's sources in a scratch folder, ready for build.sh.
fn sources(seed: u64) -> Result<CartBuild, String> {
    CartBuild::new(&format!("dots-{seed}"), CART_FILES)
}

/// Assembles the variant `spec` names.
pub fn build_spec(spec: &VariantSpec) -> Result<Cart, String> {
    let build = sources(spec.seed)?;
    let out = build.dir().join("variant.nes");
    let mut args = script_args(spec);
    args.push(out.to_string_lossy().into_owned());
    build.run(&args, &format!("DOTS variant {}", spec.name()))?;
    let image = std::fs::read(&out).map_err(|e| format!("variant image: {e}"))?;
    let inc = std::fs::read_to_string(build.dir().join("variant.nes.inc"))
        .map_err(|e| format!("variant definitions: {e}"))?;
    Ok(Cart {
        image,
        facts: CartFacts::variant(spec.seed, &inc)?,
        file_name: format!("dots-variant-{}.nes", spec.name().replace(':', "-")),
    })
}

/// What `spec` draws, without assembling it (`build.sh --draw-only`: needs awk, not cc65).
pub fn draw_spec(spec: &VariantSpec) -> Result<CartFacts, String> {
    let build = sources(spec.seed)?;
    let out = build.dir().join("variant.nes");
    let mut args = script_args(spec);
    args.push("--draw-only".into());
    args.push(out.to_string_lossy().into_owned());
    build.run(&args, &format!("DOTS variant {}", spec.name()))?;
    let inc = std::fs::read_to_string(build.dir().join("variant.nes.inc"))
        .map_err(|e| format!("variant definitions: {e}"))?;
    CartFacts::variant(spec.seed, &inc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_cart_source_is_embedded() {
        let cart = Path::new(env!("CARGO_MANIFEST_DIR")).join("cart");
        let mut missing = Vec::new();
        for sub in ["", "src"] {
            for entry in std::fs::read_dir(cart.join(sub)).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let rel = if sub.is_empty() {
                    name.clone()
                } else {
                    format!("{sub}/{name}")
                };
                let needed = path.is_file() && name != "dots.nes" && name != "README.md";
                if needed && !CART_FILES.iter().any(|(n, _)| *n == rel) {
                    missing.push(rel);
                }
            }
        }
        assert!(missing.is_empty(), "add to CART_FILES: {missing:?}");
    }

    #[test]
    fn variant_names_parse_and_bad_ones_are_refused() {
        assert_eq!(
            parse_spec("12").unwrap(),
            VariantSpec::new(12, Family::Classic)
        );
        let wide = parse_spec("wide:4294967295").unwrap();
        assert_eq!((wide.seed, wide.family), (4_294_967_295, Family::Wide));
        assert_eq!(wide.name(), "wide:4294967295");
        assert_eq!(parse_spec("wide:random").unwrap().family, Family::Wide);
        for bad in ["", "-1", "4294967296", "wide:", "wide:x", "narrow:3", "3 "] {
            assert!(
                parse_spec(bad).unwrap_err().contains("--cart-variant"),
                "{bad}"
            );
        }
        assert_eq!(parse_seed("7"), Ok(7));
        assert!(parse_seed("wide:7").is_err());
    }
}
