//! What every crate's tests share: where the workspace and the corpus are, and the rule for
//! a check that cannot run here (no corpus, no cc65, no python3, no display server): under
//! `CI=true` that is a failure, elsewhere the test says `SKIPPED` and passes.

use std::path::PathBuf;
use std::process::Command;

/// The workspace's root directory (the checkout), wherever the test that asks lives.
pub fn workspace() -> PathBuf {
    // This crate sits at crates/testroms.
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// `rel` (a path relative to the workspace root, e.g. `plugins/spot/cart/dots.nes`).
pub fn workspace_path(rel: &str) -> PathBuf {
    workspace().join(rel)
}

/// The test-ROM corpus, found where every test and `nesmind test-roms` look
/// (`$NES_TEST_ROMS`, `test-roms/`, `../shared/test-roms`); panics with where it looked
/// and how to get it when it is missing.
pub fn corpus() -> PathBuf {
    crate::find_corpus().unwrap_or_else(|e| panic!("{e}"))
}

/// A file of the corpus, or why it is not there (the corpus is missing, or lacks it).
pub fn corpus_rom(rel: &str) -> Result<PathBuf, String> {
    let path = crate::find_corpus()?.join(rel);
    if !path.is_file() {
        return Err(format!(
            "{} is missing from the corpus (tests/fetch-test-roms.sh)",
            path.display()
        ));
    }
    Ok(path)
}

/// Whether the tests run as CI runs them (`CI=true`), where every check must run.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// A check that cannot run here: under `CI=true` that is a failure, elsewhere the test
/// says so and passes.
pub fn cannot_run(why: &str) {
    if under_ci() {
        panic!("cannot run this check: {why} (CI=true, where every check must run)");
    }
    println!("SKIPPED: {why}");
}

/// Whether cc65's assembler and linker run here (the demo carts, their variants and the
/// board carts are built with them); when they do not, `cannot_run` says so, which fails
/// under `CI=true`.
pub fn cc65_installed() -> bool {
    let ok = ["ca65", "ld65"].iter().all(|tool| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !ok {
        cannot_run("ca65/ld65 are not installed (apt-get install cc65)");
    }
    ok
}

/// A Python that runs here (`python3`, else `python`), for the external plug-in examples.
pub fn python3() -> Option<&'static str> {
    ["python3", "python"].into_iter().find(|p| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_is_found_from_this_crate() {
        assert!(workspace_path("crates/testroms/conformance.ron").is_file());
        assert!(workspace_path("Cargo.toml").is_file());
    }

    #[test]
    fn a_missing_corpus_file_is_named() {
        // With or without the corpus, a file it never holds is an error naming the file
        // or where the corpus was looked for.
        let err = corpus_rom("no/such/rom.nes").unwrap_err();
        assert!(
            err.contains("no/such/rom.nes") || err.contains("NES_TEST_ROMS"),
            "{err}"
        );
    }
}
