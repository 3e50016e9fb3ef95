//! A one-line progress bar on stderr, drawn only when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    total: u64,
    enabled: bool,
    start: Instant,
    last: Instant,
}

impl Progress {
    /// Runs shorter than about two seconds of emulation are not worth a bar.
    pub fn new(total: u64) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            enabled: total >= 120 && std::io::stderr().is_terminal(),
            start: now,
            last: now,
        }
    }

    pub fn update(&mut self, done: u64) {
        if !self.enabled || self.last.elapsed() < Duration::from_millis(100) {
            return;
        }
        self.last = Instant::now();
        let fps = done as f64 / self.start.elapsed().as_secs_f64().max(1e-9);
        eprint!("\r{}", line(done, self.total, fps));
        let _ = std::io::stderr().flush();
    }

    /// Clears the bar so the summary starts on a clean line.
    pub fn finish(&self) {
        if self.enabled {
            eprint!("\r{:width$}\r", "", width = 72);
        }
    }
}

/// `[#####-----]  1234/6000 frames  2345 fps  ETA 2s`
pub fn line(done: u64, total: u64, fps: f64) -> String {
    const WIDTH: u64 = 30;
    let filled = (done.min(total) * WIDTH)
        .checked_div(total)
        .unwrap_or(WIDTH);
    let eta = total.saturating_sub(done) as f64 / fps.max(1e-9);
    format!(
        "[{}{}] {done:>7}/{total} frames {fps:>6.0} fps ETA {eta:.0}s",
        "#".repeat(filled as usize),
        "-".repeat((WIDTH - filled) as usize)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn bar_fills_in_proportion() {
        let l = super::line(50, 100, 60.0);
        assert!(
            l.starts_with(&format!("[{}{}]", "#".repeat(15), "-".repeat(15))),
            "{l}"
        );
        assert!(l.contains("50/100 frames") && l.contains("ETA 1s"), "{l}");
        assert!(super::line(100, 100, 1.0).starts_with(&format!("[{}]", "#".repeat(30))));
    }
}
