//! Setting a board's registers from another emulator's saved ones (`crate::import`).

use super::{BoardKind, Cart};
use crate::import::BoardImport;

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
            _ => false,
        }
    }
}
