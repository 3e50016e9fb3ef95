use nesmind::emu::{Machine, Rom};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let rom = Rom::load(std::path::Path::new(&a[1])).unwrap();
    let mut m = Machine::new(&rom).unwrap();
    for f in 0..1200u32 {
        if let Err(e) = m.run_frame() {
            println!("{f}: {e}");
            break;
        }
        if f % 100 == 0 {
            let p = m.picture();
            let mut d: Vec<u16> = p.to_vec();
            d.sort();
            d.dedup();
            println!(
                "frame {f}: {} colours, pc {:04X} mask {:02X}",
                d.len(),
                m.cpu.pc,
                m.bus.ppu.mask
            );
        }
    }
}
