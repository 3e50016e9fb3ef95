//! iNES and NES 2.0 images: header decoding, validation and identification.

use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};
use std::fmt;
use std::sync::Arc;

/// How the two nametables are wired when the mapper does not control it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mirroring {
    Horizontal,
    Vertical,
    FourScreen,
    SingleLow,
    SingleHigh,
}

/// The CPU/PPU timing a NES 2.0 header declares (byte 12); iNES 1 images say nothing
/// reliable and count as NTSC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    Ntsc,
    Pal,
    /// Runs on either.
    MultiRegion,
    Dendy,
}

/// The console a NES 2.0 header declares (byte 7, and byte 13 for the extended types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Console {
    Nes,
    VsSystem,
    Playchoice10,
    /// An extended console type (NES 2.0 byte 13, low nibble).
    Extended(u8),
}

/// Why an image could not be loaded. Every variant names the problem for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RomError {
    TooShort(usize),
    BadMagic([u8; 4]),
    NoPrgRom,
    Truncated { expected: usize, actual: usize },
    UnsupportedMapper { mapper: u16, submapper: u8 },
    BadSize(String),
    TooLarge(u64),
}

impl fmt::Display for RomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RomError::TooShort(n) => {
                write!(f, "file is {n} bytes, too short for a 16-byte iNES header")
            }
            RomError::BadMagic(m) => write!(
                f,
                "not an iNES image: header starts {m:02X?}, expected 4E 45 53 1A (\"NES\\x1A\")"
            ),
            RomError::NoPrgRom => write!(f, "header declares zero bytes of PRG ROM"),
            RomError::Truncated { expected, actual } => write!(
                f,
                "file is truncated: the header declares {expected} bytes (header, trainer, PRG, CHR) but the file has {actual}"
            ),
            RomError::UnsupportedMapper { mapper, submapper } => {
                write!(
                    f,
                    "mapper {mapper} (submapper {submapper}) is not supported"
                )
            }
            RomError::BadSize(what) => write!(f, "{what}"),
            RomError::TooLarge(max) => write!(
                f,
                "file is larger than {} MiB, far more than any NES cartridge",
                max >> 20
            ),
        }
    }
}

impl std::error::Error for RomError {}

/// A decoded cartridge image. ROM data sits behind `Arc`s so machines clone cheaply.
#[derive(Clone, Debug)]
pub struct Rom {
    pub mapper: u16,
    pub submapper: u8,
    pub nes2: bool,
    pub mirroring: Mirroring,
    pub battery: bool,
    pub trainer: Option<Arc<[u8]>>,
    pub prg_rom: Arc<[u8]>,
    pub chr_rom: Arc<[u8]>,
    /// CHR RAM size in bytes (0 when the board has CHR ROM).
    pub chr_ram_size: usize,
    /// Volatile plus battery-backed PRG RAM in bytes, as the header declares (iNES 1: unknown = 0).
    pub prg_ram_size: usize,
    pub prg_nvram_size: usize,
    pub timing: Timing,
    pub console: Console,
    pub info: RomInfo,
}

/// Identity of the loaded cartridge, given to `on_attach`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RomInfo {
    /// CRC32 of PRG + CHR data (header and trainer excluded), the figure cartridge databases use.
    pub crc32: u32,
    /// CRC32 of the PRG ROM alone (NesCartDB's "PRG CRC32").
    pub prg_crc32: u32,
    /// SHA-1 of PRG + CHR data.
    pub sha1: [u8; 20],
    pub mapper: u16,
    pub submapper: u8,
    /// File name the ROM was loaded from (for messages only).
    pub file_name: String,
}

impl Timing {
    pub fn name(self) -> &'static str {
        match self {
            Timing::Ntsc => "NTSC",
            Timing::Pal => "PAL",
            Timing::MultiRegion => "multi-region (NTSC and PAL)",
            Timing::Dendy => "Dendy",
        }
    }
}

impl Console {
    pub fn name(self) -> String {
        match self {
            Console::Nes => "NES/Famicom".into(),
            Console::VsSystem => "Vs. System".into(),
            Console::Playchoice10 => "PlayChoice-10".into(),
            Console::Extended(n) => format!("extended console type {n}"),
        }
    }
}

impl RomInfo {
    /// Hex SHA-1, upper case, as cartridge databases print it.
    pub fn sha1_hex(&self) -> String {
        self.sha1.iter().map(|b| format!("{b:02X}")).collect()
    }
    /// True when either CRC32 equals `crc`.
    pub fn matches_crc(&self, crc: u32) -> bool {
        self.crc32 == crc || self.prg_crc32 == crc
    }
}

const HEADER: usize = 16;
/// The largest file `Rom::load` reads: far above any real cartridge (NES 2.0 boards top
/// out at a few MiB), small enough to refuse a device or a stray disk image quickly.
pub const MAX_FILE: u64 = 64 << 20;
const TRAINER: usize = 512;

/// NES 2.0 RAM size fields are shift counts: 0 = none, else 64 << n bytes.
fn shift_size(n: u8) -> usize {
    if n == 0 { 0 } else { 64usize << n }
}

/// NES 2.0 ROM sizes: an MSB nibble of $F selects the exponent-multiplier form.
fn nes2_rom_size(lsb: u8, msb: u8, unit: usize) -> Result<usize, RomError> {
    if msb == 0xF {
        let exp = u32::from(lsb >> 2);
        let mul = usize::from(lsb & 3) * 2 + 1;
        if exp > 30 {
            return Err(RomError::BadSize(format!(
                "NES 2.0 exponent size 2^{exp} is absurdly large"
            )));
        }
        Ok((1usize << exp) * mul)
    } else {
        Ok((usize::from(msb) << 8 | usize::from(lsb)) * unit)
    }
}

impl Rom {
    /// Decodes an image; `file_name` is only used in messages and `RomInfo`. Whether a board
    /// runs it is the cartridge's question (`cart::check_supported`, `Machine::new`).
    pub fn parse(data: &[u8], file_name: &str) -> Result<Rom, RomError> {
        if data.len() < HEADER {
            return Err(RomError::TooShort(data.len()));
        }
        let h = &data[..HEADER];
        if &h[0..4] != b"NES\x1A" {
            return Err(RomError::BadMagic([h[0], h[1], h[2], h[3]]));
        }
        let nes2 = h[7] & 0x0C == 0x08;
        let mut mapper = u16::from(h[6] >> 4) | u16::from(h[7] & 0xF0);
        let mut submapper = 0;
        let (prg_size, chr_size, prg_ram_size, prg_nvram_size, chr_ram_size);
        if nes2 {
            mapper |= u16::from(h[8] & 0x0F) << 8;
            submapper = h[8] >> 4;
            prg_size = nes2_rom_size(h[4], h[9] & 0x0F, 16 * 1024)?;
            chr_size = nes2_rom_size(h[5], h[9] >> 4, 8 * 1024)?;
            prg_ram_size = shift_size(h[10] & 0x0F);
            prg_nvram_size = shift_size(h[10] >> 4);
            chr_ram_size = shift_size(h[11] & 0x0F) + shift_size(h[11] >> 4);
        } else {
            // Bytes 7-15 of old dumps often carry garbage ("DiskDude!"): then ignore the upper nibble.
            if h[12..16].iter().any(|&b| b != 0) && h[7] & 0x0C != 0 {
                mapper &= 0x0F;
            }
            prg_size = usize::from(h[4]) * 16 * 1024;
            chr_size = usize::from(h[5]) * 8 * 1024;
            prg_ram_size = if h[8] == 0 {
                8 * 1024
            } else {
                usize::from(h[8]) * 8 * 1024
            };
            prg_nvram_size = 0;
            chr_ram_size = if chr_size == 0 { 8 * 1024 } else { 0 };
        }
        if prg_size == 0 {
            return Err(RomError::NoPrgRom);
        }
        if prg_size % 0x2000 != 0 {
            return Err(RomError::BadSize(format!(
                "PRG ROM size {prg_size} is not a whole number of 8 KiB banks"
            )));
        }
        if chr_size % 0x400 != 0 {
            return Err(RomError::BadSize(format!(
                "CHR ROM size {chr_size} is not a whole number of 1 KiB banks"
            )));
        }
        let (timing, console) = if nes2 {
            let timing = match h[12] & 3 {
                0 => Timing::Ntsc,
                1 => Timing::Pal,
                2 => Timing::MultiRegion,
                _ => Timing::Dendy,
            };
            let console = match h[7] & 3 {
                0 => Console::Nes,
                1 => Console::VsSystem,
                2 => Console::Playchoice10,
                _ => Console::Extended(h[13] & 0x0F),
            };
            (timing, console)
        } else {
            (Timing::Ntsc, Console::Nes)
        };
        let has_trainer = h[6] & 0x04 != 0;
        let prg_start = HEADER + if has_trainer { TRAINER } else { 0 };
        let expected = prg_start + prg_size + chr_size;
        if data.len() < expected {
            return Err(RomError::Truncated {
                expected,
                actual: data.len(),
            });
        }
        let mirroring = if h[6] & 0x08 != 0 {
            Mirroring::FourScreen
        } else if h[6] & 0x01 != 0 {
            Mirroring::Vertical
        } else {
            Mirroring::Horizontal
        };
        let prg = &data[prg_start..prg_start + prg_size];
        let chr = &data[prg_start + prg_size..expected];
        let body = &data[prg_start..expected];
        let info = RomInfo {
            crc32: crc32fast::hash(body),
            prg_crc32: crc32fast::hash(prg),
            sha1: Sha1::digest(body).into(),
            mapper,
            submapper,
            file_name: file_name.to_string(),
        };
        let rom = Rom {
            mapper,
            submapper,
            nes2,
            mirroring,
            battery: h[6] & 0x02 != 0,
            trainer: has_trainer.then(|| Arc::from(&data[HEADER..HEADER + TRAINER])),
            prg_rom: Arc::from(prg),
            chr_rom: Arc::from(chr),
            chr_ram_size,
            prg_ram_size,
            prg_nvram_size,
            timing,
            console,
            info,
        };
        Ok(rom)
    }

    /// Reads and decodes a file; I/O errors name the path. The header is read first and
    /// the size is capped, so a device or a huge file (`/dev/zero`) is refused at once
    /// instead of being read forever.
    pub fn load(path: &std::path::Path) -> Result<Rom, String> {
        use std::io::Read;
        let cannot_load =
            |e: &dyn fmt::Display| format!("cannot load ROM '{}': {e}", path.display());
        let cannot_read = |e: std::io::Error| format!("cannot read ROM '{}': {e}", path.display());
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut file = std::fs::File::open(path).map_err(cannot_read)?;
        let mut data = Vec::new();
        (&mut file)
            .take(HEADER as u64)
            .read_to_end(&mut data)
            .map_err(cannot_read)?;
        if data.len() < HEADER {
            return Err(cannot_load(&RomError::TooShort(data.len())));
        }
        if &data[0..4] != b"NES\x1A" {
            return Err(cannot_load(&RomError::BadMagic([
                data[0], data[1], data[2], data[3],
            ])));
        }
        file.take(MAX_FILE + 1 - HEADER as u64)
            .read_to_end(&mut data)
            .map_err(cannot_read)?;
        if data.len() as u64 > MAX_FILE {
            return Err(cannot_load(&RomError::TooLarge(MAX_FILE)));
        }
        Rom::parse(&data, &name).map_err(|e| cannot_load(&e))
    }

    /// What a user must be told before this cartridge runs as an NTSC NES, the only machine
    /// nesmind emulates; `None` when that is what the header asks for.
    pub fn machine_warning(&self) -> Option<String> {
        let timing = match self.timing {
            Timing::Pal => Some("PAL"),
            Timing::Dendy => Some("Dendy"),
            Timing::Ntsc | Timing::MultiRegion => None,
        };
        // Each with its article: "for the Vs. System", "for a PAL console".
        let console = match self.console {
            Console::Nes => None,
            Console::Extended(n) => Some(format!("an extended console (type {n})")),
            c => Some(format!("the {}", c.name())),
        };
        let what = match (timing, console) {
            (None, None) => return None,
            (Some(t), None) => format!("a {t} console"),
            (None, Some(c)) => c,
            (Some(t), Some(c)) => format!("{c} with {t} timing"),
        };
        Some(format!(
            "the header says this cartridge is for {what}; nesmind runs it as an NTSC NES, so \
             it may run at the wrong speed or not at all"
        ))
    }

    /// Total PRG RAM (volatile + battery) the board should get.
    pub fn total_prg_ram(&self) -> usize {
        self.prg_ram_size + self.prg_nvram_size
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn image(prg_banks: u8, chr_banks: u8, flags6: u8, flags7: u8) -> Vec<u8> {
        let mut v = vec![
            b'N', b'E', b'S', 0x1A, prg_banks, chr_banks, flags6, flags7, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        v.resize(
            16 + usize::from(prg_banks) * 16384 + usize::from(chr_banks) * 8192,
            0xEA,
        );
        v
    }

    #[test]
    fn decodes_ines_header() {
        let rom = Rom::parse(&image(2, 1, 0x11, 0x00), "x.nes").unwrap();
        assert_eq!(rom.mapper, 1);
        assert_eq!(rom.mirroring, Mirroring::Vertical);
        assert_eq!(rom.prg_rom.len(), 32768);
        assert_eq!(rom.chr_rom.len(), 8192);
        assert_eq!(rom.chr_ram_size, 0);
        assert!(!rom.nes2);
    }

    #[test]
    fn decodes_nes2_submapper_and_ram() {
        let mut img = image(2, 0, 0x02, 0x08);
        img[8] = 0x30; // submapper 3, mapper high nibble 0
        img[10] = 0x70; // 8 KiB battery RAM
        img[11] = 0x07; // 8 KiB CHR RAM
        let rom = Rom::parse(&img, "x.nes").unwrap();
        assert!(rom.nes2 && rom.battery);
        assert_eq!(
            (rom.submapper, rom.prg_nvram_size, rom.chr_ram_size),
            (3, 8192, 8192)
        );
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(Rom::parse(b"NES", "x").unwrap_err(), RomError::TooShort(3));
        assert!(matches!(
            Rom::parse(&[0u8; 32], "x"),
            Err(RomError::BadMagic(_))
        ));
        assert_eq!(
            Rom::parse(&image(0, 1, 0, 0), "x").unwrap_err(),
            RomError::NoPrgRom
        );
        let mut short = image(2, 1, 0, 0);
        short.truncate(1000);
        assert!(
            Rom::parse(&short, "x")
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
    }

    /// Decoding does not ask for a board: `nesmind info` and the stable-retro importer
    /// read ROMs no board runs (the machine refuses them; see `cart::tests`).
    #[test]
    fn a_mapper_without_a_board_still_decodes() {
        let rom = Rom::parse(&image(1, 1, 0xF0, 0xF0), "x").unwrap();
        assert_eq!(rom.mapper, 255);
    }

    #[test]
    fn nes2_timing_and_console_are_read_and_warned_about() {
        let mut img = image(1, 1, 0, 0x08);
        let rom = Rom::parse(&img, "x").unwrap();
        assert_eq!((rom.timing, rom.console), (Timing::Ntsc, Console::Nes));
        assert_eq!(rom.machine_warning(), None);
        img[12] = 1;
        let rom = Rom::parse(&img, "x").unwrap();
        assert_eq!(rom.timing, Timing::Pal);
        let is_for = |rom: &Rom| {
            let w = rom.machine_warning().unwrap();
            assert!(w.ends_with("as an NTSC NES, so it may run at the wrong speed or not at all"));
            w.split(';').next().unwrap().to_string()
        };
        assert_eq!(
            is_for(&rom),
            "the header says this cartridge is for a PAL console"
        );
        img[12] = 3;
        img[7] |= 1;
        let rom = Rom::parse(&img, "x").unwrap();
        assert_eq!(
            is_for(&rom),
            "the header says this cartridge is for the Vs. System with Dendy timing"
        );
        img[7] |= 3;
        img[13] = 4;
        img[12] = 2;
        let rom = Rom::parse(&img, "x").unwrap();
        assert_eq!(
            (rom.timing, rom.console),
            (Timing::MultiRegion, Console::Extended(4))
        );
        assert_eq!(
            is_for(&rom),
            "the header says this cartridge is for an extended console (type 4)"
        );
        img[12] = 3;
        assert!(is_for(&Rom::parse(&img, "x").unwrap()).ends_with("(type 4) with Dendy timing"));
        // The same bytes in an iNES 1 header mean nothing.
        let old = image(1, 1, 0, 0);
        assert_eq!(Rom::parse(&old, "x").unwrap().machine_warning(), None);
    }
}
