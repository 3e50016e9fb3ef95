//! Plug-in host costs: `cargo bench --bench host -- [ROM] [FRAMES]`.
//!
//! Prints fps without a plug-in and with one that reads all of RAM every frame (the
//! overhead the host adds), and the time of `fork()` + 60 lookahead frames next to what
//! the core's own speed predicts (the same 60 frames on a clone made outside the timing,
//! plus one clone).

use nesmind::emu::Rom;
use nesmind::host::{Buttons, Frame, Plugin, RomInfo, Session, Setup};
use std::time::Instant;

struct RamReader(u64);
impl Plugin for RamReader {
    fn name(&self) -> &str {
        "ram-reader"
    }
    fn description(&self) -> &str {
        "sums RAM every frame"
    }
    fn on_attach(&mut self, _: &RomInfo, _: &mut dyn Setup) -> Result<(), String> {
        Ok(())
    }
    fn on_frame(&mut self, f: &mut dyn Frame) {
        self.0 = self
            .0
            .wrapping_add(f.ram().iter().map(|&b| u64::from(b)).sum::<u64>());
        f.set_buttons(
            0,
            if f.frame_number() % 120 < 5 {
                Buttons::START
            } else {
                Buttons::NONE
            },
        );
    }
}

fn fps(rom: &Rom, frames: u64, plugin: bool) -> f64 {
    let mut s = Session::new(rom.clone()).unwrap();
    if plugin {
        s.attach(Box::new(RamReader(0)), &[]).unwrap();
    }
    let start = Instant::now();
    for _ in 0..frames {
        if !plugin {
            // Same input as the plug-in gives, so both runs emulate the same game.
            let b = if s.machine().frame_number() % 120 < 5 {
                Buttons::START
            } else {
                Buttons::NONE
            };
            s.set_human_buttons(0, b);
        }
        s.step().unwrap();
    }
    frames as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let args = nesmind::frontend::bench::positional_args();
    let path = match args.first().filter(|p| !p.is_empty()) {
        Some(p) => p.into(),
        None => nesmind::conformance::find_corpus()
            .unwrap()
            .join("homebrew/lawn_mower/lawn_mower.nes"),
    };
    let frames: u64 = args.get(1).and_then(|f| f.parse().ok()).unwrap_or(3000);
    let rom = Rom::load(&path).unwrap();
    // Alternate and keep the best of each: the machine is shared, so noise only slows runs.
    let (mut bare, mut with) = (0f64, 0f64);
    for _ in 0..5 {
        bare = bare.max(fps(&rom, frames, false));
        with = with.max(fps(&rom, frames, true));
    }
    println!("no plug-in        {bare:>9.1} fps");
    println!(
        "RAM-reading plug-in {with:>7.1} fps  overhead {:.2}%",
        (1.0 - with / bare) * 100.0
    );

    // The callback alone, repeated on one frame: what the host adds per frame, free of
    // the emulation noise that dominates the fps comparison on a busy machine.
    let mut view = nesmind::host::Fork::new(nesmind::emu::Machine::new(&rom).as_ref().unwrap());
    let mut reader = RamReader(0);
    let calls = 200_000;
    let start = Instant::now();
    for _ in 0..calls {
        reader.on_frame(&mut view);
    }
    let call_us = start.elapsed().as_secs_f64() * 1e6 / f64::from(calls);
    std::hint::black_box(reader.0);
    println!(
        "callback cost     {call_us:.3} us per frame = {:.3}% of a {:.0} us frame",
        call_us / (1e6 / bare) * 100.0,
        1e6 / bare
    );

    let mut s = Session::new(rom.clone()).unwrap();
    for _ in 0..300 {
        s.step().unwrap();
    }
    let fork_src = nesmind::host::Fork::new(s.machine());
    let n = 200;
    let lookahead = |f: &mut nesmind::host::Fork| {
        f.set_buttons(0, Buttons::RIGHT);
        f.run_frames(60).unwrap();
        std::hint::black_box(f.ram()[0]);
    };
    // The same 60 frames with the clone made outside the timed part: the core's own
    // time for this stretch of the game, which title-screen fps would not predict.
    let mut core = std::time::Duration::ZERO;
    for _ in 0..n {
        let mut f = fork_src.clone();
        let start = Instant::now();
        lookahead(&mut f);
        core += start.elapsed();
    }
    let core_ms = core.as_secs_f64() * 1e3 / f64::from(n);
    let start = Instant::now();
    for _ in 0..n {
        lookahead(&mut fork_src.fork().unwrap());
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / f64::from(n);
    let clone_us = nesmind::frontend::bench::clone_micros(&rom).unwrap();
    let predicted = core_ms + clone_us / 1e3;
    println!(
        "fork + 60 frames  {ms:.2} ms (core predicts {predicted:.2} ms: the same 60 frames take {core_ms:.2} ms on a ready clone, + {clone_us:.1} us clone)"
    );
}
