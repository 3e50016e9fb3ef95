//! `cargo bench --bench hatris_calibration -- [SEED...]`: how long the Hatris player takes to
//! calibrate from power-on, on the demo cartridge and on variants of it (default seeds
//! 1-5; variants need ca65). Nobody presses Start: the title starts the game by itself
//! after 4 s, and a menu variant gets its A from the bench. Reported per cartridge: the
//! frame (from power-on) at which calibration was done, the frames it ran on forks, and
//! the CPU time of the whole run to that point (thread CPU time, so other jobs on the
//! machine do not inflate it).

use nesmind::emu::Rom;
use nesmind::host::{Buttons, Frame, PadOwner, Plugin, PluginOptions, RomInfo, Session, Setup};
use nesmind::plugins::hatris::player::HatrisPlayer;
use nesmind::plugins::hatris::variant::Cart;
use std::sync::{Arc, Mutex};

/// Nanoseconds this thread has run on a CPU (Linux's schedstat), if known.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// When calibration ended: (frame from power-on, frames run on forks, why it failed).
type Done = Option<(u64, u64, Option<String>)>;

/// The player, reporting when it is done calibrating.
struct Timed {
    player: HatrisPlayer,
    done: Arc<Mutex<Done>>,
}

impl Plugin for Timed {
    fn name(&self) -> &str {
        "hatris"
    }
    fn description(&self) -> &str {
        "the Hatris player, timed"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.player.on_attach(rom, setup)
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        self.player.on_frame(frame);
        let failed = self.player.failure().map(str::to_string);
        if let Some(at) = self
            .player
            .calibrated_at
            .or(failed.as_ref().map(|_| frame.frame_number()))
        {
            *self.done.lock().unwrap() = Some((at, self.player.fork_frames, failed));
        }
    }
}

fn calibrate(cart: &Cart) -> Result<String, String> {
    let done = Arc::new(Mutex::new(None));
    let player = HatrisPlayer::from_options(&PluginOptions::new())?;
    let rom = Rom::parse(&cart.image, &cart.file_name()).map_err(|e| e.to_string())?;
    let mut session = Session::new(rom)?;
    session.machine_mut().set_audio_enabled(false);
    session.attach(
        Box::new(Timed {
            player,
            done: done.clone(),
        }),
        &[],
    )?;
    let start = thread_cpu_ns();
    let wall = std::time::Instant::now();
    for frame in 0..1800u64 {
        // The menu variant waits for A after the title has started it.
        let human = cart.has_menu() && frame == 300;
        session.set_owner(
            0,
            if human {
                PadOwner::Human
            } else {
                PadOwner::Plugin
            },
        );
        session.set_human_buttons(0, if human { Buttons::A } else { Buttons::NONE });
        session.step()?;
        if let Some((at, forks, failed)) = done.lock().unwrap().clone() {
            let cpu = match (start, thread_cpu_ns()) {
                (Some(a), Some(b)) => format!("{:.3} s CPU", (b - a) as f64 * 1e-9),
                _ => format!("{:.3} s wall clock", wall.elapsed().as_secs_f64()),
            };
            return Ok(match failed {
                Some(why) => {
                    format!("failed at frame {at}: {why} ({forks} frames on forks, {cpu})")
                }
                None => format!(
                    "calibrated at frame {at} ({:.2} s of emulated time), {forks} frames on forks, {cpu}",
                    at as f64 / 60.0988
                ),
            });
        }
    }
    Err("not calibrated within 1800 frames".into())
}

fn main() {
    let seeds: Vec<u64> = nesmind::frontend::bench::positional_args()
        .iter()
        .filter_map(|a| a.parse().ok())
        .collect();
    let seeds = if seeds.is_empty() {
        (1..=5).collect()
    } else {
        seeds
    };
    let mut carts = vec![("demo cartridge".to_string(), Ok(Cart::default_cart()))];
    for s in seeds {
        carts.push((format!("variant {s}"), Cart::classic(s, &[])));
    }
    let mut failed = false;
    for (name, cart) in carts {
        let line = cart.and_then(|c| calibrate(&c));
        failed |= line.is_err() || line.as_deref().is_ok_and(|l| l.starts_with("failed"));
        println!("{name}: {}", line.unwrap_or_else(|e| e));
    }
    if failed {
        std::process::exit(1);
    }
}
