//! A Lua script's drawing in the SDL window under Xvfb: the window's screenshot (read back
//! from what it showed) equals the headless one, shapes included.

mod common;

#[cfg(feature = "sdl")]
#[test]
fn window_shows_the_scripts_drawing() {
    use std::path::Path;
    use std::process::Command;
    let Some((_server, display)) = common::xvfb::xvfb_or_cannot_run() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("nesmind-lua-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shot = |window: bool| {
        let path = dir.join(if window { "window.png" } else { "headless.png" });
        let mut c = Command::new(env!("CARGO_BIN_EXE_nesmind"));
        c.arg("run")
            .arg(root.join("plugins/spot/cart/dots.nes"))
            .args(["--frames", "30", "--lua"])
            .arg(root.join("tests/lua/fceux_draw.lua"))
            .arg("--screenshot")
            .arg(&path);
        if window {
            c.args(["--scale", "2", "--mute"])
                .env("DISPLAY", &display)
                .env("SDL_AUDIODRIVER", "dummy");
        } else {
            c.arg("--headless");
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(&path).unwrap()
    };
    let (window, headless) = (shot(true), shot(false));
    let (_, _, pixels) = nesmind::frontend::png::decode_rgb(&headless).unwrap();
    assert_eq!(
        pixels[25 + 35 * 256],
        0x0000FF,
        "the box is in the headless shot"
    );
    assert!(window == headless, "the window showed something else");
}
