//! Headless speed with audio synthesis on and off:
//! `cargo bench --bench audio -- [ROM] [FRAMES]`
//! (default ROM: cpu_timing_test6 from the test-ROM corpus, 3000 frames).

use nesmind::emu::{Machine, Rom};
use std::time::Instant;

fn main() {
    let args = nesmind::frontend::bench::positional_args();
    let path = match args.first().filter(|p| !p.is_empty()) {
        Some(p) => std::path::PathBuf::from(p),
        None => match nesmind::conformance::find_corpus() {
            Ok(corpus) => corpus.join("blargg/cpu_timing_test6/cpu_timing_test.nes"),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        },
    };
    let frames: u32 = match args.get(1).map(|s| s.parse()) {
        None => 3000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("FRAMES must be a number: {e}");
            std::process::exit(2);
        }
    };
    let rom = match Rom::load(&path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    // Alternate the two modes so both see the same machine load.
    let mut best = [f64::MAX; 2];
    for _round in 0..3 {
        for (i, audio) in [false, true].into_iter().enumerate() {
            let mut m = Machine::new(&rom).expect("supported board");
            m.set_audio_enabled(audio);
            let mut samples = Vec::new();
            let t = Instant::now();
            for _ in 0..frames {
                let _ = m.run_frame();
                samples.clear();
                m.take_audio(&mut samples);
            }
            best[i] = best[i].min(t.elapsed().as_secs_f64());
        }
    }
    let fps = |s: f64| f64::from(frames) / s;
    println!("audio off: {:.0} fps", fps(best[0]));
    println!("audio on:  {:.0} fps", fps(best[1]));
    println!("audio cost: {:.1}%", (1.0 - best[0] / best[1]) * 100.0);
}
