//! A window that shows the pictures a caller hands it, for callers that own the loop
//! (Gymnasium's `render_mode="human"`): they step the machine, the window only shows it.
//!
//! The window lives on a thread of its own, so it keeps answering the desktop (moves,
//! resizes, expose) while the caller thinks between steps, and the caller's thread needs
//! no SDL. The caller is paced to real time by the emulated frames each picture stands
//! for, as a person would want to watch an agent play.

use super::video::{Video, Wanted};
use crate::frontend::layout::{Aspect, PIC_H, PIC_W};
use crate::frontend::overlay::{Line, STATUS};
use sdl2::event::{Event, WindowEvent};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The NES's frame period (NTSC, 60.0988 Hz).
const FRAME: Duration = Duration::from_nanos(16_639_267);

/// One picture to show: palette indices and the status line under it.
struct Shown {
    picture: Vec<u16>,
    status: String,
}

pub struct Viewer {
    to_window: Option<SyncSender<Shown>>,
    open: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    shown: u64,
    /// Real-time speed factor (`None`: as fast as pictures come) and the next deadline.
    speed: Option<f64>,
    deadline: Option<Instant>,
}

impl Viewer {
    /// Opens the window (`scale`: its first vertical scale, 1-16; `speed`: 1.0 real time,
    /// `None` unpaced). Fails with the reason when there is no screen to open it on.
    pub fn open(title: &str, scale: u32, speed: Option<f64>) -> Result<Viewer, String> {
        if let Some(s) = speed.filter(|s| !(s.is_finite() && *s > 0.0)) {
            return Err(format!("speed {s} is not a positive number"));
        }
        crate::frontend::display::check()?;
        let (ready_tx, ready_rx) = mpsc::channel();
        let (to_window, pictures) = mpsc::sync_channel::<Shown>(1);
        let open = Arc::new(AtomicBool::new(true));
        let (title, flag) = (title.to_string(), open.clone());
        let thread = std::thread::Builder::new()
            .name("nesmind-viewer".into())
            .spawn(move || {
                let result = window_loop(&title, scale, &pictures, &flag, &ready_tx);
                flag.store(false, Ordering::SeqCst);
                if let Err(why) = result {
                    // Before the window was up this reaches `open`; later nobody is waiting.
                    let _ = ready_tx.send(Err(why));
                }
            })
            .map_err(|e| format!("cannot start the window's thread: {e}"))?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Viewer {
                to_window: Some(to_window),
                open,
                thread: Some(thread),
                shown: 0,
                speed,
                deadline: None,
            }),
            Ok(Err(why)) => {
                let _ = thread.join();
                Err(why)
            }
            Err(_) => {
                let _ = thread.join();
                Err("the window's thread ended before the window opened".into())
            }
        }
    }

    /// Shows `picture` (256x240 palette indices) with `status` under it, after waiting
    /// until `frames` emulated frames have passed in real time since the last picture.
    /// Returns false once the window is closed (by the person, or by [`Viewer::close`]).
    pub fn show(&mut self, picture: &[u16], status: &str, frames: u32) -> Result<bool, String> {
        if picture.len() != PIC_W * PIC_H {
            return Err(format!(
                "a picture is {} palette indices, not {}",
                PIC_W * PIC_H,
                picture.len()
            ));
        }
        if !self.is_open() {
            return Ok(false);
        }
        self.pace(frames);
        let Some(tx) = &self.to_window else {
            return Ok(false);
        };
        let shown = Shown {
            picture: picture.to_vec(),
            status: status.to_string(),
        };
        if tx.send(shown).is_err() {
            return Ok(false);
        }
        self.shown += 1;
        Ok(true)
    }

    /// Sleeps until the next deadline; a caller slower than real time is not made to
    /// catch up (the deadline restarts from now).
    fn pace(&mut self, frames: u32) {
        let Some(speed) = self.speed else { return };
        let now = Instant::now();
        let period = FRAME.mul_f64(f64::from(frames.max(1)) / speed);
        match self.deadline {
            Some(d) if d > now => {
                std::thread::sleep(d - now);
                self.deadline = Some(d + period);
            }
            _ => self.deadline = Some(now + period),
        }
    }

    /// Whether the window is still open.
    pub fn is_open(&self) -> bool {
        self.to_window.is_some() && self.open.load(Ordering::SeqCst)
    }

    /// Pictures handed to the window so far.
    pub fn shown(&self) -> u64 {
        self.shown
    }

    /// Closes the window (waits for its thread); later `show`s return false.
    pub fn close(&mut self) {
        self.to_window = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.open.store(false, Ordering::SeqCst);
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        self.close();
    }
}

/// The window's thread: opens the window, says so on `ready`, then draws each picture
/// as it comes and redraws the last one when the desktop asks, until the caller hangs up
/// or the person closes the window.
fn window_loop(
    title: &str,
    scale: u32,
    pictures: &Receiver<Shown>,
    open: &AtomicBool,
    ready: &mpsc::Sender<Result<(), String>>,
) -> Result<(), String> {
    // The caller's process keeps its own Ctrl+C (SDL's handler would turn it into a quit).
    sdl2::hint::set("SDL_NO_SIGNAL_HANDLERS", "1");
    let sdl = sdl2::init().map_err(|e| format!("cannot start SDL: {e}"))?;
    let (_video, mut canvas) = super::open_canvas(&sdl, title, Aspect::Ntsc, scale)?;
    let creator = canvas.texture_creator();
    let mut screen = Video::new(&creator, Aspect::Ntsc);
    let mut events = sdl.event_pump()?;
    let _ = ready.send(Ok(()));
    let mut last = Shown {
        picture: vec![0x0F; PIC_W * PIC_H],
        status: String::new(),
    };
    let mut redraw = true;
    loop {
        match pictures.recv_timeout(Duration::from_millis(20)) {
            Ok(next) => {
                last = next;
                redraw = true;
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        }
        for event in events.poll_iter() {
            match event {
                Event::Quit { .. } => {
                    open.store(false, Ordering::SeqCst);
                    return Ok(());
                }
                Event::Window {
                    win_event: WindowEvent::Exposed | WindowEvent::SizeChanged(..),
                    ..
                } => redraw = true,
                _ => {}
            }
        }
        if redraw {
            let lines: Vec<Line> = (!last.status.is_empty())
                .then(|| Line::new(last.status.clone(), STATUS))
                .into_iter()
                .collect();
            screen.draw(&mut canvas, &last.picture, &[], &lines, Wanted::default())?;
            redraw = false;
        }
    }
}
