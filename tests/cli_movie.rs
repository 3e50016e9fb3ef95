//! `nesmind run ROM --movie FILE`: another emulator's movie played as input. An FCEUX `.fm2`
//! (from power-on, with a reset) and a stable-retro `.bk2` (made here) play on Lawn Mower
//! while `--record` writes nesmind's own replay of the run: its pads and resets must be
//! the movie's, one frame on as `nesmind_retro::movie` aligns them. A damaged movie is
//! refused by name. (Playback against stable-retro itself: `python/tests/test_retro.py`.)

mod common;

use common::{nesmind, text};
use std::path::{Path, PathBuf};

fn game() -> PathBuf {
    common::rom_dir().join("homebrew/lawn_mower/lawn_mower.nes")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-cli-movie-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `nesmind run` of Lawn Mower with `movie` playing, and `extra` arguments.
fn run_movie(movie: &Path, extra: &[&str]) -> std::process::Output {
    let g = game();
    let mut args = vec![
        "run",
        g.to_str().unwrap(),
        "--headless",
        "--movie",
        movie.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    nesmind(&args)
}

/// Plays `movie` with --record; the replay's `p` lines and other records after its header.
fn played(movie: &Path) -> (String, Vec<String>) {
    let replay = movie.with_extension("replay");
    let o = run_movie(movie, &["--record", replay.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{}: {err}", movie.display());
    let records = std::fs::read_to_string(&replay)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("p ") || *l == "reset" || *l == "power" || l.starts_with("load"))
        .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    (out, records)
}

#[test]
fn movies_play_as_their_input_logs_say() {
    if !game().exists() {
        nesmind::conformance::support::cannot_run("no test-ROM corpus (lawn_mower.nes)");
        return;
    }
    // FCEUX: RLDUTSBA; line N is read in frame N, so line 0 is dropped.
    let fm2 = scratch("run.fm2");
    std::fs::write(
        &fm2,
        "version 3\nemuVersion 22020\nport0 1\nport1 1\nport2 0\n\
         |0|........|........||\n\
         |0|R..U...A|.......A||\n\
         |0|....T...|........||\n\
         |1|.L......|B.......||\n\
         |0|........|........||\n",
    )
    .unwrap();
    let (out, records) = played(&fm2);
    assert!(out.starts_with("frames 4\n"), "{out}");
    // RIGHT|UP|A = 91, A = 01; START = 08; LEFT = 40 and RIGHT = 80 on pad 2, set after
    // frame 2 with line 3's reset before frame 3, which reads them.
    assert_eq!(
        records,
        [
            "p 91010000",
            "p 08000000",
            "p 40800000",
            "reset",
            "p 00000000"
        ]
    );

    // stable-retro: its keys per player, a console column; from power-on (no Core.bin).
    let keys = "P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 B|\
                P2 A|P2 Right|P2 Left|P2 Down|P2 Up|P2 Start|P2 Select|P2 B|";
    let log = format!(
        "[Input]\n{keys}\n|..|........|........|\n|..|.R..U..B|.R.....B|\n\
         |..|....U.s.|A.......|\n[/Input]\n"
    );
    let bk2 = scratch("run.bk2");
    let header = b"MovieVersion Retro\nPlatform NES\nGameName NesmindLawn-Nes\n";
    std::fs::write(
        &bk2,
        nesmind_retro::zip::store(&[("Header.txt", header), ("Input Log.txt", log.as_bytes())]),
    )
    .unwrap();
    let (out, records) = played(&bk2);
    assert!(out.starts_with("frames 2\n"), "{out}");
    assert_eq!(records, ["p 92820000", "p 14010000"]);

    // Damage is named with the file.
    let bad = scratch("bad.fm2");
    std::fs::write(&bad, "version 3\n|0|..\n").unwrap();
    let o = run_movie(&bad, &[]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("bad.fm2") && err.contains("not an input line"),
        "{err}"
    );
}
