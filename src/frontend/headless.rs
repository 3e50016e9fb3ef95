//! Headless runs: no window, as fast as allowed, with a progress bar and a summary.

use super::interrupt::{self, Signal};
use super::pacing::{Pacer, Speed};
use super::wav::WavWriter;
use crate::host::progress::Progress;
use crate::host::{Quit, Session};
use std::time::Instant;

/// What a finished headless run reports.
#[derive(Debug)]
pub struct Summary {
    pub frames: u64,
    pub seconds: f64,
    pub plugin: Option<String>,
    pub result: Option<String>,
    /// `--verify`'s verdict: hashes matched, or why the replay is not verified.
    pub verdict: Option<Result<usize, String>>,
    /// An old replay's frames that no hash covers (first, count).
    pub unchecked_tail: Option<(u64, u64)>,
    /// The plug-in ended the run early (exit status, message).
    pub quit: Option<Quit>,
    /// A signal stopped the run at a frame boundary.
    pub interrupted: Option<Signal>,
}

impl Summary {
    pub fn fps(&self) -> f64 {
        self.frames as f64 / self.seconds.max(1e-9)
    }
    /// The lines printed at the end of `nesmind run --headless`.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("frames {}", self.frames)];
        if let Some(p) = &self.plugin {
            out.push(format!(
                "plugin {p}: {}",
                self.result.as_deref().unwrap_or("(no result)")
            ));
        }
        // An error verdict is reported by the caller as the run's error.
        if let Some(Ok(n)) = &self.verdict {
            out.push(format!("replay verified ({n} state hashes match)"));
        }
        if let (Some(Ok(_)), Some((first, count))) = (&self.verdict, self.unchecked_tail) {
            out.push(format!(
                "note: this replay predates final hashes; its last {count} frames (from frame \
                 {first}) were not checked"
            ));
        }
        if let Some(s) = self.interrupted {
            out.push(format!(
                "interrupted by {} after {} frames",
                s.name(),
                self.frames
            ));
        }
        if let Some(q) = &self.quit {
            out.push(format!("plugin quit with status {}: {}", q.code, q.message));
        }
        out.push(format!("fps {:.1}", self.fps()));
        out
    }
}

/// Steps `frames` frames, fewer if the plug-in quits. On an error (jam, plug-in failure,
/// replay divergence) the run stops and the error is returned; the session stays usable
/// for a screenshot or state.
/// With `audio`, the mixed samples of every frame are written to it; a failed write
/// stops the run.
pub fn run(
    session: &mut Session,
    frames: u64,
    speed: Speed,
    mut audio: Option<&mut WavWriter>,
) -> Result<Summary, String> {
    let mut samples = Vec::new();
    let mut pacer = Pacer::new(speed);
    // Runs shorter than about two seconds of emulation are not worth a bar.
    let mut progress = if frames >= 120 {
        Progress::new("frames", Some(frames))
    } else {
        Progress::with_output("frames", None, false)
    };
    let start = Instant::now();
    let mut ran = 0;
    while ran < frames && session.quit().is_none() && interrupt::requested().is_none() {
        if let Err(e) = session.step() {
            progress.finish();
            return Err(format!("stopped after {ran} frames: {e}"));
        }
        ran += 1;
        if let Some(wav) = audio.as_deref_mut() {
            session.machine_mut().take_audio(&mut samples);
            if let Err(e) = wav.write(&samples) {
                progress.finish();
                return Err(format!("stopped after {ran} frames: {e}"));
            }
            samples.clear();
        }
        pacer.wait();
        progress.update(ran, "");
    }
    progress.finish();
    let seconds = start.elapsed().as_secs_f64();
    Ok(Summary {
        frames: ran,
        quit: session.quit().cloned(),
        interrupted: interrupt::requested(),
        seconds,
        plugin: session.plugin_name().map(String::from),
        result: session.plugin_result(),
        verdict: session.verdict().map(|v| v.map_err(|e| e.to_string())),
        unchecked_tail: session
            .player()
            .filter(|p| p.verifies())
            .and_then(|p| p.old_tail()),
    })
}
