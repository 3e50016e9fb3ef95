//! `cargo bench --bench hatris -- [GAMES] [SPAWNS]`: how long the Hatris player takes to
//! decide, per spawn, over simulated games with the shipped weights (default 4 games of at
//! most 5,000 spawns, seeds 1..). The plug-in must decide within the frame a pair appears
//! in (16,639 µs), so the tail matters as much as the mean. Wall-clock times on a shared
//! machine only err on the slow side.

use nesmind::plugins::hatris::eval::Weights;
use nesmind::plugins::hatris::game::Game;
use nesmind::plugins::hatris::rules::Settings;
use nesmind::plugins::hatris::search::Searcher;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::time::Instant;

fn main() {
    let args: Vec<u64> = nesmind::frontend::bench::positional_args()
        .iter()
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(4);
    let cap = args.get(1).copied().unwrap_or(5000);
    let weights = Weights::shipped();
    let mut micros: Vec<f64> = Vec::new();
    for seed in 1..=games {
        let mut rand = StdRng::seed_from_u64(seed);
        let mut game = Game::new(Settings::default(), &mut rand);
        let mut searcher = Searcher::new(&weights);
        while !game.over && game.spawns < cap {
            let start = Instant::now();
            let action = searcher.choose(&game);
            micros.push(start.elapsed().as_secs_f64() * 1e6);
            if let Err(e) = game.step_random(action, &mut rand) {
                eprintln!("seed {seed}: {e}");
                std::process::exit(1);
            }
        }
    }
    if micros.is_empty() {
        eprintln!("no decisions were made");
        std::process::exit(1);
    }
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q) as usize];
    let mean = micros.iter().sum::<f64>() / micros.len() as f64;
    println!(
        "{} decisions: mean {mean:.0} us, median {:.0}, p99 {:.0}, p99.9 {:.0}, max {:.0} us (a frame is 16639 us)",
        micros.len(),
        at(0.5),
        at(0.99),
        at(0.999),
        at(1.0)
    );
}
