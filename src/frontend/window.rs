//! The SDL window (cargo feature `sdl`, on by default).
//!
//! Keys: Esc quit · P pause · N one frame while paused · Tab (hold) fast-forward ·
//! `-`/`=` halve/double speed · F11 fullscreen · F12 screenshot (PNG in the current
//! directory) · F5 save / F9 load the savestate slot · F6 next slot (1-9) · Ctrl+R reset ·
//! F1-F4 take pad 1-4 from the plug-in / give it back. Pads are mapped by
//! [`super::input::InputConfig`]; game controller N drives pad N.
//!
//! Pacing sleeps to drift-free deadlines at 60.0988 Hz times the speed (no vsync, so
//! 60 Hz monitors cannot pull the game to 60.000). Scaling is integer with square pixels.
//! The title shows ROM, plug-in, fps, pad owners and the plug-in's status line.

use super::input::InputConfig;
use super::pacing::{Pacer, Speed};
use super::palette::build_palette;
use crate::host::{Buttons, PadOwner, Session};
use sdl2::controller::{Button, GameController};
use sdl2::event::Event;
use sdl2::keyboard::{Keycode, Mod, Scancode};
use sdl2::pixels::PixelFormatEnum;
use sdl2::video::FullscreenType;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub struct WindowOptions {
    pub speed: Speed,
    /// Quit after this many frames (scripted runs, tests).
    pub frames: Option<u64>,
    pub scale: u32,
    pub input: InputConfig,
    /// Written at exit from the window's own pixels (read back from the renderer).
    pub screenshot: Option<PathBuf>,
    /// Savestate slot files are `<stem>.slotN.state` in the current directory.
    pub stem: String,
    /// Output volume 0.0-1.0; 0 or `mute` opens no audio device.
    pub volume: f32,
    pub mute: bool,
}

const W: usize = 256;
const H: usize = 240;

struct Ui {
    paused: bool,
    advance: bool,
    fast: bool,
    speed: f64,
    slot: u32,
    fullscreen: bool,
    message: String,
    shots: u32,
}

pub fn run(session: &mut Session, opts: &WindowOptions) -> Result<(), String> {
    let sdl = sdl2::init().map_err(|e| format!("cannot start SDL: {e}"))?;
    let video = sdl
        .video()
        .map_err(|e| format!("no video device (is DISPLAY set?): {e}"))?;
    let gc = sdl
        .game_controller()
        .map_err(|e| format!("SDL game controllers: {e}"))?;
    let scale = opts.scale.clamp(1, 16);
    let window = video
        .window("nesmind", W as u32 * scale, H as u32 * scale)
        .position_centered()
        .resizable()
        .build()
        .map_err(|e| format!("cannot open a window: {e}"))?;
    let mut canvas = window
        .into_canvas()
        .build()
        .map_err(|e| format!("cannot create a renderer: {e}"))?;
    canvas
        .set_logical_size(W as u32, H as u32)
        .map_err(|e| e.to_string())?;
    canvas.set_integer_scale(true)?;
    let creator = canvas.texture_creator();
    let mut texture = creator
        .create_texture_streaming(PixelFormatEnum::RGB888, W as u32, H as u32)
        .map_err(|e| e.to_string())?;
    // Bindings are checked by scancode: iterating all pressed scancodes trips over gaps
    // in sdl2 0.37's scancode enum.
    let mut keys: Vec<(Scancode, usize, Buttons)> = Vec::new();
    for (name, pad, b) in opts.input.bindings()? {
        let scan = Keycode::from_name(&name)
            .and_then(Scancode::from_keycode)
            .ok_or_else(|| format!("input config: '{name}' is not an SDL key name"))?;
        keys.push((scan, pad, b));
    }
    let mut controllers: Vec<GameController> = Vec::new();
    let mut events = sdl.event_pump()?;
    let palette = build_palette();
    let mut rgb = vec![0u8; W * H * 4];
    let mut ui = Ui {
        paused: false,
        advance: false,
        fast: false,
        speed: match opts.speed {
            Speed::Times(x) => x,
            Speed::Max => 1.0,
        },
        slot: 1,
        fullscreen: false,
        message: String::new(),
        shots: 0,
    };
    let mut pacer = Pacer::new(opts.speed);
    let (mut fps_frames, mut fps_start, mut fps) = (0u32, Instant::now(), 0.0);
    let mut captured = None;
    let mut audio = super::sound::WindowAudio::open(session, opts.volume, opts.mute);
    'main: loop {
        for event in events.poll_iter() {
            match event {
                Event::Quit { .. } => break 'main,
                Event::ControllerDeviceAdded { which, .. } => {
                    if let Ok(c) = gc.open(which) {
                        controllers.push(c);
                    }
                }
                Event::KeyDown {
                    keycode: Some(k),
                    keymod,
                    repeat,
                    ..
                } => {
                    if k == Keycode::ESCAPE {
                        break 'main;
                    }
                    hotkey(
                        k,
                        keymod,
                        repeat,
                        session,
                        &mut ui,
                        opts,
                        canvas.window_mut(),
                    );
                }
                _ => {}
            }
        }
        let want = if ui.fast {
            Speed::Max
        } else {
            Speed::Times(ui.speed)
        };
        if pacer.speed() != want {
            pacer.set_speed(want);
        }
        if ui.paused && !ui.advance {
            std::thread::sleep(Duration::from_millis(15));
            set_title(&mut canvas, session, &ui, fps);
            continue;
        }
        ui.advance = false;
        // Human input: keyboard bindings and controllers, applied only to pads humans own.
        let mut pads = [Buttons::NONE; 4];
        let state = events.keyboard_state();
        for &(scan, pad, b) in &keys {
            if state.is_scancode_pressed(scan) {
                pads[pad] |= b;
            }
        }
        for (i, c) in controllers.iter().enumerate().take(4) {
            pads[i] |= controller_buttons(c);
        }
        for (pad, b) in pads.iter().enumerate() {
            session.set_human_buttons(pad, *b);
        }
        if let Err(e) = session.step() {
            if opts.frames.is_some() {
                return Err(e);
            }
            log::error!("{e}");
            ui.message = e;
            ui.paused = true;
        }
        audio.play(session);
        for (px, &c) in rgb.chunks_exact_mut(4).zip(session.machine().picture()) {
            px.copy_from_slice(&palette[usize::from(c & 0x1FF)].to_le_bytes());
        }
        texture
            .update(None, &rgb, W * 4)
            .map_err(|e| e.to_string())?;
        canvas.clear();
        canvas.copy(&texture, None, None)?;
        let last = opts.frames.is_some_and(|n| session.steps() >= n);
        if last && opts.screenshot.is_some() {
            captured = Some(read_back(&canvas)?);
        }
        canvas.present();
        fps_frames += 1;
        if fps_start.elapsed() >= Duration::from_millis(500) {
            fps = f64::from(fps_frames) / fps_start.elapsed().as_secs_f64();
            (fps_frames, fps_start) = (0, Instant::now());
            set_title(&mut canvas, session, &ui, fps);
        }
        if last {
            break;
        }
        pacer.wait();
    }
    if let Some(path) = &opts.screenshot {
        match captured {
            Some(pixels) => {
                let png = crate::frontend::png::encode_rgb(W, H, &pixels);
                crate::host::savestate::write_atomic(path, &png)?
            }
            None => crate::frontend::png::save_picture(path, session.machine().picture())?,
        }
    }
    Ok(())
}

/// The window's pixels, one sample per NES pixel (centre of each scaled cell).
fn read_back(canvas: &sdl2::render::WindowCanvas) -> Result<Vec<u32>, String> {
    let (ow, oh) = canvas.output_size()?;
    let bytes = canvas.read_pixels(None, PixelFormatEnum::RGB888)?;
    let scale = (ow as usize / W).min(oh as usize / H).max(1);
    let (x0, y0) = ((ow as usize - W * scale) / 2, (oh as usize - H * scale) / 2);
    let mut out = Vec::with_capacity(W * H);
    for y in 0..H {
        for x in 0..W {
            let (sx, sy) = (x0 + x * scale + scale / 2, y0 + y * scale + scale / 2);
            let i = (sy * ow as usize + sx) * 4;
            out.push(u32::from_le_bytes([
                bytes[i],
                bytes[i + 1],
                bytes[i + 2],
                0,
            ]));
        }
    }
    Ok(out)
}

fn controller_buttons(c: &GameController) -> Buttons {
    use sdl2::controller::Axis;
    let mut b = Buttons::NONE;
    // NES A sits right of B, like the east/south face buttons.
    for (button, nes) in [
        (Button::B, Buttons::A),
        (Button::A, Buttons::B),
        (Button::Back, Buttons::SELECT),
        (Button::Start, Buttons::START),
        (Button::DPadUp, Buttons::UP),
        (Button::DPadDown, Buttons::DOWN),
        (Button::DPadLeft, Buttons::LEFT),
        (Button::DPadRight, Buttons::RIGHT),
    ] {
        if c.button(button) {
            b |= nes;
        }
    }
    let (x, y) = (c.axis(Axis::LeftX), c.axis(Axis::LeftY));
    const DEAD: i16 = 16000;
    for (on, nes) in [
        (x < -DEAD, Buttons::LEFT),
        (x > DEAD, Buttons::RIGHT),
        (y < -DEAD, Buttons::UP),
        (y > DEAD, Buttons::DOWN),
    ] {
        if on {
            b |= nes;
        }
    }
    b
}

fn hotkey(
    k: Keycode,
    keymod: Mod,
    repeat: bool,
    session: &mut Session,
    ui: &mut Ui,
    opts: &WindowOptions,
    window: &mut sdl2::video::Window,
) {
    let ctrl = keymod.intersects(Mod::LCTRLMOD | Mod::RCTRLMOD);
    let slot_file = |slot: u32| PathBuf::from(format!("{}.slot{slot}.state", opts.stem));
    let report = |r: Result<String, String>| r.unwrap_or_else(|e| e);
    if k == Keycode::N && ui.paused {
        ui.advance = true;
    }
    if repeat {
        return;
    }
    ui.message = match k {
        Keycode::P | Keycode::PAUSE => {
            ui.paused = !ui.paused;
            String::new()
        }
        Keycode::TAB => {
            ui.fast = !ui.fast;
            if ui.fast {
                "fast-forward".into()
            } else {
                String::new()
            }
        }
        Keycode::MINUS => {
            ui.speed = (ui.speed / 2.0).max(0.125);
            format!("speed x{}", ui.speed)
        }
        Keycode::EQUALS => {
            ui.speed = (ui.speed * 2.0).min(16.0);
            format!("speed x{}", ui.speed)
        }
        Keycode::F11 => {
            ui.fullscreen = !ui.fullscreen;
            let mode = if ui.fullscreen {
                FullscreenType::Desktop
            } else {
                FullscreenType::Off
            };
            report(window.set_fullscreen(mode).map(|_| String::new()))
        }
        Keycode::F12 => {
            ui.shots += 1;
            let path = PathBuf::from(format!("{}-{}.png", opts.stem, ui.shots));
            let r = crate::frontend::png::save_picture(&path, session.machine().picture());
            report(r.map(|_| format!("saved {}", path.display())))
        }
        Keycode::F5 => report(
            session
                .save_state(&slot_file(ui.slot))
                .map(|_| format!("saved slot {}", ui.slot)),
        ),
        Keycode::F9 => report(
            session
                .load_state(&slot_file(ui.slot))
                .map(|_| format!("loaded slot {}", ui.slot)),
        ),
        Keycode::F6 => {
            ui.slot = ui.slot % 9 + 1;
            format!("slot {}", ui.slot)
        }
        Keycode::R if ctrl => {
            session.reset();
            ui.paused = false;
            "reset".into()
        }
        Keycode::F1 | Keycode::F2 | Keycode::F3 | Keycode::F4 => {
            let pad = [Keycode::F1, Keycode::F2, Keycode::F3, Keycode::F4]
                .iter()
                .position(|&f| f == k)
                .unwrap_or(0);
            let next = match session.owner(pad) {
                PadOwner::Plugin => PadOwner::Human,
                PadOwner::Human => PadOwner::Plugin,
            };
            session.set_owner(pad, next);
            format!("pad {}: {:?}", pad + 1, session.owner(pad))
        }
        _ => return,
    };
}

fn set_title(canvas: &mut sdl2::render::WindowCanvas, session: &Session, ui: &Ui, fps: f64) {
    let mut t = format!("nesmind - {}", session.rom().info.file_name);
    if let Some(p) = session.plugin_name() {
        let owners: String = (0..4)
            .map(|i| {
                if session.owner(i) == PadOwner::Plugin {
                    'P'
                } else {
                    'H'
                }
            })
            .collect();
        t.push_str(&format!(" - {p} [{owners}]"));
    }
    t.push_str(&format!(" - {fps:.1} fps"));
    if ui.paused {
        t.push_str(" - paused");
    }
    for extra in [ui.message.as_str(), session.status()] {
        if !extra.is_empty() {
            t.push_str(" - ");
            t.push_str(extra);
        }
    }
    let _ = canvas.window_mut().set_title(&t);
}
