//! Savestate files and the machine state hash.
//!
//! File format (text):
//! ```text
//! nesmind-savestate 5
//! rom-crc32 1A2B3C4D
//! body-crc32 5E6F7081 len 123456
//! <the machine as RON>
//! ```
//! The header ties the state to the ROM (CRC32 of PRG + CHR) and lets a truncated or
//! damaged body be refused before it is parsed. The body holds machine state only: no ROM
//! data, no picture (a loaded machine shows its next frame), no sound output or host
//! settings, no plug-in watches (the session installs its own).
//!
//! Versions read: 5; 4 (see `upgrade::v4`); 3 (which may lack three fields added later, see
//! `upgrade::v3`); and 2
//! (which also stored the picture, the watches and the sound output; those parts are
//! skipped). Every version's loader is tested on files of that version kept in
//! `tests/savestates/`.

mod upgrade;

use crate::files::write_atomic;
use nesmind_emu::{InvalidState, Machine, Rom};
use std::fmt;
use std::path::{Path, PathBuf};

pub const MAGIC: &str = "nesmind-savestate";
/// 5: the PPU's rendering enable in three stages, its pending OAM corruption and attribute
/// feed, and the DMC's sample-end delay (see `upgrade::v4`).
/// 4: every field present (the controllers' latched strobe, the APU's pending frame-IRQ
/// clear and the DMC's disable delay).
/// 3: without the picture, the watches and the sound output (`recent` always present).
/// 2: the APU runs lazily and records how far (`cycle`, `next_event`, `synth_cycle`).
pub const VERSION: u32 = 5;
/// The oldest version this build reads.
pub const OLDEST: u32 = 2;
/// The largest savestate file read: the RON text of the most RAM a NES 2.0 header can
/// declare (2 MiB each of PRG RAM, PRG NVRAM and CHR RAM, up to 4 characters a byte) with
/// room to spare; 50-250 KiB is usual.
pub const MAX_FILE: u64 = 32 << 20;

/// Why a savestate was not saved or loaded.
#[derive(Debug)]
pub enum StateError {
    /// The file could not be read or written (the message names the path).
    Io(String),
    /// Not text, or no `nesmind-savestate` header.
    NotAState,
    Version(String),
    /// Saved from another ROM (CRC32 of PRG + CHR).
    OtherRom {
        state: u32,
        rom: u32,
        file: String,
    },
    /// A damaged header line, named.
    Header(&'static str),
    Length {
        body: usize,
        header: usize,
    },
    Checksum,
    /// The body is not a machine (RON syntax or structure).
    Body(String),
    /// The body is a machine that does not fit the ROM: a field is out of range.
    Invalid(InvalidState),
    /// The machine could not be written as RON (a bug in a Serialize impl).
    Encode(String),
    /// Anything above, with the file it came from.
    In {
        path: PathBuf,
        error: Box<StateError>,
    },
}

impl StateError {
    /// The error without the file it came from.
    pub fn kind(&self) -> &StateError {
        match self {
            StateError::In { error, .. } => error.kind(),
            e => e,
        }
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Io(m) => f.write_str(m),
            StateError::NotAState => {
                write!(f, "not a nesmind savestate (missing the '{MAGIC}' header)")
            }
            StateError::Version(v) => write!(
                f,
                "savestate version {v} is not supported (this build reads versions {OLDEST}-{VERSION})"
            ),
            StateError::OtherRom { state, rom, file } => write!(
                f,
                "savestate belongs to another ROM (CRC32 {state:08X}; '{file}' is {rom:08X})"
            ),
            StateError::Header(line) => write!(f, "damaged savestate header (bad {line} line)"),
            StateError::Length { body, header } => write!(
                f,
                "savestate is truncated or padded: body is {body} bytes, header says {header}"
            ),
            StateError::Checksum => {
                f.write_str("savestate is corrupt: body checksum does not match")
            }
            StateError::Body(e) => write!(f, "savestate body is not a machine: {e}"),
            StateError::Invalid(e) => write!(f, "savestate does not fit the ROM: {e}"),
            StateError::Encode(e) => write!(f, "cannot serialise the machine: {e}"),
            StateError::In { path, error } => {
                write!(f, "cannot load savestate '{}': {error}", path.display())
            }
        }
    }
}

impl std::error::Error for StateError {}

impl From<StateError> for String {
    fn from(e: StateError) -> String {
        e.to_string()
    }
}

/// The machine as a file of the current version.
pub fn encode(machine: &Machine, rom: &Rom) -> Result<String, StateError> {
    let body = ron::to_string(machine).map_err(|e| StateError::Encode(e.to_string()))?;
    Ok(format!(
        "{MAGIC} {VERSION}\nrom-crc32 {:08X}\nbody-crc32 {:08X} len {}\n{body}",
        rom.info.crc32,
        crc32fast::hash(body.as_bytes()),
        body.len()
    ))
}

/// A state file (as `encode` writes it) on one line, for a replay's `load` record: its
/// version, body CRC32, length and body (the ROM's CRC is the replay's own). `None` for
/// text that is not a state file.
pub fn one_line(text: &str) -> Option<String> {
    let mut lines = text.splitn(4, '\n');
    let version = lines.next()?.strip_prefix(MAGIC)?.trim();
    let (crc, len) = lines
        .nth(1)?
        .strip_prefix("body-crc32 ")?
        .split_once(" len ")?;
    Some(format!("{version} {crc} {len} {}", lines.next()?))
}

/// The state file `one_line` made `line` from, for `rom` (unchecked: `decode` checks it).
pub fn from_one_line(line: &str, rom: &Rom) -> Option<String> {
    let mut parts = line.splitn(4, ' ');
    let (v, crc, len, body) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    Some(format!(
        "{MAGIC} {v}\nrom-crc32 {:08X}\nbody-crc32 {crc} len {len}\n{body}",
        rom.info.crc32
    ))
}

pub fn save(path: &Path, machine: &Machine, rom: &Rom) -> Result<(), StateError> {
    write_atomic(path, encode(machine, rom)?.as_bytes()).map_err(StateError::Io)
}

/// Checks the header, parses the body of any readable version and checks the machine
/// against `rom`; every refusal says what is wrong.
pub fn decode(text: &str, rom: &Rom) -> Result<Machine, StateError> {
    let mut lines = text.splitn(4, '\n');
    let version = lines
        .next()
        .and_then(|l| l.strip_prefix(MAGIC))
        .map(str::trim)
        .ok_or(StateError::NotAState)?;
    let version = match version.parse::<u32>() {
        Ok(v) if (OLDEST..=VERSION).contains(&v) => v,
        _ => return Err(StateError::Version(version.chars().take(20).collect())),
    };
    let crc = lines
        .next()
        .and_then(|l| l.strip_prefix("rom-crc32 "))
        .and_then(|h| u32::from_str_radix(h.trim(), 16).ok())
        .ok_or(StateError::Header("rom-crc32"))?;
    if crc != rom.info.crc32 {
        return Err(StateError::OtherRom {
            state: crc,
            rom: rom.info.crc32,
            file: rom.info.file_name.clone(),
        });
    }
    let (want_crc, want_len) = lines
        .next()
        .and_then(|l| l.strip_prefix("body-crc32 "))
        .and_then(|r| r.split_once(" len "))
        .and_then(|(c, l)| {
            Some((
                u32::from_str_radix(c, 16).ok()?,
                l.trim().parse::<usize>().ok()?,
            ))
        })
        .ok_or(StateError::Header("body-crc32"))?;
    let body = lines.next().unwrap_or("");
    if body.len() != want_len {
        return Err(StateError::Length {
            body: body.len(),
            header: want_len,
        });
    }
    if crc32fast::hash(body.as_bytes()) != want_crc {
        return Err(StateError::Checksum);
    }
    let machine: Machine = match version {
        2 => ron::from_str(&upgrade::v4(&upgrade::v3(&upgrade::v2(body)))),
        3 => ron::from_str(&upgrade::v4(&upgrade::v3(body))),
        4 => ron::from_str(&upgrade::v4(body)),
        _ => ron::from_str(body),
    }
    .map_err(|e| StateError::Body(e.to_string()))?;
    machine.restore(rom).map_err(StateError::Invalid)
}

pub fn load(path: &Path, rom: &Rom) -> Result<Machine, StateError> {
    let within = |error| StateError::In {
        path: path.to_path_buf(),
        error: Box::new(error),
    };
    let bytes = crate::files::read_capped(path, MAX_FILE, "a nesmind savestate")
        .map_err(|e| within(StateError::Io(e.to_string())))?;
    let text = String::from_utf8(bytes).map_err(|_| within(StateError::NotAState))?;
    decode(&text, rom).map_err(within)
}

/// The replay hash: 64-bit FNV-1a over work RAM, PRG RAM, the CPU registers, the PPU's
/// frame count and the CPU cycle count. Far cheaper than hashing the RON state, and any
/// divergence in game logic shows up in RAM or timing within frames. It leaves out where
/// in its frame the PPU is: at a frame's end the PPU run on demand stops at the frame's
/// last dot while in lockstep it has run on with the CPU's last instruction, so the same
/// run hashes alike with and without the shortcuts (`--lockstep` verifies any replay).
pub fn state_hash(m: &Machine) -> u64 {
    hash_machine(m, false)
}

/// The hash replays of versions 1-4 recorded: also the PPU's scanline and dot, so those
/// replays verify only with the PPU run on demand, as they were recorded.
pub fn state_hash_v4(m: &Machine) -> u64 {
    hash_machine(m, true)
}

fn hash_machine(m: &Machine, with_dot: bool) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    };
    feed(m.ram());
    feed(m.prg_ram());
    let c = m.cpu();
    feed(&[c.a, c.x, c.y, c.s, c.p]);
    feed(&c.pc.to_le_bytes());
    let ppu = m.ppu_position();
    if with_dot {
        feed(&ppu.scanline.to_le_bytes());
        feed(&ppu.dot.to_le_bytes());
    }
    feed(&ppu.frame.to_le_bytes());
    feed(&m.cpu_cycles().to_le_bytes());
    h
}
