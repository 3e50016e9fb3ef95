//! `nesmind sim hatris`: spawns until game over over many simulated games.

use super::eval::Weights;
use super::play::{RunResult, play_many};
use super::rules::{NestReading, Settings};
use clap::Parser;
use nesmind_host::progress::Progress;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

mod record;

#[derive(Parser, Debug)]
#[command(
    about = "Plays simulated Hatris games with the search AI and reports spawns until game over"
)]
pub struct SimArgs {
    /// Number of games.
    #[arg(long, default_value_t = 2000)]
    pub runs: usize,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Turn off the spawn routine's re-pick of matching pairs (a fair generator).
    #[arg(long)]
    pub no_skew: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Weights file (RON); default: the shipped weights.
    #[arg(long)]
    pub weights: Option<String>,
    /// Two-pair lines to rate again over the unknown third pair (overrides the weights
    /// file's `third_pair_lines`; 0 searches two pairs only).
    #[arg(long)]
    pub third_pair_lines: Option<u32>,
    /// Rule settings file (RON, see rules.rs); default: the built-in best estimates.
    #[arg(long)]
    pub settings: Option<String>,
    /// Nesting-table reading, A or B (overrides the settings file).
    #[arg(long, value_parser = ["A", "B"])]
    pub reading: Option<String>,
    /// Top-out height in pixels (overrides the settings file).
    #[arg(long)]
    pub height_limit: Option<u16>,
    /// Append one line per finished game to this file: seed, spawns, spawn of the 60th level
    /// (or -), capped, cash, level reached.
    #[arg(long)]
    pub dump: Option<String>,
    /// Keep the games already in the --dump file (same settings, weights and cap) and play
    /// only the missing ones, so a stopped run continues where it was.
    #[arg(long, requires = "dump")]
    pub resume: bool,
    /// Stop a game after this many spawns (its count is then a lower bound; reported).
    #[arg(long)]
    pub max_spawns: Option<u64>,
}

pub fn load_settings(path: Option<&str>) -> Result<Settings, String> {
    match path {
        None => Ok(Settings::default()),
        Some(p) => {
            let text = nesmind_host::files::read_capped_text(
                std::path::Path::new(p),
                1 << 20,
                "a Hatris settings file",
            )
            .map_err(|e| format!("cannot read {p}: {e}"))?;
            Settings::from_ron(&text).map_err(|e| format!("{p}: {e}"))
        }
    }
}

/// The tools' argument parser (one for every plug-in tool, in nesmind-host).
pub use nesmind_host::parse_args as parse;

/// Summary statistics of spawn counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub mean: f64,
    pub sd: f64,
    pub median: f64,
    /// 2.5th and 97.5th percentiles of the runs.
    pub central95: (u64, u64),
    /// 95% confidence interval of the mean.
    pub mean_ci95: (f64, f64),
    pub finished_share: f64,
    pub capped: usize,
}

fn percentile(sorted: &[u64], q: f64) -> u64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

pub fn summarize(results: &[RunResult]) -> Summary {
    let n = results.len() as f64;
    let mut v: Vec<u64> = results.iter().map(|r| r.spawns).collect();
    v.sort_unstable();
    let mean = v.iter().sum::<u64>() as f64 / n;
    let var = if v.len() > 1 {
        v.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let sd = var.sqrt();
    let mid = v.len() / 2;
    let median = if v.len().is_multiple_of(2) {
        (v[mid - 1] + v[mid]) as f64 / 2.0
    } else {
        v[mid] as f64
    };
    let half = 1.96 * sd / n.sqrt();
    Summary {
        mean,
        sd,
        median,
        central95: (percentile(&v, 0.025), percentile(&v, 0.975)),
        mean_ci95: (mean - half, mean + half),
        finished_share: results.iter().filter(|r| r.finished_at.is_some()).count() as f64 / n,
        capped: results.iter().filter(|r| r.capped).count(),
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let Some(a) = parse::<SimArgs>("nesmind sim hatris", args)? else {
        return Ok(());
    };
    if a.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    let mut settings = load_settings(a.settings.as_deref())?;
    if a.no_skew {
        settings.pair_skew = false;
    }
    if let Some(r) = &a.reading {
        settings.nest_reading = if r == "B" {
            NestReading::B
        } else {
            NestReading::A
        };
    }
    if let Some(h) = a.height_limit {
        settings.height_limit = h;
    }
    settings.validate()?;
    let mut weights = match &a.weights {
        Some(p) => Weights::load(p)?,
        None => Weights::shipped(),
    };
    if let Some(n) = a.third_pair_lines {
        weights.third_pair_lines = n;
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = Instant::now();
    let runs = a.runs;
    let mut results: Vec<Option<RunResult>> = vec![None; runs];
    let record = match &a.dump {
        Some(p) => {
            let settings_ron = ron::to_string(&settings).map_err(|e| e.to_string())?;
            let head = record::header(&settings_ron, &weights.to_ron(), a.max_spawns);
            if a.resume {
                for (seed, r) in record::load(p, &head)? {
                    if let Some(slot) = seed
                        .checked_sub(a.seed)
                        .and_then(|i| results.get_mut(i as usize))
                    {
                        *slot = Some(r);
                    }
                }
            } else if std::fs::metadata(p).is_ok_and(|m| m.len() > 0) {
                return Err(format!(
                    "{p} already holds games: pass --resume to continue it, or another file"
                ));
            }
            Some(record::Record::open(p, &head)?)
        }
        None => None,
    };
    let resumed = results.iter().flatten().count();
    if resumed > 0 {
        eprintln!("resuming: {resumed} of {runs} games already played");
    }
    let done = AtomicUsize::new(resumed);
    // The missing games, as runs of consecutive seeds.
    let mut missing: Vec<(usize, usize)> = Vec::new();
    for i in (0..runs).filter(|&i| results[i].is_none()) {
        match missing.last_mut() {
            Some((from, len)) if *from + *len == i => *len += 1,
            _ => missing.push((i, 1)),
        }
    }
    let mut played = 0u64;
    let line = std::sync::Mutex::new(Progress::new("games", Some(runs as u64)));
    for (from, len) in missing {
        let progress = |_: usize, index: usize, r: &RunResult| {
            if let Some(rec) = &record {
                rec.add(a.seed + (from + index) as u64, r);
            }
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            line.lock().expect("progress lock").update(done as u64, "");
        };
        let seed = a.seed + from as u64;
        let batch = play_many(
            &settings,
            &weights,
            seed,
            len,
            a.max_spawns,
            threads,
            &progress,
        );
        played += batch.iter().map(|r| r.spawns).sum::<u64>();
        for (i, r) in batch.into_iter().enumerate() {
            results[from + i] = Some(r);
        }
    }
    let results: Vec<RunResult> = results.into_iter().flatten().collect();
    line.lock().expect("progress lock").finish();
    let batch = Batch {
        seed: a.seed,
        settings: &settings,
        weights: &weights,
        cap: a.max_spawns,
        threads,
    };
    print!(
        "{}",
        batch.report(&results, start.elapsed().as_secs_f64(), played)
    );
    Ok(())
}

/// What a batch of simulated games ran with, for its report.
pub struct Batch<'a> {
    /// The first game's seed (game i uses seed + i).
    pub seed: u64,
    pub settings: &'a Settings,
    pub weights: &'a Weights,
    pub cap: Option<u64>,
    pub threads: usize,
}

impl Batch<'_> {
    /// The report `sim hatris` prints for `results` (every game, in seed order), ending
    /// with `mean_spawns M`; `played` spawns were played now, in `seconds` of wall time.
    pub fn report(&self, results: &[RunResult], seconds: f64, played: u64) -> String {
        let s = summarize(results);
        let mut out = format!(
            "runs {} seed {} skew {} reading {:?} height limit {} threads {} cap {} third-pair lines {}\n",
            results.len(),
            self.seed,
            if self.settings.pair_skew { "on" } else { "off" },
            self.settings.nest_reading,
            self.settings.height_limit,
            self.threads,
            self.cap.map_or("none".to_string(), |c| c.to_string()),
            self.weights.third_pair_lines
        );
        out += &format!(
            "spawns: mean {:.1} sd {:.1} median {:.1}\n",
            s.mean, s.sd, s.median
        );
        out += &format!(
            "95% of runs between {} and {}; 95% CI of the mean {:.1} .. {:.1}\n",
            s.central95.0, s.central95.1, s.mean_ci95.0, s.mean_ci95.1
        );
        out += &format!(
            "finished all 60 levels: {:.2}% of runs; runs stopped at the cap: {}\n",
            100.0 * s.finished_share,
            s.capped
        );
        out += &format!(
            "time {:.1} s, {:.1} us per spawn per thread (wall clock, games played now)\n",
            seconds,
            1e6 * seconds * self.threads as f64 / played.max(1) as f64
        );
        out += &format!("mean_spawns {:.1}\n", s.mean);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(spawns: u64, finished: bool) -> RunResult {
        RunResult {
            spawns,
            finished_at: finished.then_some(2250),
            capped: false,
            cash: 0,
            level: 0,
        }
    }

    #[test]
    fn summary_figures() {
        let s = summarize(&[r(10, false), r(20, false), r(30, true), r(40, true)]);
        assert_eq!(s.mean, 25.0);
        assert_eq!(s.median, 25.0);
        assert!((s.sd - 12.909944).abs() < 1e-5);
        assert_eq!(s.finished_share, 0.5);
        assert_eq!(s.central95, (10, 40));
    }

    #[test]
    fn bad_flags_are_errors() {
        let e = run(&["--runs".into(), "x".into()]).unwrap_err();
        assert!(e.contains("--runs"), "{e}");
        let e = run(&["--reading".into(), "C".into()]).unwrap_err();
        assert!(e.contains("--reading"), "{e}");
        let e = run(&["--height-limit".into(), "3".into()]).unwrap_err();
        assert!(e.contains("height_limit"), "{e}");
        let e = run(&["--settings".into(), "/nonexistent.ron".into()]).unwrap_err();
        assert!(e.contains("/nonexistent.ron"), "{e}");
    }
}
