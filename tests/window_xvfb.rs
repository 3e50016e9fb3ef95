//! The SDL window under Xvfb: its screenshot (read back from the renderer) must equal the
//! headless frame after the same number of frames.

#![cfg_attr(not(feature = "sdl"), allow(dead_code, unused_imports))]
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-xvfb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Kills the Xvfb this test started when the test ends, pass or fail.
struct Server(Child);
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_xvfb() -> Result<(Server, String), String> {
    let display = 40 + std::process::id() % 400;
    let child = Command::new("Xvfb")
        .args([
            format!(":{display}").as_str(),
            "-screen",
            "0",
            "1024x768x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("Xvfb is not installed ({e}); apt-get install xvfb"))?;
    let server = Server(child);
    let socket = format!("/tmp/.X11-unix/X{display}");
    let start = Instant::now();
    while !Path::new(&socket).exists() {
        if start.elapsed() > Duration::from_secs(10) {
            return Err("Xvfb did not come up within 10 s".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok((server, format!(":{display}")))
}

#[cfg(feature = "sdl")]
#[test]
fn window_screenshot_matches_headless_frame() {
    let (_server, display) = match start_xvfb() {
        Ok(s) => s,
        Err(why) => {
            println!("SKIPPED: {why}");
            return;
        }
    };
    let corpus = nesmind::conformance::find_corpus().unwrap_or_else(|e| panic!("{e}"));
    let game = corpus.join("homebrew/lawn_mower/lawn_mower.nes");
    let game = game.to_str().unwrap();
    let (win, head) = (scratch("window.png"), scratch("headless.png"));
    // Real-time pacing for about three seconds of play, with a scale the read-back must undo.
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args([
            "run",
            game,
            "--frames",
            "180",
            "--scale",
            "2",
            "--screenshot",
            win.to_str().unwrap(),
        ])
        .env("DISPLAY", &display)
        .env("SDL_AUDIODRIVER", "dummy")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "window run failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args([
            "run",
            game,
            "--headless",
            "--frames",
            "180",
            "--screenshot",
            head.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let (w, h) = (std::fs::read(&win).unwrap(), std::fs::read(&head).unwrap());
    assert!(w.starts_with(b"\x89PNG"));
    assert!(w == h, "window screenshot differs from the headless frame");
}

#[cfg(not(feature = "sdl"))]
#[test]
fn window_screenshot_matches_headless_frame() {
    println!("SKIPPED: built without the `sdl` feature, there is no window to test");
}
