//! `cargo bench --bench spot_calibration [SEED...]`: how long the Spot player's calibration
//! takes from power-on on the committed DOTS cart and on variants (seeds 1-5 unless given;
//! built with ca65): the game's frames until the player has calibrated from the picture
//! (the target is 600, 10 s), frames run on forks, the process's CPU time, the longest
//! single frame, and whether RAM calibration had finished by then. Figures are printed,
//! not asserted.

use nesmind::host::PluginOptions;
use nesmind::plugins::spot::demo::{committed_cart, timing, variant};

fn main() {
    let seeds: Vec<u64> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .filter_map(|a| a.parse().ok())
        .collect();
    let seeds = if seeds.is_empty() {
        vec![1, 2, 3, 4, 5]
    } else {
        seeds
    };
    let mut carts = vec![("committed".to_string(), Ok(committed_cart()))];
    for s in seeds {
        carts.push((format!("variant {s}"), variant::build(s)));
    }
    let mut worst = 0;
    for (name, cart) in carts {
        let t = cart.and_then(|c| timing::time_calibration(&c, 3600, &PluginOptions::new()));
        match t {
            Ok(t) => {
                worst = worst.max(t.frames);
                println!(
                    "{name:<18} {:>4} frames ({:.2} s emulated) {:>6} fork frames {:>7} CPU s {:>6.2} s wall, longest frame {:.1} ms, RAM map {}",
                    t.frames,
                    t.frames as f64 / 60.0988,
                    t.fork_frames,
                    t.cpu_seconds.map_or("-".into(), |c| format!("{c:.2}")),
                    t.wall_seconds,
                    t.longest_frame.as_secs_f64() * 1000.0,
                    match &t.calibration {
                        Some(c) if c.confirmed => "confirmed the shipped entry",
                        Some(_) => "found",
                        None => "not yet",
                    }
                );
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                std::process::exit(1);
            }
        }
    }
    println!(
        "worst {worst} frames ({:.2} s emulated)",
        worst as f64 / 60.0988
    );
}
