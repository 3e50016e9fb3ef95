//! The SDL window (cargo feature `sdl`, on by default).
//!
//! Keys: see [`keys::KEYS_HELP`]. Pads are mapped by [`super::input::InputConfig`].
//!
//! Pacing: at speed 1 with sound, the sound device's clock paces frames; otherwise sleeps
//! to drift-free 60.0988 Hz deadlines times the speed (no vsync, so 60 Hz monitors cannot
//! pull the game to 60.000); see [`super::pacing`]. The picture is scaled by an integer
//! vertically, with square or 8:7 pixels ([`super::layout`]). The title shows ROM,
//! plug-in, pad owners, fps, messages and the plug-in's status; the overlay
//! ([`super::overlay`]) shows status and messages on the picture, never in screenshots.

mod keys;
mod pads;
mod video;
mod viewer;

pub use keys::KEYS_HELP;
pub use viewer::Viewer;

use super::input::InputConfig;
use super::layout::Aspect;
use super::overlay::OverlayMode;
use super::pacing::{PaceBy, Pacer, Speed};
use super::sound::WindowAudio;
use crate::host::{PadOwner, Session};
use sdl2::event::Event;
use sdl2::keyboard::Keycode;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub struct WindowOptions {
    pub speed: Speed,
    /// Quit after this many frames (scripted runs, tests).
    pub frames: Option<u64>,
    /// Vertical scale of the first window size (integer, 1-16).
    pub scale: u32,
    pub aspect: Aspect,
    /// The overlay's mode at start.
    pub overlay: OverlayMode,
    pub pace_by: PaceBy,
    pub input: InputConfig,
    /// The NES pad each input pad drives: `input`'s pad i (keys and controller i) presses
    /// the buttons of NES pad `pads[i]` (`nesmind demo --human 2` hands pad 1's keys to pad 2).
    pub pads: [usize; 4],
    /// At exit: the picture read back from the renderer, 256x240, no overlay.
    pub screenshot: Option<PathBuf>,
    /// At exit: the whole window as shown (scaled, aspect, overlay).
    pub capture: Option<PathBuf>,
    /// Savestate slots are `<stem>.slotN.state`, screenshots `<stem>-N.png`.
    pub stem: String,
    /// Output volume 0.0-1.0; 0 or `mute` opens no audio device.
    pub volume: f32,
    pub mute: bool,
}

impl Default for WindowOptions {
    /// Real time, 3x, 8:7 pixels, overlay on, sound-paced, default keys.
    fn default() -> Self {
        WindowOptions {
            speed: Speed::Times(1.0),
            frames: None,
            scale: 3,
            aspect: Aspect::Ntsc,
            overlay: OverlayMode::Auto,
            pace_by: PaceBy::Sound,
            input: InputConfig::default(),
            pads: [0, 1, 2, 3],
            screenshot: None,
            capture: None,
            stem: "nesmind".into(),
            volume: 1.0,
            mute: false,
        }
    }
}

/// Frames per second, over half-second windows for display and over the whole run.
struct Meter {
    window: (u32, Instant),
    fps: f64,
    /// When the first and the latest frame were presented.
    first: Option<Instant>,
    latest: Instant,
    frames: u64,
}

impl Meter {
    fn new() -> Meter {
        Meter {
            window: (0, Instant::now()),
            fps: 0.0,
            first: None,
            latest: Instant::now(),
            frames: 0,
        }
    }
    /// Counts a presented frame; true when the displayed figure changed.
    fn tick(&mut self) -> bool {
        let now = Instant::now();
        self.first.get_or_insert(now);
        self.latest = now;
        self.frames += 1;
        self.window.0 += 1;
        let span = now - self.window.1;
        if span < Duration::from_millis(500) {
            return false;
        }
        self.fps = f64::from(self.window.0) / span.as_secs_f64();
        self.window = (0, now);
        true
    }
    /// Average rate from the first frame to the last.
    fn overall(&self) -> f64 {
        match self.first {
            Some(t) if self.frames > 1 => {
                (self.frames - 1) as f64 / (self.latest - t).as_secs_f64()
            }
            _ => 0.0,
        }
    }
}

pub fn run(session: &mut Session, opts: &WindowOptions) -> Result<(), String> {
    run_with(session, opts, true, &mut |_| Ok(true))
}

/// As [`run`], calling `between` before each frame (after the keyboard is read): a tool's
/// commands (`nesmind ramsearch`). `Ok(false)` closes the window (`--capture` taken of it
/// as it was left); an error ends the run.
/// Without `interrupt_closes` an interrupt signal is left to `between` (a tool stops its
/// command with it).
pub fn run_with(
    session: &mut Session,
    opts: &WindowOptions,
    interrupt_closes: bool,
    between: &mut dyn FnMut(&mut Session) -> Result<bool, String>,
) -> Result<(), String> {
    let bindings = opts.input.resolve()?;
    if super::interrupt::installed() {
        // Ours stop the run at a frame and write its outputs; SDL's would only post a quit.
        sdl2::hint::set("SDL_NO_SIGNAL_HANDLERS", "1");
    }
    let sdl = sdl2::init().map_err(|e| format!("cannot start SDL: {e}"))?;
    let gc = sdl
        .game_controller()
        .map_err(|e| format!("SDL game controllers: {e}"))?;
    let (_video, mut canvas) = open_canvas(&sdl, "nesmind", opts.aspect, opts.scale)?;
    let creator = canvas.texture_creator();
    let mut screen = video::Video::new(&creator, opts.aspect);
    let mut pads = pads::Pads::new(bindings)?;
    let mut events = sdl.event_pump()?;
    let mut ui = keys::Ui::new(opts);
    let mut audio = WindowAudio::open(session, opts.volume, opts.mute, opts.pace_by);
    audio.set_speed(session, ui.speed());
    // Created last, so the schedule does not count the setup time (no burst at start).
    let mut pacer = Pacer::new(ui.speed());
    let mut meter = Meter::new();
    let mut idle = true;
    let captured = loop {
        // A close asked for by a signal, by `between`, by Esc or the window's close button
        // draws once more without a frame (`last`), so `--capture` still gets the window
        // as it was left.
        let mut closing = interrupt_closes && super::interrupt::requested().is_some();
        for event in events.poll_iter() {
            let said = match event {
                Event::Quit { .. } => {
                    closing = true;
                    None
                }
                Event::ControllerDeviceAdded { which, .. } => pads.added(&gc, which),
                Event::ControllerDeviceRemoved { which, .. } => pads.removed(which),
                Event::KeyDown {
                    scancode: Some(scan),
                    keycode: Some(k),
                    repeat: false,
                    ..
                } if pads.binds(k) => {
                    pads.key_down(scan);
                    None
                }
                Event::KeyDown {
                    keycode: Some(k),
                    keymod,
                    repeat,
                    ..
                } if !pads.binds(k) => {
                    if k == Keycode::ESCAPE {
                        closing = true;
                        continue;
                    }
                    ui.key_down(k, keymod, repeat, session, opts, canvas.window_mut());
                    None
                }
                Event::KeyUp {
                    keycode: Some(k), ..
                } => {
                    ui.key_up(k);
                    None
                }
                _ => None,
            };
            if let Some(text) = said {
                ui.say(text);
            }
        }
        if pacer.speed() != ui.speed() {
            pacer.set_speed(ui.speed());
            audio.set_speed(session, ui.speed());
        }
        let stepping = !closing && (!ui.paused || ui.advance);
        ui.advance = false;
        if stepping {
            let mut held = [crate::host::Buttons::NONE; 4];
            for (input, b) in pads.read(&events.keyboard_state()).iter().enumerate() {
                held[opts.pads[input].min(3)] |= *b;
            }
            for (pad, b) in held.iter().enumerate() {
                session.set_human_buttons(pad, *b);
            }
            closing = !between(session)?;
        }
        if stepping && !closing {
            if let Err(e) = session.step() {
                if opts.frames.is_some() {
                    return Err(e.into());
                }
                log::error!("{e}");
                ui.osd.alert(e.to_string());
                ui.paused = true;
            }
            audio.play(session);
        }
        // A plug-in's quit request ends the run like the last of --frames.
        let last = closing
            || (stepping
                && (opts.frames.is_some_and(|n| session.steps() >= n) || session.quit().is_some()));
        let info = info_line(session, &meter, &ui, audio.pacing_label());
        let lines = ui
            .osd
            .lines(Instant::now(), &info, session.status(), ui.paused);
        let wanted = video::Wanted {
            picture: last && opts.screenshot.is_some(),
            window: ui.window_shot.is_some() || (last && opts.capture.is_some()),
        };
        let got = screen.draw(
            &mut canvas,
            session.machine().picture(),
            session.drawing(),
            &lines,
            wanted,
        )?;
        if let (Some(path), Some((w, h, px))) = (ui.window_shot.take(), &got.window) {
            let r = save_png(&path, *w, *h, px).map(|_| format!("saved {}", path.display()));
            ui.say(r.unwrap_or_else(|e| e));
        }
        if closing {
            break got;
        }
        if !stepping {
            std::thread::sleep(Duration::from_millis(15));
            set_title(&mut canvas, &info, &ui, session);
            idle = true;
            continue;
        }
        if meter.tick() {
            set_title(&mut canvas, &info, &ui, session);
        }
        if std::mem::take(&mut idle) {
            // The first frame also mapped the window, and a pause is no time to make up.
            pacer.restart();
        }
        if last {
            break got;
        }
        match audio.pacing_queue() {
            Some((queue, target)) => {
                if let Err(e) = pacer.wait_for_sound(queue, target) {
                    log::warn!("{e}; pacing by the timer from now on");
                    ui.say(format!("{e}: timer pacing"));
                    audio.device_stalled();
                }
            }
            None => pacer.wait(),
        }
    };
    write_outputs(session, opts, captured)?;
    println!("frames {}", meter.frames);
    println!("fps {:.2}", meter.overall());
    Ok(())
}

/// Opens a resizable window of `scale` (1-16) with a renderer, refusing SDL's fallback to a
/// driver that draws nowhere unless the user chose it (tests choose `dummy`).
fn open_canvas(
    sdl: &sdl2::Sdl,
    title: &str,
    aspect: Aspect,
    scale: u32,
) -> Result<(sdl2::VideoSubsystem, sdl2::render::WindowCanvas), String> {
    let video = sdl
        .video()
        .map_err(|e| format!("no video device (is DISPLAY set?): {e}"))?;
    let driver = video.current_video_driver();
    if matches!(driver, "offscreen" | "dummy") && std::env::var_os("SDL_VIDEODRIVER").is_none() {
        // SDL found no display and fell back to drawing nowhere.
        return Err(format!(
            "no display: SDL could only open its '{driver}' video driver; add --headless"
        ));
    }
    // Vertical scaling is by whole pixels; keep SDL from smoothing it.
    sdl2::hint::set("SDL_RENDER_SCALE_QUALITY", "nearest");
    let (w, h) = aspect.window_size(scale.clamp(1, 16));
    let window = video
        .window(title, w, h)
        .position_centered()
        .resizable()
        .build()
        .map_err(|e| format!("cannot open a window: {e}"))?;
    let canvas = window
        .into_canvas()
        .build()
        .map_err(|e| format!("cannot create a renderer: {e}"))?;
    Ok((video, canvas))
}

fn save_png(path: &std::path::Path, w: usize, h: usize, pixels: &[u32]) -> Result<(), String> {
    crate::host::files::write_atomic(path, &crate::frontend::png::encode_rgb(w, h, pixels))
}

/// `--screenshot`: read back from the window; the emulated picture (which the window
/// showed) when that cannot be exact (8:7 at scale 1) or the window closed early.
/// `--capture`: the last frame as shown, if the run got there.
fn write_outputs(
    session: &Session,
    opts: &WindowOptions,
    captured: video::Captured,
) -> Result<(), String> {
    // Each written on its own, so one that fails does not cost the other.
    let shot = match (&opts.screenshot, captured.picture) {
        (Some(path), Some(pixels)) => save_png(path, 256, 240, &pixels),
        (Some(path), None) => {
            crate::frontend::png::save_drawn(path, session.machine().picture(), session.drawing())
        }
        (None, _) => Ok(()),
    };
    let capture = match (&opts.capture, captured.window) {
        (Some(path), Some((w, h, pixels))) => save_png(path, w, h, &pixels),
        (Some(path), None) => {
            log::warn!(
                "the window closed before the last frame: {} not written",
                path.display()
            );
            Ok(())
        }
        (None, _) => Ok(()),
    };
    match (shot, capture) {
        (Err(a), Err(b)) => Err(format!("--screenshot: {a}\nnesmind: --capture: {b}")),
        (Err(a), Ok(())) => Err(format!("--screenshot: {a}")),
        (Ok(()), Err(b)) => Err(format!("--capture: {b}")),
        (Ok(()), Ok(())) => Ok(()),
    }
}

/// ROM, plug-in with pad owners (P plug-in, H human), fps, speed and pacing source.
fn info_line(session: &Session, meter: &Meter, ui: &keys::Ui, pacing: &str) -> String {
    let mut t = session.rom().info.file_name.clone();
    if let Some(p) = session.plugin_name() {
        let owners: String = (0..4)
            .map(|i| match session.owner(i) {
                PadOwner::Plugin => 'P',
                PadOwner::Human => 'H',
            })
            .collect();
        t.push_str(&format!(" - {p} [{owners}]"));
    }
    t.push_str(&format!(" - {:.1} fps", meter.fps));
    match ui.speed() {
        Speed::Max => t.push_str(" - max"),
        Speed::Times(x) if x != 1.0 => t.push_str(&format!(" - x{x}")),
        Speed::Times(_) => t.push_str(&format!(" - {pacing}")),
    }
    t
}

fn set_title(
    canvas: &mut sdl2::render::WindowCanvas,
    info: &str,
    ui: &keys::Ui,
    session: &Session,
) {
    let mut t = format!("nesmind - {info}");
    if ui.paused {
        t.push_str(" - paused");
    }
    // The overlay can be off or small; the title names what stopped the run too.
    if let Some(alert) = ui.osd.title_alert() {
        t.push_str(" - ");
        t.push_str(&alert);
    }
    let message = ui.osd.message(Instant::now()).unwrap_or("");
    for extra in [message, session.status()] {
        if !extra.is_empty() {
            t.push_str(" - ");
            t.push_str(extra);
        }
    }
    let _ = canvas.window_mut().set_title(&t);
}
