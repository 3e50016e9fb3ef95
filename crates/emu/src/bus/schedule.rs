//! The bus's scheduling state: when the parts beside the CPU (PPU, APU, DMA, boards) next
//! need a look, and which shortcuts may be taken until then. How it is planned and used is
//! in `clock.rs`.

use crate::ppu::LineShortcut;
use crate::ppu_watch::A12Irq;
use crate::speedups::Speedups;

/// What an A12 board's IRQ prediction is worked out from, besides the PPU's progress.
pub(crate) type A12Inputs = (u32, Option<A12Irq>);

/// The bus's scheduling state: derived from the machine and the host's speed-ups, never
/// saved (a fresh one makes the next cycle look at everything).
#[derive(Clone)]
pub(crate) struct Schedule {
    /// The cycle count at whose end the PPU must be caught up; 0 in lockstep.
    pub(super) ppu_due: u64,
    /// The first cycle whose start needs `attend`; 0 means every cycle.
    pub(super) attention: u64,
    /// Run the PPU on every half cycle instead of catching up on demand (the lazy PPU
    /// switched off).
    pub(crate) lockstep: bool,
    /// Boards with an IRQ clocked by A12 (MMC3): the PPU dot count by which the PPU must
    /// have run, because the IRQ rises on it or the last look ahead ended there, and
    /// whether a CPU access has changed what that was worked out from (`ppu/watched.rs`).
    pub(super) a12_next: u64,
    pub(super) a12_stale: bool,
    /// The shortcuts in use (host configuration, not machine state).
    pub(crate) speedups: Speedups,
    /// How much of a line the PPU may draw at once, from `speedups` and `lockstep`.
    pub(super) lines: LineShortcut,
    /// Wait loops may be fast-forwarded (see `cpu/idle.rs`). Only `Machine::run_frame` sets
    /// it: `Machine::step` runs exactly one instruction, for tracers and debuggers.
    pub(crate) fast_forward: bool,
}

impl Schedule {
    /// Wait loops may be skipped in this run at all (`quiet_until` says how far).
    #[inline(always)]
    pub(crate) fn may_skip(&self) -> bool {
        self.fast_forward && self.speedups.skip_wait_loops && !self.lockstep
    }
}

impl Default for Schedule {
    /// Before `set_speedups` has run (a fresh or deserialised bus): the most careful mode.
    fn default() -> Self {
        Schedule {
            ppu_due: 0,
            attention: 0,
            lockstep: true,
            a12_next: 0,
            a12_stale: true,
            speedups: Speedups::ALL,
            lines: LineShortcut::None,
            fast_forward: false,
        }
    }
}
