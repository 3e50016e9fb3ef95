//! Setting a board's registers from another emulator's saved ones (`crate::import`).

use super::jaleco_ss88006::Ss88006Import;
use super::mmc1::Mmc1Import;
use super::mmc3::Mmc3Import;
use super::taito_tc0190::TaitoImport;
use super::vrc2_4::Vrc2_4Import;
use super::{BoardKind, Cart};

/// The board's registers, for the boards an import can set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardImport {
    /// Mapper 0: no registers.
    Nrom,
    /// Mapper 1.
    Mmc1(Mmc1Import),
    /// A discrete latch at $8000-$FFFF: the last value it took (after any bus conflict).
    /// What it selects is the cart's wiring: UxROM (mappers 2, 180), CNROM (3), AxROM (7),
    /// GxROM (66), CNROM with copy protection (185). Every value is in range: bank numbers
    /// wrap to the ROM's size.
    Latch(u8),
    /// Mappers 4 and 118.
    Mmc3(Mmc3Import),
    /// Mappers 33 and 48 (Taito TC0190, TC0690).
    Taito(TaitoImport),
    /// Mapper 18 (Jaleco SS88006).
    Ss88006(Ss88006Import),
    /// Mappers 21, 22, 23 and 25 (Konami VRC2 and VRC4).
    Vrc2_4(Vrc2_4Import),
    /// Any other board, set through its own register decoding (see [`RegisterImport`]).
    Registers(RegisterImport),
}

/// The most cycles a [`RegisterImport`] may run a counter: a 16-bit counter's whole range.
pub const MAX_IMPORT_CYCLES: u32 = 0x1_0000;

/// A board's state given as what put it there: CPU writes to its registers, replayed in
/// order through the board's own decoding (so an import sets nothing a game could not),
/// PPU pattern fetches for latches that only the PPU's reads move (MMC2/MMC4's $FD/$FE
/// tiles), and CPU cycles for a counter that only counting moves (NTDEC 2722's); then its
/// IRQ output. Counters that writes can load (the Irem, Sunsoft and FME-7 cycle counters)
/// are set by writes. Writes land with no bus conflict: the replay is not a CPU access.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegisterImport {
    /// The mappers whose register map the writes are for; a ROM of another is refused.
    pub mappers: Vec<u16>,
    /// (CPU address in $4020-$FFFF, value), in the order they are made.
    pub writes: Vec<(u16, u8)>,
    /// PPU addresses (below $2000) the board sees fetched, after the writes.
    pub ppu_fetches: Vec<u16>,
    /// CPU cycles the board's cycle counter then runs (at most [`MAX_IMPORT_CYCLES`]).
    pub cpu_cycles: u32,
    /// The board holds its IRQ line low (an IRQ it raised and the game has not yet
    /// acknowledged).
    pub irq: bool,
}

impl BoardImport {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            BoardImport::Nrom => "NROM (mapper 0)",
            BoardImport::Mmc1(_) => "MMC1 (mapper 1)",
            BoardImport::Latch(_) => "discrete latch (mapper 2, 3, 7, 66, 180 or 185)",
            BoardImport::Mmc3(_) => "MMC3 (mapper 4 or 118)",
            BoardImport::Taito(_) => "Taito TC0190/TC0690 (mapper 33 or 48)",
            BoardImport::Ss88006(_) => "Jaleco SS88006 (mapper 18)",
            BoardImport::Vrc2_4(_) => "Konami VRC2/VRC4 (mapper 21, 22, 23 or 25)",
            BoardImport::Registers(_) => "register-set",
        }
    }
}

impl Cart {
    /// Takes `b`'s registers; false when this cart's board (of mapper `mapper`) is not the
    /// one `b` describes.
    pub(crate) fn import_board(&mut self, b: &BoardImport, mapper: u16) -> bool {
        match (&mut self.board, b) {
            (BoardKind::Nrom(_), BoardImport::Nrom) => true,
            (BoardKind::Mmc1(m), BoardImport::Mmc1(r)) => {
                m.import(&mut self.core, r);
                true
            }
            (BoardKind::Uxrom(b), &BoardImport::Latch(v)) => {
                b.import(&mut self.core, v);
                true
            }
            (BoardKind::Cnrom(_), &BoardImport::Latch(v)) => {
                super::cnrom::Cnrom::import(&mut self.core, v);
                true
            }
            (BoardKind::Axrom(_), &BoardImport::Latch(v)) => {
                super::axrom::Axrom::import(&mut self.core, v);
                true
            }
            (BoardKind::Gxrom(_), &BoardImport::Latch(v)) => {
                super::gxrom::Gxrom::import(&mut self.core, v);
                true
            }
            (BoardKind::CnromProtect(b), &BoardImport::Latch(v)) => {
                b.import(&mut self.core, v);
                true
            }
            (BoardKind::Mmc3(m), BoardImport::Mmc3(r)) => {
                m.import(&mut self.core, r);
                true
            }
            (BoardKind::Tc0190(b), BoardImport::Taito(r)) => {
                b.import(&mut self.core, r);
                true
            }
            (BoardKind::Tc0690(b), BoardImport::Taito(r)) => {
                b.import(&mut self.core, r);
                true
            }
            (BoardKind::Ss88006(b), BoardImport::Ss88006(r)) => {
                b.import(&mut self.core, r);
                true
            }
            (BoardKind::Vrc2_4(v), BoardImport::Vrc2_4(r)) => {
                v.import(&mut self.core, r);
                true
            }
            (_, BoardImport::Registers(r)) if r.mappers.contains(&mapper) => {
                let board = self.board.as_board();
                for &(addr, value) in &r.writes {
                    board.write(&mut self.core, addr, value, 0);
                }
                for &addr in &r.ppu_fetches {
                    board.ppu_bus(&mut self.core, addr, 0);
                }
                if board.counts_cpu_cycles() {
                    for _ in 0..r.cpu_cycles.min(MAX_IMPORT_CYCLES) {
                        board.cpu_cycle(&mut self.core);
                    }
                }
                self.core.irq = r.irq;
                true
            }
            _ => false,
        }
    }
}
