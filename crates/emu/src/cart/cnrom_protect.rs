//! Mapper 185: CNROM whose latch also guards CHR ROM (copy protection, e.g. Mighty Bomb
//! Jack, Seicross, Spy vs Spy). The latch's low bits are compared with a key wired on the
//! board; on a mismatch CHR ROM is disconnected and the PPU reads a floating bus ($FF
//! here). The games check at boot that CHR reads fail, so showing CHR always would hang
//! them. There is one 8 KiB CHR bank; the latch sees bus conflicts as on CNROM.
//!
//! NES 2.0 submappers 4-7 name the key: CHR is on when D1-D0 equal 0, 1, 2 or 3. Submapper 0
//! (old headers) uses the usual guess that covers the known dumps: on unless D3-D0 are 0 or
//! the value is $13.

use super::{Board, CartCore};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct CnromProtect {
    /// The key for submappers 4-7 (0-3); `None` for the guess of submapper 0.
    key: Option<u8>,
}

impl CnromProtect {
    pub fn new(submapper: u8) -> CnromProtect {
        CnromProtect {
            key: (4..=7).contains(&submapper).then(|| submapper - 4),
        }
    }
    fn enabled(&self, value: u8) -> bool {
        match self.key {
            Some(key) => value & 0x03 == key,
            None => value & 0x0F != 0 && value != 0x13,
        }
    }
    /// Shows or cuts CHR as the latch value another emulator saved says (`crate::import`).
    pub(crate) fn import(&self, core: &mut CartCore, latch: u8) {
        self.apply(core, latch);
    }
    fn apply(&self, core: &mut CartCore, value: u8) {
        if self.enabled(value) {
            core.map_chr8(0);
        } else {
            core.map_chr_cut();
        }
    }
}

impl Board for CnromProtect {
    fn cuts_chr(&self) -> bool {
        true
    }
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, _cycle: u64) {
        if addr >= 0x8000 {
            let value = core.latched(addr, value, true);
            self.apply(core, value);
        }
    }
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            self.key.is_none_or(|k| k <= 3),
            "bus.cart.board.key",
            || format!("{:?} is not a two-bit key", self.key),
        )
    }
}
