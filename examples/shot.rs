use nesmind::emu::{Machine, Rom};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let rom = Rom::load(std::path::Path::new(&a[1])).unwrap();
    let mut m = Machine::new(&rom).unwrap();
    let n: u32 = a[2].parse().unwrap();
    for f in 0..n {
        if f > 60 && f < 70 {
            m.set_buttons(0, nesmind::host::Buttons::START)
        } else {
            m.set_buttons(0, Default::default())
        }
        let _ = m.run_frame();
    }
    nesmind::frontend::png::save_picture(std::path::Path::new(&a[3]), m.picture()).unwrap();
}
