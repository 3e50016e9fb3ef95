//! What hangs on the CPU's bus: console RAM, the PPU, the APU, the cartridge and the pads,
//! with the bus's own clock and scheduling state. The behaviour is spread by concern over the
//! files beside this one (`clock.rs`, `access.rs`, `dma.rs`, `mod.rs`).

use super::schedule::Schedule;
use crate::apu::Apu;
use crate::cart::Cart;
use crate::input::Controllers;
use crate::ppu::Ppu;
use crate::watch::Watches;
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct Bus {
    #[serde(with = "crate::serde_bytes_array")]
    pub(crate) ram: [u8; 2048],
    pub(crate) ppu: Ppu,
    pub(crate) apu: Apu,
    pub(crate) cart: Cart,
    pub(crate) input: Controllers,
    /// Last value on the CPU data bus (what unmapped reads return).
    pub(crate) open_bus: u8,
    /// Completed CPU cycles. The master clock is `cycles * CPU_CLOCKS` at a cycle's start
    /// and `+ READ_PHASE` / `+ WRITE_PHASE` at its access.
    pub(crate) cycles: u64,
    /// The master clock the PPU has been run to.
    pub(crate) ppu_master: u64,
    /// When the PPU, APU and DMA next need a look, and the shortcuts in use (`schedule.rs`, `clock.rs`).
    #[serde(skip)]
    pub(crate) clock: Schedule,
    /// Page written to $4014, waiting for the CPU's next read to halt it.
    pub(crate) oam_dma: Option<u8>,
    /// A DMA unit wants to halt the CPU at its next read.
    pub(crate) dma_pending: bool,
    /// The host's watches (not machine state: savestates leave them out).
    #[serde(skip)]
    pub(crate) watching: bool,
    #[serde(skip)]
    pub(crate) watches: Watches,
    /// Moves on whenever the NMI or IRQ line may have changed: the PPU ran or was
    /// accessed, a cycle's start was attended (APU, boards counting cycles, DMA), the APU
    /// or a board register was written. The CPU skips sampling lines that cannot have
    /// moved (`Cpu::poll`). Host data, not machine state.
    #[serde(skip)]
    pub(crate) lines_epoch: u64,
}

impl Bus {
    /// Something that may have moved the NMI or IRQ line happened (see `lines_epoch`).
    #[inline(always)]
    pub(crate) fn lines_moved(&mut self) {
        self.lines_epoch += 1;
    }
}
