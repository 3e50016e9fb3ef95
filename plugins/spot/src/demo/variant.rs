//! Building a variant of the DOTS cart at run time (`--cart-variant SEED`): the cart's sources
//! are compiled into the binary, written to a temporary directory and assembled there by
//! `build.sh --variant SEED`, which needs ca65 and ld65 from cc65.

use super::cart::CartFacts;
use std::path::{Path, PathBuf};
use std::process::Command;

macro_rules! cart_files {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../cart/", $name)))),*]
    };
}

/// Every file `build.sh` needs (a test checks none is missing).
pub const CART_FILES: &[(&str, &str)] = cart_files!(
    "build.sh",
    "variant.awk",
    "dots.cfg",
    "src/ai.s",
    "src/art_macros.inc",
    "src/board.s",
    "src/chr.s",
    "src/dots.s",
    "src/draw.s",
    "src/game.s",
    "src/input.s",
    "src/layouts.s",
    "src/menu.s",
    "src/menu_draw.s",
    "src/nes.inc",
    "src/panel.s",
    "src/ram.inc",
    "src/rng.s",
    "src/shape.s",
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

/// A fresh seed for `--cart-variant random`.
pub fn random_seed() -> u64 {
    use rand::Rng;
    rand::thread_rng().gen_range(0..=u64::from(u32::MAX))
}

/// Parses `--cart-variant`: a number, or `random` (drawn here).
pub fn parse_seed(text: &str) -> Result<u64, String> {
    if text == "random" {
        return Ok(random_seed());
    }
    text.parse::<u64>()
        .ok()
        .filter(|&s| s <= u64::from(u32::MAX))
        .ok_or_else(|| format!("--cart-variant: '{text}' is not a seed (0-4294967295) or 'random'"))
}

struct TempDir(PathBuf);
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Assembles variant `seed` of the DOTS cart.
pub fn build(seed: u64) -> Result<Cart, String> {
    build_with(seed, false)
}

/// Assembles variant `seed`; `scrambled` also codes its cursor in no row/column order and
/// hides the hand (`build.sh --scrambled-cursor`): a cart calibration cannot explain.
pub fn build_with(seed: u64, scrambled: bool) -> Result<Cart, String> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = TempDir(std::env::temp_dir().join(format!(
        "nesmind-dots-{}-{seed}-{nanos}",
        std::process::id()
    )));
    write_sources(&dir.0)?;
    let out = dir.0.join("variant.nes");
    let o = Command::new("sh")
        .arg(dir.0.join("build.sh"))
        .args(["--variant", &seed.to_string()])
        .args(scrambled.then_some("--scrambled-cursor"))
        .arg(&out)
        .output()
        .map_err(|e| format!("cannot run sh to build the DOTS variant: {e}"))?;
    let stderr = String::from_utf8_lossy(&o.stderr);
    if o.status.code() == Some(127) {
        return Err(format!(
            "building DOTS variant {seed} needs ca65 and ld65 from cc65, which are not installed \
             (Debian/Ubuntu: apt-get install cc65): {}",
            stderr.trim()
        ));
    }
    if !o.status.success() {
        return Err(format!(
            "building DOTS variant {seed} failed:\n{}",
            stderr.trim()
        ));
    }
    let image = std::fs::read(&out).map_err(|e| format!("variant image: {e}"))?;
    let inc = std::fs::read_to_string(dir.0.join("variant.nes.inc"))
        .map_err(|e| format!("variant definitions: {e}"))?;
    Ok(Cart {
        image,
        facts: CartFacts::variant(seed, &inc)?,
        file_name: format!("dots-variant-{seed}.nes"),
    })
}

fn write_sources(dir: &Path) -> Result<(), String> {
    for (name, text) in CART_FILES {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
