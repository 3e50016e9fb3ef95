//! Nothing a user asked for is lost in the window either (issue 31), under SDL's dummy
//! video driver (no display server needed): signals end `ramsearch` and `demo` sessions
//! with their outputs written, Ctrl+C twice ends a ramsearch session, output paths are
//! checked before the window opens, a plug-in's failure is shown whole, and battery RAM
//! is kept where the window keeps it.
#![cfg(all(unix, feature = "sdl"))]

mod common;

use common::{finish, signal, text};
use nesmind::frontend::overlay::{Osd, OverlayMode, render};
use nesmind::frontend::png::decode_rgb;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

const DOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/plugins/spot/cart/dots.nes");
/// Long enough for the window to open and run frames on a loaded machine.
const SETTLE: Duration = Duration::from_secs(3);

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-lost-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// nesmind in a window no one sees, silent; stdin is a pipe that stays open.
fn window(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nesmind"));
    c.args(args)
        .env("SDL_VIDEODRIVER", "dummy")
        .env("SDL_AUDIODRIVER", "dummy")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}
fn type_in(child: &mut Child, line: &str) {
    let stdin = child.stdin.as_mut().unwrap();
    stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
    stdin.flush().unwrap();
}
fn is_png(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| b.starts_with(b"\x89PNG"))
}

/// SIGTERM and SIGHUP were taken for a Ctrl+C and forgotten: the window ran on.
#[test]
fn sigterm_and_sighup_end_a_ramsearch_window_with_its_capture() {
    for (sig, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGHUP, "SIGHUP")] {
        let capture = scratch(&format!("ramsearch-{name}.png"));
        let args = ["ramsearch", DOTS, "--mute", "--capture", s(&capture)];
        let mut child = window(&args).spawn().unwrap();
        type_in(&mut child, "run 100000000");
        sleep(SETTLE);
        signal(&child, sig);
        let o = finish(child, Duration::from_secs(10));
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(128 + sig), "{name}: {out}{err}");
        assert!(
            out.contains("interrupted at frame") && out.contains(&format!("interrupted by {name}")),
            "{name}: {out}"
        );
        assert!(is_png(&capture), "{name}: no capture");
    }
}

/// Ctrl+C stops the running command and the session goes on; a second one with no
/// command running ends it, as at the headless prompt (the window forgot every one).
#[test]
fn ctrl_c_in_a_ramsearch_window_stops_the_command_and_twice_ends_it() {
    let mut child = window(&["ramsearch", DOTS, "--mute"]).spawn().unwrap();
    type_in(&mut child, "run 100000000");
    sleep(SETTLE);
    signal(&child, libc::SIGINT);
    sleep(Duration::from_millis(500));
    type_in(&mut child, "peek 0");
    sleep(Duration::from_millis(500));
    signal(&child, libc::SIGINT);
    sleep(Duration::from_millis(300));
    signal(&child, libc::SIGINT);
    let o = finish(child, Duration::from_secs(10));
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(130), "{out}{err}");
    assert!(out.contains("interrupted at frame"), "{out}");
    assert!(out.contains("$0000: "), "the next command ran: {out}");
}

/// A plug-in that fails in the window pauses it with the reason on the overlay, wrapped
/// over the rows it needs: the capture's bottom rows are exactly the overlay's rendering
/// of the whole message (one row held "plug-in '...' fai...").
#[test]
fn a_failing_plugin_is_shown_whole_on_the_overlay() {
    let dir = scratch("plugin");
    std::fs::create_dir_all(&dir).unwrap();
    let plugin = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/plugins/answers_unasked.sh"
    );
    // A short relative name keeps the message the same wherever the checkout lies.
    std::fs::copy(plugin, dir.join("u.sh")).unwrap();
    let capture = scratch("alert.png");
    let args = [
        "run",
        DOTS,
        "--plugin",
        "ext:sh u.sh",
        "--mute",
        "--aspect",
        "square",
        "--scale",
        "1",
        "--capture",
        s(&capture),
    ];
    let child = window(&args).current_dir(&dir).spawn().unwrap();
    sleep(SETTLE);
    signal(&child, libc::SIGTERM);
    let o = finish(child, Duration::from_secs(10));
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(128 + libc::SIGTERM), "{out}{err}");
    let message = err
        .lines()
        .find_map(|l| l.find("plug-in '").map(|at| &l[at..]))
        .unwrap_or_else(|| panic!("no plug-in failure logged: {err}"));
    assert!(message.ends_with("one answer per frame)"), "{message}");

    let mut osd = Osd::new(OverlayMode::Auto);
    osd.alert(message.to_string());
    let strip = render(&osd.lines(Instant::now(), "", "", true), 256).unwrap();
    let (w, h, cap) = decode_rgb(&std::fs::read(&capture).unwrap()).unwrap();
    assert_eq!(w, 256);
    let top = h - strip.height;
    let mut text_pixels = 0;
    for y in 0..strip.height {
        for x in 0..w {
            let p = strip.pixels[y * w + x];
            if p >> 24 == 0xFF {
                let shown = cap[(top + y) * w + x];
                assert_eq!(shown, p & 0xFF_FFFF, "overlay differs at ({x}, {y})");
                text_pixels += 1;
            }
        }
    }
    assert!(text_pixels > 500, "{text_pixels} text pixels");
}

/// In the window a battery cart's RAM goes to ROM.sav beside the ROM, or, when that
/// folder cannot be written, to `$XDG_DATA_HOME/nesmind/saves/`.
#[test]
fn the_window_keeps_battery_ram_beside_the_rom_or_in_the_data_folder() {
    let dir = scratch("sav");
    std::fs::create_dir_all(&dir).unwrap();
    let cart = dir.join("game.nes");
    std::fs::write(&cart, common::battery_writer()).unwrap();
    let written = common::battery_written(&[0; 0x2000]);
    let o = finish(
        window(&["run", s(&cart), "--frames", "10", "--mute"])
            .spawn()
            .unwrap(),
        Duration::from_secs(30),
    );
    assert!(o.status.success(), "{:?}", text(&o));
    common::assert_same_bytes(&std::fs::read(dir.join("game.sav")).unwrap(), &written);

    // The ROM read through /proc/self/fd/0: nobody, root included, can create a file
    // beside it.
    let data = dir.join("data");
    let o = finish(
        window(&["run", "/proc/self/fd/0", "--frames", "10", "--mute"])
            .stdin(std::fs::File::open(&cart).unwrap())
            .env("XDG_DATA_HOME", &data)
            .spawn()
            .unwrap(),
        Duration::from_secs(30),
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let sav = data.join("nesmind/saves/0.sav");
    common::assert_same_bytes(&std::fs::read(&sav).unwrap(), &written);
}

/// `demo` had no handlers: SDL's closed the window without the capture, with status 0.
#[test]
fn a_signal_closes_the_demo_window_with_its_outputs() {
    let (shot, capture) = (scratch("demo-shot.png"), scratch("demo-capture.png"));
    let args = [
        "demo",
        "spot",
        "--mute",
        "--screenshot",
        s(&shot),
        "--capture",
        s(&capture),
    ];
    let child = window(&args).spawn().unwrap();
    sleep(SETTLE);
    signal(&child, libc::SIGTERM);
    let o = finish(child, Duration::from_secs(10));
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(128 + libc::SIGTERM), "{out}{err}");
    assert!(out.contains("interrupted by SIGTERM"), "{out}");
    assert!(is_png(&shot) && is_png(&capture), "{out}{err}");
}

/// Output paths are checked before the window opens: a typo costs no session.
#[test]
fn bad_output_paths_are_refused_before_the_window_opens() {
    let script = scratch("peek.txt");
    std::fs::write(&script, "run 5\npeek 0\nquit\n").unwrap();
    let bad = "/nonexistent/dir/out.png";
    let cases: [&[&str]; 3] = [
        &["demo", "spot", "--frames", "300", "--screenshot", bad],
        &["demo", "spot", "--frames", "300", "--capture", bad],
        &["ramsearch", DOTS, "--script", s(&script), "--capture", bad],
    ];
    for args in cases {
        let start = Instant::now();
        let o = finish(
            window(&[args, &["--mute"]].concat()).spawn().unwrap(),
            Duration::from_secs(30),
        );
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}{err}");
        assert!(err.contains(bad), "{args:?}: {err}");
        // No frame ran: the window reports `frames N`, the script's peek `$0000`.
        assert!(
            !out.contains("frames") && !out.contains("$0000"),
            "{args:?}: {out}"
        );
        assert!(start.elapsed() < Duration::from_secs(4), "{args:?}");
    }
    // Headless, the window's outputs would be lost without a word.
    let args = ["demo", "spot", "--headless", "--screenshot", bad];
    let o = finish(window(&args).spawn().unwrap(), Duration::from_secs(30));
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--screenshot needs the window"), "{err}");
}
