//! Finding the test-ROM corpus: the one lookup for `nesmind test-roms` and every crate's
//! tests.

use std::path::{Path, PathBuf};

/// `$NES_TEST_ROMS`, else `test-roms/` in the working directory, else
/// `../shared/test-roms` beside `checkout`, else `test-roms/` in it.
pub fn find_corpus_from(checkout: &Path) -> Result<PathBuf, String> {
    // A corpus named by the user is the only place looked at: falling back to another
    // would hide a wrong setting.
    if let Some(env) = std::env::var_os("NES_TEST_ROMS") {
        return find_corpus_in([PathBuf::from(env)]).map_err(|e| format!("$NES_TEST_ROMS: {e}"));
    }
    // test-roms/ in the working directory first: an installed binary (`cargo install`)
    // must not depend on the checkout it was built from still being there. Then beside
    // the checkout (this workplace), then where tests/fetch-test-roms.sh puts it.
    let here = std::env::current_dir().map(|d| d.join("test-roms")).ok();
    find_corpus_in(here.into_iter().chain([
        checkout.join("../shared/test-roms"),
        checkout.join("test-roms"),
    ]))
}

/// The first candidate whose MANIFEST.tsv lists ROMs (tests/fetch-test-roms.sh writes it
/// last, so a failed download leaves none); the error lists every place looked at.
pub fn find_corpus_in(candidates: impl IntoIterator<Item = PathBuf>) -> Result<PathBuf, String> {
    let mut looked = Vec::new();
    for dir in candidates {
        let manifest = dir.join("MANIFEST.tsv");
        match std::fs::read_to_string(&manifest) {
            Ok(text) if text.lines().skip(1).any(|l| !l.trim().is_empty()) => return Ok(dir),
            Ok(_) => looked.push(format!(
                "{} (no ROMs listed in MANIFEST.tsv)",
                dir.display()
            )),
            Err(_) => looked.push(dir.display().to_string()),
        }
    }
    let places = looked;
    Err(format!(
        "test-ROM corpus not found (looked in: {}). Set NES_TEST_ROMS to its directory, or run \
         tests/fetch-test-roms.sh to download it at pinned commits.",
        places.join(", ")
    ))
}
