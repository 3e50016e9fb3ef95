//! `cargo bench --bench spot`: perft leaves/s (copy-make and make/unmake) and single-threaded
//! search nodes/s with the full heuristic. Figures are printed, not asserted.

use nesmind::plugins::spot::layouts::parse_fen;
use nesmind::plugins::spot::perft::{perft, perft_unmake};
use std::time::Instant;

fn main() {
    let start = parse_fen("x5o/7/7/7/7/7/o5x x 0 1", 2).expect("valid FEN");
    for (name, run) in [
        ("copy-make", perft as fn(&_, u32) -> u64),
        ("make/unmake", perft_unmake),
    ] {
        let t = Instant::now();
        let leaves = run(&start, 6);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "perft 6 {name:<12} {leaves} leaves {secs:.3} s {:.0} leaves/s",
            leaves as f64 / secs
        );
    }
    if let Err(e) = nesmind::plugins::run_tool("arena", "spot", &["--bench".to_string()]) {
        eprintln!("bench failed: {e}");
        std::process::exit(1);
    }
}
