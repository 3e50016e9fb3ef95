//! Ctrl+C, SIGTERM and SIGHUP during `nesmind run`: the first asks the run to stop at the
//! next frame boundary, so everything asked for (recording, savestate, screenshot, summary)
//! is still written; a second ends the process at once, for a run that will not stop.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

struct Flags {
    asked: Arc<AtomicBool>,
    /// The signal that asked (0: none yet).
    signal: Arc<AtomicUsize>,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();

/// Exit status after a second signal: the shell's status for a death by SIGINT.
const ABORT_STATUS: i32 = 130;

/// Installs the handlers (once per process; later calls do nothing).
#[cfg(unix)]
pub fn install() -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::flag;
    if FLAGS.get().is_some() {
        return Ok(());
    }
    let flags = Flags {
        asked: Arc::new(AtomicBool::new(false)),
        signal: Arc::new(AtomicUsize::new(0)),
    };
    let fail = |e: std::io::Error| format!("cannot catch interrupt signals: {e}");
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        // Handlers run in the order registered: this one sees the flag as an earlier
        // signal left it, so it ends the process only on the second.
        flag::register_conditional_shutdown(sig, ABORT_STATUS, Arc::clone(&flags.asked))
            .map_err(fail)?;
        flag::register_usize(sig, Arc::clone(&flags.signal), sig as usize).map_err(fail)?;
        flag::register(sig, Arc::clone(&flags.asked)).map_err(fail)?;
    }
    let _ = FLAGS.set(flags);
    Ok(())
}

/// Elsewhere the system's default stays: an interrupt ends the run without its outputs.
#[cfg(not(unix))]
pub fn install() -> Result<(), String> {
    Ok(())
}

/// Whether `install` ran (the window then keeps SDL from installing its own handlers).
pub fn installed() -> bool {
    FLAGS.get().is_some()
}

/// The signal that asked the run to stop, if one did.
pub fn requested() -> Option<Signal> {
    let flags = FLAGS.get()?;
    if !flags.asked.load(Ordering::Relaxed) {
        return None;
    }
    Some(Signal(flags.signal.load(Ordering::Relaxed) as i32))
}

/// Forgets a signal that has been dealt with, so the next one asks again instead of ending
/// the process (`nesmind ramsearch`: Ctrl+C stops the running command, not the session).
pub fn clear() {
    if let Some(flags) = FLAGS.get() {
        flags.signal.store(0, Ordering::Relaxed);
        flags.asked.store(false, Ordering::Relaxed);
    }
}

/// A signal that stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal(pub i32);

impl Signal {
    /// The exit status of a run it stopped: 128 + the signal number, as shells report it.
    pub fn exit_status(self) -> i32 {
        128 + self.0
    }
    /// Ctrl+C: in `nesmind ramsearch` it stops the running command; the others end the
    /// session, since a terminal closing (SIGHUP) or a system stopping (SIGTERM) will
    /// not wait for a prompt.
    pub fn is_sigint(self) -> bool {
        self.0 == 2
    }
    pub fn name(self) -> String {
        match self.0 {
            1 => "SIGHUP".into(),
            2 => "SIGINT (Ctrl+C)".into(),
            15 => "SIGTERM".into(),
            n => format!("signal {n}"),
        }
    }
}
