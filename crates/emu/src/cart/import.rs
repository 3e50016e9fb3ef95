//! Setting a board's registers from another emulator's saved ones (`crate::import`).

use super::jaleco_ss88006::Ss88006Import;
use super::mmc1::Mmc1Import;
use super::mmc3::Mmc3Import;
use super::taito_tc0190::TaitoImport;
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
    /// Mappers 33 and 48 (Taito TC0190, TC0690).
    Taito(TaitoImport),
    /// Mapper 18 (Jaleco SS88006).
    Ss88006(Ss88006Import),
}

impl BoardImport {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            BoardImport::Nrom => "NROM (mapper 0)",
            BoardImport::Mmc1(_) => "MMC1 (mapper 1)",
            BoardImport::Latch(_) => "discrete latch (mapper 2, 3, 7, 66 or 180)",
            BoardImport::Mmc3(_) => "MMC3 (mapper 4 or 118)",
            BoardImport::Taito(_) => "Taito TC0190/TC0690 (mapper 33 or 48)",
            BoardImport::Ss88006(_) => "Jaleco SS88006 (mapper 18)",
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
            _ => false,
        }
    }
}
