//! `nesmind train hatris`: hill climbing on the evaluation weights, as the seed describes.
//!
//! Each round draws a fresh set of games, rates the current weights on them, then tries
//! 11-33 batches of random variants (every weight scaled by up to +-step), each variant rated
//! on its own thread on the same games; a variant that beats the current rating replaces it.
//! The state is saved after every batch, so an interrupted run resumes where it stopped.

use super::eval::{METRICS, Weights};
use super::play::play_one;
use super::rules::Settings;
use super::sim::{load_settings, parse};
use clap::Parser;
use nesmind_host::progress::Progress;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

#[derive(Parser, Debug)]
#[command(about = "Trains the Hatris evaluation weights by hill climbing")]
pub struct TrainArgs {
    /// Rounds to run (each draws new games and tries 11-33 batches of variants).
    #[arg(long, default_value_t = 10)]
    pub rounds: u32,
    /// Games per rating.
    #[arg(long, default_value_t = 16)]
    pub games: u32,
    /// Variants per batch, each rated on its own thread.
    #[arg(long, default_value_t = 2)]
    pub variants: usize,
    /// Largest relative change of a weight in a variant.
    #[arg(long, default_value_t = 0.05)]
    pub step: f32,
    /// Stop each game after this many spawns to bound the time per rating.
    #[arg(long, default_value_t = 5000)]
    pub max_spawns: u64,
    /// Train against the fair generator (no re-pick of matching pairs): shorter games.
    #[arg(long)]
    pub no_skew: bool,
    /// Trainer seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Starting weights: "random", "shipped" or a RON file (ignored when resuming).
    #[arg(long, default_value = "shipped")]
    pub init: String,
    /// State file for resuming; created if missing.
    #[arg(long, default_value = "hatris-train.ron")]
    pub state: String,
    /// Where the best weights are written.
    #[arg(long, default_value = "hatris-weights.ron")]
    pub out: String,
    /// Rule settings file (RON).
    #[arg(long)]
    pub settings: Option<String>,
}

/// What is saved between batches.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TrainState {
    pub weights: Weights,
    /// Rounds completed.
    pub round: u32,
    /// Batches completed in the current round and the round's batch count.
    pub batch: u32,
    pub batches: u32,
    /// Rating of `weights` on the current round's games (mean spawns).
    pub rating: f64,
    pub history: Vec<String>,
}

fn rate(settings: &Settings, w: &Weights, games: &[u64], cap: u64) -> f64 {
    let total: u64 = games
        .iter()
        .map(|&g| play_one(settings, w, g, Some(cap)).spawns)
        .sum();
    total as f64 / games.len() as f64
}

fn variant(w: &Weights, step: f32, rng: &mut StdRng) -> Weights {
    let mut a = w.to_array();
    for x in a.iter_mut() {
        *x *= 1.0 + rng.gen_range(-step..=step);
    }
    Weights {
        third_pair_lines: w.third_pair_lines,
        ..Weights::from_array(a)
    }
}

fn random_weights(rng: &mut StdRng) -> Weights {
    Weights::from_array(std::array::from_fn::<f32, METRICS, _>(|_| {
        rng.gen_range(0.0..1.0)
    }))
}

/// Written whole or not at all: a crash mid-write keeps the previous file.
fn save(path: &str, text: &str) -> Result<(), String> {
    nesmind_host::files::write_atomic(std::path::Path::new(path), text.as_bytes())
}

pub fn run(args: &[String]) -> Result<(), String> {
    let Some(a) = parse::<TrainArgs>("nesmind train hatris", args)? else {
        return Ok(());
    };
    if a.games == 0 || a.variants == 0 || !(a.step > 0.0 && a.step < 1.0) {
        return Err("--games and --variants must be positive and --step in (0, 1)".into());
    }
    let mut settings = load_settings(a.settings.as_deref())?;
    if a.no_skew {
        settings.pair_skew = false;
    }
    let mut state = match nesmind_host::files::read_capped_text(
        std::path::Path::new(&a.state),
        16 << 20,
        "a Hatris training state",
    ) {
        Ok(text) => {
            let s: TrainState =
                ron::from_str(&text).map_err(|e| format!("{}: bad train state: {e}", a.state))?;
            eprintln!(
                "resuming {} at round {} batch {}",
                a.state, s.round, s.batch
            );
            s
        }
        Err(_) => {
            let mut rng = StdRng::seed_from_u64(a.seed);
            let weights = match a.init.as_str() {
                "shipped" => Weights::shipped(),
                "random" => random_weights(&mut rng),
                path => Weights::load(path)?,
            };
            TrainState {
                weights,
                round: 0,
                batch: 0,
                batches: 0,
                rating: -1.0,
                history: Vec::new(),
            }
        }
    };
    while state.round < a.rounds {
        // Everything random in a round derives from (seed, round), so resuming replays it.
        let mut rng = StdRng::seed_from_u64(a.seed ^ (u64::from(state.round) << 32));
        let games: Vec<u64> = (0..a.games).map(|_| rng.r#gen()).collect();
        let batches = rng.gen_range(11..=33);
        if state.batch == 0 || state.batches != batches {
            state.batch = 0;
            state.batches = batches;
            state.rating = rate(&settings, &state.weights, &games, a.max_spawns);
        }
        for _ in 0..state.batch {
            for _ in 0..a.variants {
                variant(&state.weights, a.step, &mut rng);
            }
        }
        let mut progress = Progress::new("batches", Some(u64::from(batches)));
        while state.batch < batches {
            let vs: Vec<Weights> = (0..a.variants)
                .map(|_| variant(&state.weights, a.step, &mut rng))
                .collect();
            let ratings: Vec<f64> = std::thread::scope(|s| {
                let hs: Vec<_> = vs
                    .iter()
                    .map(|v| s.spawn(|| rate(&settings, v, &games, a.max_spawns)))
                    .collect();
                hs.into_iter()
                    .map(|h| h.join().expect("rating thread"))
                    .collect()
            });
            for (v, r) in vs.into_iter().zip(ratings) {
                if r > state.rating {
                    state.rating = r;
                    state.weights = v;
                }
            }
            state.batch += 1;
            let line = format!(
                "round {} batch {} rating {:.1}",
                state.round, state.batch, state.rating
            );
            state.history.push(line.clone());
            save(&a.out, &state.weights.to_ron())?;
            save(
                &a.state,
                &ron::ser::to_string_pretty(&state, Default::default()).expect("state"),
            )?;
            progress.update(u64::from(state.batch), &line);
        }
        progress.finish();
        state.round += 1;
        state.batch = 0;
        save(
            &a.state,
            &ron::ser::to_string_pretty(&state, Default::default()).expect("state"),
        )?;
    }
    println!(
        "weights written to {} (rating {:.1} mean spawns)",
        a.out, state.rating
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_stay_within_step() {
        let mut rng = StdRng::seed_from_u64(3);
        let w = Weights::shipped();
        let v = variant(&w, 0.05, &mut rng);
        for (a, b) in w.to_array().iter().zip(v.to_array()) {
            assert!((b - a).abs() <= a.abs() * 0.05 + 1e-9);
        }
        assert_ne!(v, w);
    }

    #[test]
    fn training_writes_and_resumes() {
        let dir = std::env::temp_dir().join(format!("hatris-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let state = dir.join("s.ron").to_string_lossy().to_string();
        let out = dir.join("w.ron").to_string_lossy().to_string();
        let args = |rounds: &str| -> Vec<String> {
            [
                "--rounds",
                rounds,
                "--games",
                "1",
                "--max-spawns",
                "20",
                "--state",
                &state,
                "--out",
                &out,
            ]
            .iter()
            .map(|s| s.to_string())
            .collect()
        };
        run(&args("1")).unwrap();
        let s: TrainState = ron::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
        assert_eq!(s.round, 1);
        assert!(Weights::load(&out).is_ok());
        run(&args("2")).unwrap();
        let s: TrainState = ron::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
        assert_eq!(s.round, 2);
        assert!(s.history.len() >= 22);
        assert!(
            run(&["--step".into(), "3".into()])
                .unwrap_err()
                .contains("--step")
        );
        // A weights file that cannot be written is an error naming it, with no
        // half-written file or temporary left behind.
        let missing = dir.join("no-such-dir").join("w.ron");
        let mut bad = args("3");
        let at = bad.iter().position(|a| a == "--out").unwrap() + 1;
        bad[at] = missing.to_string_lossy().to_string();
        let err = run(&bad).unwrap_err();
        assert!(err.contains("no-such-dir"), "{err}");
        assert!(!dir.join("no-such-dir").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
