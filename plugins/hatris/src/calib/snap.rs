//! Snapshots of every memory a game may keep its state in, and the places to look.

use crate::ram_map::{Loc, Space};
use nesmind_host::Frame;

/// CPU addresses of console RAM and PRG RAM.
const CPU_RANGES: [(u16, u16); 2] = [(0x0000, 0x0800), (0x6000, 0x8000)];
/// PPU addresses of the pattern tables and the four nametables (mirrors included: which
/// of them are distinct depends on the cartridge).
const PPU_RANGES: [(u16, u16); 2] = [(0x0000, 0x2000), (0x2000, 0x3000)];

/// All of console RAM, PRG RAM, pattern tables and nametables at one frame.
#[derive(Clone)]
pub struct Snap {
    cpu: Vec<u8>,
    ppu: Vec<u8>,
}

fn cpu_index(addr: u16) -> Option<usize> {
    match addr {
        0x0000..0x0800 => Some(addr as usize),
        0x6000..0x8000 => Some(0x800 + addr as usize - 0x6000),
        _ => None,
    }
}

impl Snap {
    pub fn take(f: &dyn Frame) -> Snap {
        let mut cpu = Vec::with_capacity(0x2800);
        cpu.extend_from_slice(&f.ram()[..0x800.min(f.ram().len())]);
        cpu.resize(0x800, 0);
        cpu.extend((0x6000..0x8000u16).map(|a| f.peek(a)));
        let ppu = (0..0x3000u16).map(|a| f.peek_ppu(a)).collect();
        Snap { cpu, ppu }
    }

    pub fn get(&self, loc: Loc) -> u8 {
        match loc.space {
            Space::Cpu => cpu_index(loc.addr).map_or(0, |i| self.cpu[i]),
            Space::Ppu => self.ppu.get(loc.addr as usize).copied().unwrap_or(0),
        }
    }
}

/// Every place a game variable may be (CPU RAM and PRG RAM).
pub fn cpu_locs() -> impl Iterator<Item = Loc> {
    CPU_RANGES
        .into_iter()
        .flat_map(|(a, b)| (a..b).map(Loc::cpu))
}

/// Every place a table may be: CPU RAM, PRG RAM, pattern tables and nametables.
pub fn all_locs() -> impl Iterator<Item = Loc> {
    cpu_locs().chain(PPU_RANGES.into_iter().flat_map(|(a, b)| {
        (a..b).map(|addr| Loc {
            space: Space::Ppu,
            addr,
        })
    }))
}

/// Whether `loc` is a place [`Snap`] holds.
pub fn valid(loc: Loc) -> bool {
    match loc.space {
        Space::Cpu => cpu_index(loc.addr).is_some(),
        Space::Ppu => loc.addr < 0x3000,
    }
}
