//! A byte somewhere in the machine, as a RAM map names it (read one with `Memory::at`).

use serde::{Deserialize, Serialize};

/// Which address space a byte is in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Space {
    /// The CPU's: console RAM ($0000-$07FF) and the cartridge's PRG RAM ($6000-$7FFF).
    #[default]
    Cpu,
    /// The PPU's: pattern tables ($0000-$1FFF) and nametables ($2000-$2FFF).
    Ppu,
}

/// A byte somewhere in the machine (written `(addr: 0x0430)` for the CPU's space).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Loc {
    #[serde(default)]
    pub space: Space,
    pub addr: u16,
}

impl Loc {
    pub const fn cpu(addr: u16) -> Loc {
        Loc {
            space: Space::Cpu,
            addr,
        }
    }

    pub const fn ppu(addr: u16) -> Loc {
        Loc {
            space: Space::Ppu,
            addr,
        }
    }

    /// The byte `by` further on, in the same space (wrapping at 64 KiB).
    pub fn offset(self, by: i32) -> Loc {
        Loc {
            space: self.space,
            addr: (self.addr as i32 + by) as u16,
        }
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.space {
            Space::Cpu => write!(f, "${:04X}", self.addr),
            Space::Ppu => write!(f, "PPU ${:04X}", self.addr),
        }
    }
}

/// A CPU address a game's variables can live at: console RAM ($0000-$07FF) or the
/// cartridge's PRG RAM ($6000-$7FFF).
pub fn is_variable(addr: u16) -> bool {
    addr < 0x0800 || (0x6000..0x8000).contains(&addr)
}

/// Checks that `len` bytes from `addr` are all game variables; the error names `what`.
pub fn check_variable(what: &str, addr: u16, len: u16) -> Result<(), String> {
    let end = u32::from(addr) + u32::from(len.max(1)) - 1;
    if is_variable(addr) && end <= 0xFFFF && is_variable(end as u16) {
        Ok(())
    } else {
        Err(format!(
            "{what} ${addr:04X} (+{len}) is outside work RAM ($0000-$07FF) and PRG RAM \
             ($6000-$7FFF)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_live_in_work_ram_or_prg_ram() {
        assert!(check_variable("a", 0x07FF, 1).is_ok());
        assert!(
            check_variable("b", 0x07FE, 4)
                .unwrap_err()
                .contains("b $07FE (+4)")
        );
        assert!(check_variable("c", 0x6000, 0x2000).is_ok());
        assert!(check_variable("d", 0x2000, 1).is_err());
        assert_eq!(Loc::cpu(0x10).offset(-1), Loc::cpu(0x0F));
        assert_eq!(Loc::ppu(0x2000).to_string(), "PPU $2000");
    }
}
