use nesmind::emu::{Machine, Rom};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let rom = Rom::load(std::path::Path::new(&a[1])).unwrap();
    let mut m = Machine::new(&rom).unwrap();
    let frames: u32 = a.get(2).map(|s| s.parse().unwrap()).unwrap_or(180);
    for _ in 0..frames {
        let _ = m.run_frame();
    }
    for l in nesmind::conformance::screen_text(&m) {
        if !l.trim().is_empty() {
            println!("{l}");
        }
    }
}
