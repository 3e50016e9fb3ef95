//! Runs N frames of a ROM headless (for callgrind instruction counts).
use nesmind::emu::{Machine, Rom};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let rom = Rom::load(std::path::Path::new(&a[1])).unwrap();
    let mut m = Machine::new(&rom).unwrap();
    let n: u32 = a[2].parse().unwrap();
    for _ in 0..n {
        let _ = m.run_frame();
    }
    println!("{}", m.cpu_cycles());
}
