//! Runs the test-ROM corpus listed in crates/testroms/conformance.ron and checks the
//! README's table.

use nesmind_emu::Speedups;
use nesmind_testroms::{self as conf, Outcome};

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Every entry runs twice: with every shortcut (as players run it) and in lockstep (every
/// part clocked on every cycle, the reference). Both must give the expected result, and the
/// same verdict text, so a shortcut that changes behaviour shows up here. In lockstep
/// AccuracyCoin tries only its first Start frame (all eight take minutes there), compared
/// with a run of that one Start frame with the shortcuts.
#[test]
fn test_rom_corpus_matches_expectations_and_readme() {
    let corpus = conf::find_corpus().unwrap_or_else(|e| panic!("{e}"));
    let entries = conf::load_expectations(conf::EXPECTATIONS).expect("expectations file parses");
    assert!(
        entries.len() > 100,
        "expectations file lists {} ROMs",
        entries.len()
    );
    // The lockstep copies, and the runs with shortcuts of those that were shortened.
    let (mut reference, mut shortened) = (Vec::new(), Vec::new());
    for e in &entries {
        let mut slow = conf::Entry {
            speedups: Speedups::NONE,
            ..e.clone()
        };
        if let conf::Check::AccuracyCoin { starts, .. } = &mut slow.check
            && starts.len() > 1
        {
            starts.truncate(1);
            shortened.push(conf::Entry {
                speedups: Speedups::ALL,
                ..slow.clone()
            });
        }
        reference.push(slow);
    }
    let both: Vec<conf::Entry> = entries
        .iter()
        .chain(&shortened)
        .chain(&reference)
        .cloned()
        .collect();
    let mut outcomes = conf::run_all(&corpus, &both, threads());
    let reference = outcomes.split_off(entries.len() + shortened.len());
    let shortened = outcomes.split_off(entries.len());
    for o in &outcomes {
        println!("{}", o.line());
    }
    let unexpected: Vec<&Outcome> = outcomes.iter().filter(|o| !o.as_expected()).collect();
    let mut report: Vec<String> = unexpected
        .iter()
        .map(|o| {
            if o.passed {
                format!("now PASSES (drop its known_failure): {}", o.path)
            } else {
                o.line()
            }
        })
        .collect();
    for (normal, slow) in outcomes.iter().zip(&reference) {
        let fast = shortened
            .iter()
            .find(|o| o.path == normal.path)
            .unwrap_or(normal);
        if fast != slow || !slow.as_expected() {
            report.push(format!(
                "differs in lockstep: {}\n  with shortcuts: {}\n  lockstep:       {}",
                fast.path,
                fast.line(),
                slow.line()
            ));
        }
    }
    assert!(
        report.is_empty(),
        "unexpected results:\n{}",
        report.join("\n")
    );

    let readme =
        std::fs::read_to_string(nesmind_testroms::support::workspace_path("README.md")).unwrap();
    let table = conf::markdown_table(&outcomes);
    assert_eq!(
        conf::readme_section(&readme),
        Some(table.as_str()),
        "README's conformance table is stale: run `cargo run --release -- test-roms --markdown README.md`"
    );
}

#[test]
fn missing_corpus_error_says_where_it_looked_and_what_to_do() {
    let err = conf::find_corpus_in(["/nonexistent/a".into(), "/nonexistent/b".into()]).unwrap_err();
    assert!(
        err.contains("/nonexistent/a") && err.contains("/nonexistent/b"),
        "{err}"
    );
    assert!(
        err.contains("NES_TEST_ROMS") && err.contains("fetch-test-roms.sh"),
        "{err}"
    );
}

#[test]
fn bad_expectations_are_reported() {
    let err = conf::load_expectations("[(path: 1)]").unwrap_err();
    assert!(err.contains("expectations"), "{err}");
}

/// The corpus and the expectations entry whose path ends with `name`.
fn corpus_entry(name: &str) -> (std::path::PathBuf, conf::Entry) {
    let corpus = conf::find_corpus().unwrap_or_else(|e| panic!("{e}"));
    let entries = conf::load_expectations(conf::EXPECTATIONS).expect("expectations file parses");
    let entry = entries
        .into_iter()
        .find(|e| e.path.ends_with(name))
        .unwrap_or_else(|| panic!("{name} is in the expectations file"));
    (corpus, entry)
}

/// The two MMC3 IRQ revisions really differ: each of blargg's revision tests fails on the
/// other revision's board, so the 6/6 above is not one behaviour passing both.
#[test]
fn mmc3_revision_tests_fail_on_the_other_revision() {
    for (name, other_board) in [("5-MMC3.nes", 4), ("6-MMC3_alt.nes", 0)] {
        let (corpus, mut entry) = corpus_entry(name);
        entry.submapper = Some(other_board);
        let outcome = conf::run_entry(&corpus, &entry);
        assert!(
            !outcome.passed,
            "{name} passes on submapper {other_board} too"
        );
    }
}

/// The MMC6 (submapper 1) counts like the MMC3A: blargg's alternate-revision test passes
/// on it (his 6-MMC6 test checks the same behaviour), and the Sharp MMC3 test fails.
#[test]
fn mmc6_irq_is_the_alternate_revision() {
    for (name, passes) in [("6-MMC3_alt.nes", true), ("5-MMC3.nes", false)] {
        let (corpus, mut entry) = corpus_entry(name);
        entry.submapper = Some(1);
        let outcome = conf::run_entry(&corpus, &entry);
        assert_eq!(
            outcome.passed,
            passes,
            "{name} on an MMC6: {}",
            outcome.line()
        );
    }
}

/// read_joy3/test_buttons asks for each button in turn (pressing B for every prompt fails
/// it); the prompted reader must have pressed all eight, in the ROM's order.
#[test]
fn prompted_buttons_rom_needs_every_button() {
    let (corpus, entry) = corpus_entry("read_joy3/test_buttons.nes");
    let outcome = conf::run_entry(&corpus, &entry);
    assert!(outcome.passed, "{}", outcome.detail);
    assert!(
        outcome
            .detail
            .starts_with("pressed A B Select Start Up Down Left Right:"),
        "{}",
        outcome.detail
    );
}
