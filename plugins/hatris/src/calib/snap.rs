//! Snapshots of every memory a game may keep its state in, and the places to look. The
//! CPU's side is the host's RAM search snapshot; the PPU's (pattern tables and nametables,
//! where a game may keep tables it reads back through $2007) is added here.

use crate::ram_map::{Loc, Space};
use nesmind_host::Frame;
use nesmind_host::kit::Memory;
use nesmind_host::ramsearch::{Search, Snapshot, Width};

/// CPU addresses of console RAM and PRG RAM.
const CPU_RANGES: [(u16, u16); 2] = [(0x0000, 0x0800), (0x6000, 0x8000)];
/// PPU addresses of the pattern tables and the four nametables (mirrors included: which
/// of them are distinct depends on the cartridge).
const PPU_RANGES: [(u16, u16); 2] = [(0x0000, 0x2000), (0x2000, 0x3000)];

/// All of console RAM, PRG RAM, pattern tables and nametables at one frame.
#[derive(Clone)]
pub struct Snap {
    cpu: Snapshot,
    ppu: Vec<u8>,
}

impl Snap {
    pub fn take(f: &dyn Frame) -> Snap {
        let ppu = (0..0x3000u16).map(|a| f.peek_ppu(a)).collect();
        Snap {
            cpu: Snapshot::take(f, true),
            ppu,
        }
    }

    /// The CPU side, for RAM searches.
    pub fn cpu(&self) -> &Snapshot {
        &self.cpu
    }

    /// A byte search over the CPU side, every address a candidate.
    pub fn search(&self) -> Search {
        Search::new(self.cpu.clone(), Width::U8)
    }
}

impl Memory for Snap {
    fn byte(&self, addr: u16) -> u8 {
        Memory::byte(&self.cpu, addr)
    }
    fn ppu_byte(&self, addr: u16) -> u8 {
        self.ppu.get(addr as usize).copied().unwrap_or(0)
    }
}

fn cpu_index(addr: u16) -> Option<usize> {
    match addr {
        0x0000..0x0800 => Some(addr as usize),
        0x6000..0x8000 => Some(0x800 + addr as usize - 0x6000),
        _ => None,
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
