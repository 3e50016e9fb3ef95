use nesmind::emu::cpu::trace::TraceLine;
use nesmind::emu::{Machine, Rom};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let rom = Rom::load(std::path::Path::new(&a[1])).unwrap();
    let mut m = Machine::new(&rom).unwrap();
    let frames: u32 = a[2].parse().unwrap();
    for _ in 0..frames {
        if let Err(e) = m.run_frame() {
            println!("{e}");
            break;
        }
    }
    let n: usize = a[3].parse().unwrap();
    for _ in 0..n {
        println!("{}", TraceLine::capture(&m.cpu, &m.bus));
        if let Err(e) = m.step() {
            println!("{e}");
            break;
        }
    }
}
