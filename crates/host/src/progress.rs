//! A one-line progress report on stderr for long runs (frames, games, runs), drawn only when
//! stderr is a terminal: a pipe or a log file gets nothing, so output stays byte-identical
//! run to run. `NESMIND_PROGRESS=never` turns it off on a terminal too; `always` draws it
//! anywhere (for tests and for `script`-style logging).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the line is redrawn at most.
const REDRAW: Duration = Duration::from_millis(200);
/// Width of the bar when the total is known.
const BAR: u64 = 24;

pub struct Progress {
    /// What is counted, plural: "frames", "games", "runs".
    unit: &'static str,
    /// `None` for open-ended work (an uncapped game): no bar, no ETA.
    total: Option<u64>,
    enabled: bool,
    start: Instant,
    last: Option<Instant>,
    drawn: bool,
}

impl Progress {
    pub fn new(unit: &'static str, total: Option<u64>) -> Progress {
        let enabled = match std::env::var("NESMIND_PROGRESS").as_deref() {
            Ok("never") | Ok("0") => false,
            Ok("always") | Ok("1") => true,
            _ => std::io::stderr().is_terminal(),
        };
        Progress::with_output(unit, total, enabled)
    }

    /// A report that draws only when `enabled` (the terminal test is the caller's).
    pub fn with_output(unit: &'static str, total: Option<u64>, enabled: bool) -> Progress {
        Progress {
            unit,
            total,
            enabled,
            start: Instant::now(),
            last: None,
            drawn: false,
        }
    }

    /// Whether anything will be drawn.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Reports `done` units so far with `detail` (e.g. "win 91.7%"); redrawn at most every
    /// 200 ms, so it is cheap to call on every unit.
    pub fn update(&mut self, done: u64, detail: &str) {
        if !self.enabled || self.last.is_some_and(|t| t.elapsed() < REDRAW) {
            return;
        }
        self.last = Some(Instant::now());
        let text = line(
            self.unit,
            done,
            self.total,
            self.start.elapsed().as_secs_f64(),
            detail,
        );
        let mut err = std::io::stderr().lock();
        // Clear to the end of the line: the new text may be shorter than the old.
        let _ = write!(err, "\r{text}\x1b[K");
        let _ = err.flush();
        self.drawn = true;
    }

    /// Clears the line so what follows starts on a clean one.
    pub fn finish(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            self.drawn = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `[######------]   40/100 games  2.5 games/s  ETA 0:24  win 91.7%`; without a total,
/// `1234 runs  12.3 runs/s  0:42  spawns 5012`.
pub fn line(unit: &str, done: u64, total: Option<u64>, seconds: f64, detail: &str) -> String {
    let rate = done as f64 / seconds.max(1e-9);
    let rate_text = if rate >= 100.0 {
        format!("{rate:.0}")
    } else {
        format!("{rate:.1}")
    };
    let mut out = match total {
        Some(total) => {
            let filled = (done.min(total) * BAR).checked_div(total).unwrap_or(BAR);
            let left = total.saturating_sub(done) as f64 / rate.max(1e-9);
            format!(
                "[{}{}] {done:>5}/{total} {unit}  {rate_text} {unit}/s  ETA {}",
                "#".repeat(filled as usize),
                "-".repeat((BAR - filled) as usize),
                clock(if done == 0 { f64::NAN } else { left }),
            )
        }
        None => format!("{done} {unit}  {rate_text} {unit}/s  {}", clock(seconds)),
    };
    if !detail.is_empty() {
        out.push_str("  ");
        out.push_str(detail);
    }
    out
}

/// `m:ss` or `h:mm:ss`; `?` before there is a rate to go by.
fn clock(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "?".into();
    }
    let s = seconds.round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_rate_and_eta_follow_the_counts() {
        let l = line("games", 40, Some(100), 16.0, "win 91.7%");
        assert!(
            l.starts_with(&format!("[{}{}]", "#".repeat(9), "-".repeat(15))),
            "{l}"
        );
        assert!(
            l.contains("40/100 games  2.5 games/s  ETA 0:24  win 91.7%"),
            "{l}"
        );
        let full = line("frames", 600, Some(600), 0.1, "");
        assert!(full.starts_with(&format!("[{}]", "#".repeat(24))), "{full}");
        assert!(full.ends_with("6000 frames/s  ETA 0:00"), "{full}");
        assert!(line("runs", 0, Some(5), 1.0, "").ends_with("ETA ?"));
    }

    #[test]
    fn open_ended_work_shows_count_rate_and_elapsed_time() {
        assert_eq!(
            line("spawns", 5012, None, 3725.0, ""),
            "5012 spawns  1.3 spawns/s  1:02:05"
        );
    }

    #[test]
    fn a_disabled_report_draws_nothing() {
        let mut p = Progress::with_output("games", Some(3), false);
        p.update(1, "x");
        assert!(!p.enabled() && !p.drawn);
    }
}
