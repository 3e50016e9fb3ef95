//! The Lua test scripts (`tests/lua/`) run by `nesmind run --lua` on the DOTS demo cart:
//! what each prints, how it ends, and that a run repeats exactly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn cart() -> PathBuf {
    root().join("plugins/spot/cart/dots.nes")
}

fn script(name: &str) -> PathBuf {
    root().join("tests/lua").join(name)
}

/// `nesmind run dots.nes --headless --frames N --lua SCRIPT [extra...]`.
fn run(script: &Path, frames: u32, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .arg("run")
        .arg(cart())
        .args(["--headless", "--frames", &frames.to_string(), "--lua"])
        .arg(script)
        .args(extra)
        .output()
        .expect("nesmind runs")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-lua-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn ram_watcher_sees_the_title_and_the_game() {
    let out = run(&script("fceux_watch.lua"), 70, &[]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    for line in [
        "frame 7 screen 05",
        "frame 21 screen 03",
        "write $0700 = 1 at frame 21",
        "lag frames 14, last lagged false",
    ] {
        assert!(stdout.contains(line), "no '{line}' in:\n{stdout}");
    }
}

#[test]
fn bot_starts_a_game_and_ends_the_run() {
    let out = run(&script("fceux_bot.lua"), 600, &[]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("in play at frame 11"), "{stdout}");
    assert!(
        stdout.contains("frames 12\n"),
        "the run ended with the script:\n{stdout}"
    );
}

#[test]
fn savestate_search_reaches_the_cell_and_repeats_exactly() {
    let (a, b) = (temp("search-a.state"), temp("search-b.state"));
    let record = temp("search.replay");
    let first = run(
        &script("fceux_search.lua"),
        2000,
        &[
            "--save-state",
            a.to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
        ],
    );
    let second = run(
        &script("fceux_search.lua"),
        2000,
        &["--save-state", b.to_str().unwrap()],
    );
    let (stdout, stderr) = text(&first);
    assert!(first.status.success(), "{stderr}");
    assert!(stdout.contains("cursor on 0 after 5 moves"), "{stdout}");
    // Everything but the speed.
    let same = |out: &Output| -> Vec<String> {
        text(out)
            .0
            .lines()
            .filter(|l| !l.starts_with("fps"))
            .map(String::from)
            .collect()
    };
    assert_eq!(same(&first), same(&second));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // The states the script loaded are in the recording: the replay, without the script,
    // goes where the run went.
    let replay = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .arg("run")
        .arg(cart())
        .args(["--headless", "--verify", "--replay"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay).1);
    assert!(text(&replay).0.contains("verified"), "{}", text(&replay).0);
}

#[test]
fn bizhawk_names_drive_the_same_game() {
    let out = run(&script("bizhawk_bot.lua"), 600, &[]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for line in [
        "in play at frame 11",
        "cursor moved 35 -> 41",
        "cursor back 35",
    ] {
        assert!(stdout.contains(line), "no '{line}' in:\n{stdout}");
    }
}

#[test]
fn a_loop_that_never_yields_is_stopped_at_its_line() {
    let out = run(&script("runaway.lua"), 60, &["--lua-arg", "budget=2000000"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("runaway.lua:4: the script ran 2000000 Lua instructions in one frame"),
        "{stderr}"
    );
    assert!(stderr.contains("stopped after 1 frames"), "{stderr}");
    // With on-error=continue the game runs on without the script.
    let out = run(
        &script("runaway.lua"),
        60,
        &[
            "--lua-arg",
            "budget=2000000",
            "--lua-arg",
            "on-error=continue",
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("frames 60"), "{stdout}");
    assert!(stderr.contains("the game goes on without it"), "{stderr}");
    // A callback that loops is stopped the same way (it runs outside the coroutine).
    let path = temp("callback_loop.lua");
    std::fs::write(
        &path,
        "event.onframeend(function()\n  while true do end\nend)\nwhile true do emu.frameadvance() end\n",
    )
    .unwrap();
    let out = run(&path, 10, &["--lua-arg", "budget=1000000"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("callback_loop.lua:2: the script ran 1000000"),
        "{stderr}"
    );
}

#[test]
fn a_script_error_names_the_file_line_and_traceback() {
    let out = run(&script("error.lua"), 60, &[]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    for part in [
        "error.lua:2: attempt to index local 't' (a nil value)",
        "stack traceback:",
        "error.lua:2: in function 'score'",
        "error.lua:5: in main chunk",
    ] {
        assert!(stderr.contains(part), "no '{part}' in:\n{stderr}");
    }
    // A syntax error is found before any frame runs.
    let bad = temp("syntax.lua");
    std::fs::write(&bad, "emu.frameadvance()\nlocal x = = 1\n").unwrap();
    let out = run(&bad, 60, &[]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("syntax.lua:2:") && !stderr.contains("stopped after"),
        "{stderr}"
    );
}

#[test]
fn scripts_cannot_run_programs_or_leave_their_folder() {
    let out = run(&script("sandbox.lua"), 5, &[]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    for line in [
        "os.execute\tnil",
        "io.popen\tnil",
        "outside\tfalse",
        "inside\ttrue",
    ] {
        assert!(stdout.contains(line), "no '{line}' in:\n{stdout}");
    }
    assert!(
        stdout.contains("is outside the script's folder"),
        "{stdout}"
    );
    let out = run(&script("sandbox.lua"), 5, &["--lua-unsafe"]);
    let (stdout, _) = text(&out);
    assert!(stdout.contains("outside\ttrue"), "{stdout}");
}

#[test]
fn math_random_follows_the_seed() {
    let path = temp("random.lua");
    std::fs::write(
        &path,
        "math.randomseed(os.time())\nlocal t = {}\nfor i = 1, 8 do t[i] = math.random(1000) end\nprint('draws ' .. table.concat(t, ' '))\n",
    )
    .unwrap();
    let draws = |seed: &str| {
        let out = run(&path, 2, &["--lua-arg", &format!("seed={seed}")]);
        assert!(out.status.success(), "{}", text(&out).1);
        let stdout = text(&out).0;
        stdout
            .lines()
            .find(|l| l.starts_with("draws"))
            .unwrap()
            .to_string()
    };
    assert_eq!(draws("5"), draws("5"));
    assert_ne!(draws("5"), draws("6"));
}

#[test]
fn gui_drawing_reaches_the_screenshot() {
    let shot = temp("draw.png");
    let out = run(
        &script("fceux_draw.lua"),
        10,
        &["--screenshot", shot.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", text(&out).1);
    let png = std::fs::read(&shot).unwrap();
    let (w, h, rgb) = nesmind::frontend::png::decode_rgb(&png).unwrap();
    assert_eq!((w, h), (256, 240));
    let at = |x: usize, y: usize| rgb[y * 256 + x];
    assert_eq!(at(10, 20), 0xFF0000, "the box's outline");
    assert_eq!(at(40, 50), 0xFF0000);
    assert_eq!(at(25, 35), 0x0000FF, "the box's fill");
    assert_eq!(at(128, 100), 0x00FF00, "the line");
    assert_eq!(at(200, 200), 0xFFFFFF, "the pixel");
    let yellow = |x0: usize, x1: usize, y0: usize, y1: usize| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| at(x, y) == 0xFFFF00)
            .count()
    };
    assert!(yellow(60, 72, 150, 159) > 10, "the text");
    assert_eq!(yellow(0, 256, 0, 240), yellow(60, 72, 150, 159));
    // Drawn over the picture, not into the game: the same frames without the script
    // show the same pixels where nothing was drawn.
    let plain = temp("plain.png");
    let out = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .arg("run")
        .arg(cart())
        .args(["--headless", "--frames", "10", "--screenshot"])
        .arg(&plain)
        .output()
        .unwrap();
    assert!(out.status.success());
    let (_, _, bare) = nesmind::frontend::png::decode_rgb(&std::fs::read(&plain).unwrap()).unwrap();
    assert_eq!(bare[5 * 256 + 5], at(5, 5));
    assert_ne!(bare[100 * 256 + 128], at(128, 100));
}
