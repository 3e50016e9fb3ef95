//! The NES in parts, from the leaves up: the cartridge image and small shared types
//! (`rom`, `buttons`, `invalid`, `serde_bytes_array`, `ppu_watch`), the chips (`cpu`, `ppu`, `apu`,
//! `cart`, `input`, `watch`), the bus that wires them to the CPU's clock (`bus`), and the
//! console on top (`machine`, with its savestate checks, import from other emulators, trace
//! and host settings). Each file imports only from below it; this file only names them.

pub mod apu;
pub mod bus;
pub mod buttons;
pub mod cart;
pub mod cpu;
pub mod import;
pub mod input;
mod invalid;
pub mod machine;
pub mod ppu;
mod ppu_watch;
pub mod rom;
mod serde_bytes_array;
mod settings;
pub mod speedups;
mod state;
#[cfg(test)]
mod test_rng;
pub mod trace;
pub mod watch;

pub use apu::UnsupportedSampleRate;
pub use buttons::Buttons;
pub use cpu::Cpu;
pub use import::{
    BoardImport, CpuImport, MachineImport, Mmc1Import, Mmc3Import, PpuImport, RegisterImport,
    Ss88006Import, TaitoImport, Vrc2_4Import,
};
pub use invalid::InvalidState;
pub use machine::{Machine, MachineError, PpuPosition};
pub use rom::{Console, Mirroring, Rom, RomError, RomInfo, Timing};
pub use settings::HostSettings;
pub use speedups::Speedups;
pub use watch::{AccessKind, WatchHit, Watches};
