//! Setting a board's registers from another emulator's saved ones (`crate::import`).

use super::mmc1::Mmc1Import;
use super::mmc3::Mmc3Import;
use super::vrc2_4::Vrc2_4Import;
use super::{BoardKind, Cart};

/// The board's registers, for the boards an import can set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardImport {
    /// Mapper 0: no registers.
    Nrom,
    /// Mapper 1.
    Mmc1(Mmc1Import),
    /// A discrete latch at $8000-$FFFF: the last value it took (after any bus conflict).
    /// What it selects is the cart's wiring: UxROM (mappers 2, 180), CNROM (3), AxROM (7),
    /// GxROM (66). Every value is in range: bank numbers wrap to the ROM's size.
    Latch(u8),
    /// Mappers 4 and 118.
    Mmc3(Mmc3Import),
    /// Mappers 21, 22, 23 and 25 (Konami VRC2 and VRC4).
    Vrc2_4(Vrc2_4Import),
}

impl BoardImport {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            BoardImport::Nrom => "NROM (mapper 0)",
            BoardImport::Mmc1(_) => "MMC1 (mapper 1)",
            BoardImport::Latch(_) => "discrete latch (mapper 2, 3, 7, 66 or 180)",
            BoardImport::Mmc3(_) => "MMC3 (mapper 4 or 118)",
            BoardImport::Vrc2_4(_) => "Konami VRC2/VRC4 (mapper 21, 22, 23 or 25)",
        }
    }
}

impl Cart {
    /// Takes `b`'s registers; false when this cart's board is not the one `b` describes.
    pub(crate) fn import_board(&mut self, b: &BoardImport) -> bool {
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
            (BoardKind::Mmc3(m), BoardImport::Mmc3(r)) => {
                m.import(&mut self.core, r);
                true
            }
            (BoardKind::Vrc2_4(v), BoardImport::Vrc2_4(r)) => {
                v.import(&mut self.core, r);
                true
            }
            _ => false,
        }
    }
}
