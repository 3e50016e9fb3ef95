//! What a new user meets first: no display, a wrong corpus directory, an empty corpus.

use std::process::{Command, Output};

const DOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/plugins/spot/cart/dots.nes");

fn nesmind(display: Option<&str>, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nesmind"));
    c.args(args)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("SDL_VIDEODRIVER");
    match display {
        Some(d) => c.env("DISPLAY", d),
        None => c.env_remove("DISPLAY"),
    };
    c.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `run` without a display says so at once instead of playing an invisible window.
#[test]
fn run_without_a_display_is_a_clear_error() {
    for (display, why) in [
        (
            None,
            "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)",
        ),
        (
            Some(":4242"),
            "DISPLAY=:4242 is not usable: no X server socket",
        ),
    ] {
        let o = nesmind(display, &["run", DOTS, "--frames", "10"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot open a window") && stderr(&o).contains(why),
            "{}",
            stderr(&o)
        );
    }
}

/// The demo with a stale DISPLAY plays headless and says why.
#[test]
fn demo_with_a_stale_display_plays_headless() {
    let o = nesmind(
        Some(":4242"),
        &["demo", "hatris", "--runs", "1", "--max-spawns", "3"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("DISPLAY=:4242 is not usable")
            && stderr(&o).contains("playing headless"),
        "{}",
        stderr(&o)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("mean_spawns"));
}

/// `test-roms` fails when nothing ran or anything failed, not only on errors.
#[test]
fn test_roms_exit_status_counts_results() {
    let empty = std::env::temp_dir().join(format!("nesmind-empty-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    // A manifest that lists a ROM the directory lacks: a corpus, its entry fails.
    std::fs::write(
        empty.join("MANIFEST.tsv"),
        format!(
            "path\tsha256\tsource\nnestest/nestest.nes\t{}\tx\n",
            "0".repeat(64)
        ),
    )
    .unwrap();
    let o = nesmind(
        None,
        &["test-roms", empty.to_str().unwrap(), "--filter", "nestest"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("passed 0/1"));
    // A filter that matches nothing: nothing ran.
    let o = nesmind(
        None,
        &[
            "test-roms",
            empty.to_str().unwrap(),
            "--filter",
            "no-such-rom",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no test ROM ran"), "{}", stderr(&o));
}

/// An installed binary (`cargo install --path .`) finds a corpus in test-roms/ of the
/// directory it runs in, before the checkout it was built from.
#[test]
fn the_corpus_in_the_working_directory_is_found_first() {
    let here = std::env::temp_dir().join(format!("nesmind-cwd-corpus-{}", std::process::id()));
    let corpus = here.join("test-roms");
    std::fs::create_dir_all(&corpus).unwrap();
    // One ROM listed, which this directory lacks: it fails here, where the real corpus
    // (if the checkout's were used) would pass it.
    std::fs::write(
        corpus.join("MANIFEST.tsv"),
        format!(
            "path\tsha256\tsource\nnestest/nestest.nes\t{}\tx\n",
            "0".repeat(64)
        ),
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(["test-roms", "--filter", "nestest"])
        .current_dir(&here)
        .env_remove("NES_TEST_ROMS")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&here);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("passed 0/1"));
}

/// A header-only manifest (what a failed download used to leave) is not a corpus.
#[test]
fn a_header_only_manifest_is_not_a_corpus() {
    let dir = std::env::temp_dir().join(format!("nesmind-header-only-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("MANIFEST.tsv"), "path\tsha256\tsource\n").unwrap();
    let err = nesmind::conformance::find_corpus_in([dir.clone()]).unwrap_err();
    assert!(err.contains("no ROMs listed"), "{err}");
}

/// `demo spot --headless` with the same seed plays the same games on every run (the
/// default budget counts nodes, not milliseconds).
#[test]
fn the_headless_spot_demo_is_reproducible() {
    let run = || {
        let o = nesmind(
            None,
            &[
                "demo",
                "spot",
                "--headless",
                "--games",
                "2",
                "--threads",
                "1",
                "--seed",
                "3",
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let first = run();
    assert!(first.contains("win_rate "), "{first}");
    assert_eq!(first, run());
    let o = nesmind(None, &["demo", "spot", "--headless", "--", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(
        help.contains("--move-nodes") && help.contains("runs with the same --seed differ"),
        "{help}"
    );
}

/// Says something once, at its tenth frame.
struct SaysOnce;

impl nesmind::host::Plugin for SaysOnce {
    fn name(&self) -> &str {
        "says-once"
    }
    fn description(&self) -> &str {
        "one status line"
    }
    fn on_attach(
        &mut self,
        _rom: &nesmind::host::RomInfo,
        _setup: &mut dyn nesmind::host::Setup,
    ) -> Result<(), String> {
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn nesmind::host::Frame) {
        if frame.frame_number() == 10 {
            frame.set_status("RED moved a1-b2");
        }
    }
}

/// The status line clears once the plug-in has stopped repeating it (the last move of a
/// finished game no longer stays on screen at the title).
#[test]
fn a_stale_status_line_clears() {
    use nesmind::host::session::STATUS_FRAMES;
    let rom = nesmind::emu::Rom::load(std::path::Path::new(DOTS)).unwrap();
    let mut s = nesmind::host::Session::new(rom).unwrap();
    s.attach(Box::new(SaysOnce), &[]).unwrap();
    while s.machine().frame_number() < 10 {
        s.step().unwrap();
    }
    assert_eq!(s.status(), "RED moved a1-b2");
    for _ in 0..STATUS_FRAMES {
        s.step().unwrap();
    }
    assert_eq!(s.status(), "RED moved a1-b2");
    s.step().unwrap();
    assert_eq!(s.status(), "");
}
