//! Reads FCEUmm savestates, the `.state` files stable-retro ships as start states. Each is
//! gzip around FCEUmm's own format: a 16-byte header (`FCS`, 0xFF, the length of what
//! follows, the emulator version), then sections, each a type byte and a length, holding
//! named entries (four-byte name, length, bytes). Section 1 is the CPU and its RAM, 2 the
//! CPU's cycle counters, 3 the PPU, 4 the controllers, 5 the sound, 0x10 the board's own
//! entries, whose set of names tells the board apart (see `layout.rs`).
//!
//! Every length is checked against what is left, so a corrupt or cut file is an error
//! naming the place, never a panic or a huge allocation.

use std::fmt;

/// The largest state accepted once decompressed; FCEUmm's are 10-40 KiB.
const MAX_STATE: usize = 1 << 20;
/// The largest state file accepted, with room for the largest state stored uncompressed
/// in gzip's framing.
pub const MAX_FILE: u64 = 2 * MAX_STATE as u64;

/// A section of the state, as FCEUmm numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionKind {
    Cpu,
    CpuCounters,
    Ppu,
    Controllers,
    Sound,
    Board,
    Other(u8),
}

impl SectionKind {
    fn from_byte(b: u8) -> SectionKind {
        match b {
            1 => SectionKind::Cpu,
            2 => SectionKind::CpuCounters,
            3 => SectionKind::Ppu,
            4 => SectionKind::Controllers,
            5 => SectionKind::Sound,
            0x10 => SectionKind::Board,
            b => SectionKind::Other(b),
        }
    }
}

/// A named entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name without its trailing NULs (`PC`, `RAM`, `DREG`, ...).
    pub name: String,
    pub data: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub kind: SectionKind,
    pub entries: Vec<Entry>,
}

/// A parsed state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FceuState {
    /// FCEUmm's version number (9813 in stable-retro 1.0.1's states).
    pub version: u32,
    pub sections: Vec<Section>,
}

/// Why a state could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    Gzip(String),
    TooLarge(usize),
    /// The file itself is larger than this many bytes.
    FileTooLarge(u64),
    BadHeader(String),
    /// Something at byte `at` of the decompressed state.
    Malformed {
        at: usize,
        what: String,
    },
    Missing(String),
    /// The state decodes but cannot run on this ROM (another board, other RAM sizes).
    DoesNotFit(String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Gzip(e) => write!(f, "not a readable gzip file: {e}"),
            StateError::TooLarge(n) => {
                write!(
                    f,
                    "decompresses to more than {n} bytes, far beyond an FCEUmm state"
                )
            }
            StateError::FileTooLarge(n) => {
                write!(f, "larger than {} MiB, far beyond an FCEUmm state", n >> 20)
            }
            StateError::BadHeader(e) => write!(f, "not an FCEUmm state: {e}"),
            StateError::Malformed { at, what } => write!(f, "at byte {at}: {what}"),
            StateError::Missing(e) => write!(f, "missing {e}"),
            StateError::DoesNotFit(e) => write!(f, "does not fit this ROM: {e}"),
        }
    }
}

impl std::error::Error for StateError {}

/// The CPU registers FCEUmm keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuRegs {
    pub pc: u16,
    pub a: u8,
    pub x: u8,
    pub y: u8,
    pub s: u8,
    pub p: u8,
    /// The last value on the data bus (open bus).
    pub data_bus: u8,
}

impl FceuState {
    /// True when `file` starts as an FCEUmm state does: gzip (stable-retro's `.state`
    /// files) or the raw `FCS` header (what its `get_state()` returns).
    pub fn looks_like(file: &[u8]) -> bool {
        file.starts_with(&[0x1F, 0x8B]) || file.starts_with(b"FCS")
    }

    /// Reads a `.state` file's bytes: gzip-wrapped, or already inflated.
    pub fn parse(file: &[u8]) -> Result<FceuState, StateError> {
        if file.len() as u64 > MAX_FILE {
            return Err(StateError::FileTooLarge(MAX_FILE));
        }
        if file.starts_with(&[0x1F, 0x8B]) {
            let raw = crate::gzip::inflate(file, MAX_STATE).map_err(|e| match e {
                crate::gzip::GzipError::TooLarge => StateError::TooLarge(MAX_STATE),
                crate::gzip::GzipError::Bad(e) => StateError::Gzip(e),
            })?;
            Self::parse_raw(&raw)
        } else {
            Self::parse_raw(file)
        }
    }

    /// Reads the inflated bytes.
    pub fn parse_raw(raw: &[u8]) -> Result<FceuState, StateError> {
        if raw.len() < 16 {
            return Err(StateError::BadHeader(format!(
                "{} bytes, shorter than the 16-byte header",
                raw.len()
            )));
        }
        if &raw[..3] != b"FCS" {
            return Err(StateError::BadHeader(format!(
                "starts {:02X?}, not \"FCS\"",
                &raw[..3]
            )));
        }
        let le = |at: usize| u32::from_le_bytes([raw[at], raw[at + 1], raw[at + 2], raw[at + 3]]);
        // Old states kept a version/100 in byte 3; 0xFF means a full version at byte 8.
        let version = if raw[3] == 0xFF {
            le(8)
        } else {
            u32::from(raw[3]) * 100
        };
        let total = le(4) as usize;
        let body = &raw[16..];
        if total != body.len() {
            return Err(StateError::BadHeader(format!(
                "the header announces {total} bytes of sections but {} follow",
                body.len()
            )));
        }
        let mut sections = Vec::new();
        let mut at = 0;
        while at < body.len() {
            let kind = SectionKind::from_byte(body[at]);
            let (len, start) = length(body, at + 1, "section length").map_err(|e| shift(e, 16))?;
            let data = take(body, start, len, "section").map_err(|e| shift(e, 16))?;
            sections.push(Section {
                kind,
                entries: entries(data, 16 + start)?,
            });
            at = start + len;
        }
        Ok(FceuState { version, sections })
    }

    /// The first section of this kind.
    pub fn section(&self, kind: SectionKind) -> Option<&Section> {
        self.sections.iter().find(|s| s.kind == kind)
    }

    /// An entry of a section, checked to hold `len` bytes.
    pub fn entry(&self, kind: SectionKind, name: &str, len: usize) -> Result<&[u8], StateError> {
        let e = self
            .section(kind)
            .and_then(|s| s.entries.iter().find(|e| e.name == name))
            .ok_or_else(|| StateError::Missing(format!("{name} in the {kind:?} section")))?;
        if e.data.len() != len {
            return Err(StateError::Missing(format!(
                "{name}: {len} bytes expected, found {}",
                e.data.len()
            )));
        }
        Ok(&e.data)
    }

    pub fn cpu(&self) -> Result<CpuRegs, StateError> {
        let byte = |n| self.entry(SectionKind::Cpu, n, 1).map(|d| d[0]);
        let pc = self.entry(SectionKind::Cpu, "PC", 2)?;
        Ok(CpuRegs {
            pc: u16::from_le_bytes([pc[0], pc[1]]),
            a: byte("A")?,
            x: byte("X")?,
            y: byte("Y")?,
            s: byte("S")?,
            p: byte("P")?,
            data_bus: byte("DB")?,
        })
    }

    /// The 2 KiB of CPU RAM.
    pub fn ram(&self) -> Result<&[u8], StateError> {
        self.entry(SectionKind::Cpu, "RAM", 0x800)
    }

    /// The board section's entry names and lengths, in order: its layout.
    pub fn board_entries(&self) -> Vec<(String, usize)> {
        self.section(SectionKind::Board)
            .map(|s| {
                s.entries
                    .iter()
                    .map(|e| (e.name.clone(), e.data.len()))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A little-endian u32 length at `at`, and where its data begins.
fn length(buf: &[u8], at: usize, what: &str) -> Result<(usize, usize), StateError> {
    let b = buf.get(at..at + 4).ok_or_else(|| StateError::Malformed {
        at,
        what: format!("{what} cut short"),
    })?;
    Ok((
        u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize,
        at + 4,
    ))
}

fn take<'a>(buf: &'a [u8], at: usize, len: usize, what: &str) -> Result<&'a [u8], StateError> {
    at.checked_add(len)
        .and_then(|end| buf.get(at..end))
        .ok_or_else(|| StateError::Malformed {
            at,
            what: format!(
                "{what} of {len} bytes runs past the end ({} left)",
                buf.len().saturating_sub(at)
            ),
        })
}

/// The entries of one section; `base` is the section's offset in the file, for messages.
fn entries(data: &[u8], base: usize) -> Result<Vec<Entry>, StateError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let name = take(data, at, 4, "entry name").map_err(|e| shift(e, base))?;
        let name: String = name
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| char::from(c))
            .collect();
        let (len, start) = length(data, at + 4, "entry length").map_err(|e| shift(e, base))?;
        let bytes =
            take(data, start, len, &format!("entry {name:?}")).map_err(|e| shift(e, base))?;
        out.push(Entry {
            name,
            data: bytes.to_vec(),
        });
        at = start + len;
    }
    Ok(out)
}

fn shift(e: StateError, base: usize) -> StateError {
    match e {
        StateError::Malformed { at, what } => StateError::Malformed {
            at: at + base,
            what,
        },
        e => e,
    }
}
