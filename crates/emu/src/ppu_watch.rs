//! The contract between the PPU and a board that watches its address bus. The dot-by-dot
//! path shows such a board every fetch; a line drawn whole shows it only what `PpuWatch`
//! names (`ppu/watched.rs`), and a board whose IRQ counts A12 rises describes its counter
//! (`A12Irq`) so that the scheduler can predict the rise (`bus/clock.rs`). A board that
//! watches the bus in a new way adds its kind here and teaches `ppu/watched.rs` to show it.

/// What a board that watches the PPU bus must be shown of a line the PPU draws whole
/// (`ppu/watched.rs`); the dot-by-dot path shows it every fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PpuWatch {
    /// The board ignores the PPU bus.
    None,
    /// Changes of A12 (MMC3's scanline counter): a fetch that keeps A12's level changes
    /// nothing, and a rise after fewer than `A12Edges::filter` dots low is not counted.
    A12,
    /// Pattern fetches of tiles $FD and $FE (MMC2/MMC4's CHR latches).
    LatchTiles,
}

/// An A12 edge filter (MMC3's M2 filter): a rise counts once A12 has been low `filter`
/// PPU dots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct A12Edges {
    pub high: bool,
    /// Dot count at which A12 last fell.
    pub low_since: u64,
    pub filter: u64,
}

impl A12Edges {
    /// A12 seen at `high` on dot count `dots`: true for a rise that counts.
    #[inline(always)]
    pub fn see(&mut self, high: bool, dots: u64) -> bool {
        let counted = high && !self.high && dots.wrapping_sub(self.low_since) >= self.filter;
        if !high && self.high {
            self.low_since = dots;
        }
        self.high = high;
        counted
    }
}

/// An IRQ counter clocked by A12 rises, as far as predicting it needs: the edge filter and
/// the counted rises until the IRQ line rises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct A12Irq {
    pub edges: A12Edges,
    pub clocks: u32,
    /// Dots from the rise that completes the count to the IRQ line rising (0 on MMC3).
    /// A board with a delay raises the line when the PPU has run past it (`Board::ppu_reached`).
    pub delay: u64,
    /// The count is complete and the line rises once the PPU has run this dot count.
    pub due: Option<u64>,
}
