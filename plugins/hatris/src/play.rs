//! Playing whole simulated games with the search AI.

use super::eval::Weights;
use super::game::Game;
use super::rules::Settings;
use super::search::Searcher;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How one simulated game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunResult {
    /// Pairs spawned until the game ended (or until the cap).
    pub spawns: u64,
    /// Spawns at which the 60th level was completed.
    pub finished_at: Option<u64>,
    /// True when the run stopped at the spawn cap instead of at game over.
    pub capped: bool,
    pub cash: u64,
    pub level: u32,
}

/// Plays one game from `seed` (menu time and frame gaps) until it ends or reaches `cap` spawns.
pub fn play_one(settings: &Settings, weights: &Weights, seed: u64, cap: Option<u64>) -> RunResult {
    let mut rand = StdRng::seed_from_u64(seed);
    let mut game = Game::new(settings.clone(), &mut rand);
    let mut searcher = Searcher::new(weights);
    let mut capped = false;
    while !game.over {
        if cap.is_some_and(|c| game.spawns >= c) {
            capped = true;
            break;
        }
        let action = searcher.choose(&game);
        game.step_random(action, &mut rand)
            .expect("the searcher only returns legal actions");
    }
    RunResult {
        spawns: game.spawns,
        finished_at: game.finished_at,
        capped,
        cash: game.cash,
        level: game.level,
    }
}

/// Plays runs `seed .. seed + runs` on `threads` threads; `progress` is called after each run
/// with the number finished so far, the run's index and its result.
pub fn play_many(
    settings: &Settings,
    weights: &Weights,
    seed: u64,
    runs: usize,
    cap: Option<u64>,
    threads: usize,
    progress: &(dyn Fn(usize, usize, &RunResult) + Sync),
) -> Vec<RunResult> {
    let job = |i: usize| play_one(settings, weights, seed.wrapping_add(i as u64), cap);
    run_parallel(runs, threads, &job, progress)
}

/// Runs `job(0) .. job(runs - 1)` on `threads` threads and returns the results in index
/// order; `progress` is called after each job with the number finished, its index and result.
pub fn run_parallel<T: Send>(
    runs: usize,
    threads: usize,
    job: &(dyn Fn(usize) -> T + Sync),
    progress: &(dyn Fn(usize, usize, &T) + Sync),
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let chunks: Vec<Vec<(usize, T)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= runs {
                            break;
                        }
                        let r = job(i);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, i, &r);
                        mine.push((i, r));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker thread"))
            .collect()
    });
    let mut all: Vec<(usize, T)> = chunks.into_iter().flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_reproducible_and_thread_independent() {
        let s = Settings::default();
        let w = Weights::shipped();
        let one = play_many(&s, &w, 7, 3, Some(150), 1, &|_, _, _| {});
        let two = play_many(&s, &w, 7, 3, Some(150), 2, &|_, _, _| {});
        assert_eq!(one, two);
        assert!(one.iter().all(|r| r.spawns > 0 && r.spawns <= 150));
    }

    #[test]
    fn reading_b_games_play_legally() {
        let s = Settings {
            nest_reading: super::super::rules::NestReading::B,
            ..Settings::default()
        };
        // play_one panics on an illegal action, so finishing is the check.
        let r = play_one(&s, &Weights::shipped(), 3, Some(300));
        assert!(r.spawns > 50, "{r:?}");
    }
}
