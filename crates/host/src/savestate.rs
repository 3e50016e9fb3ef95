//! Savestate files, the machine state hash, and atomic file writes.
//!
//! File format (text):
//! ```text
//! nesmind-savestate 2
//! rom-crc32 1A2B3C4D
//! body-crc32 5E6F7081 len 123456
//! <the machine as RON, ROM data excluded>
//! ```
//! The header ties the state to the ROM (CRC32 of PRG + CHR) and lets a truncated or
//! damaged body be refused before it is parsed.

use nesmind_emu::{Machine, Rom};
use std::io::Write;
use std::path::Path;

pub const MAGIC: &str = "nesmind-savestate";
/// 2: the APU runs lazily and records how far (`cycle`, `next_event`, `synth_cycle`).
pub const VERSION: u32 = 2;

/// Writes `data` to `path` through a temporary file in the same directory and a rename,
/// so a crash or a full disk never leaves a half-written file in place of a good one.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| format!("'{}' is not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write '{}': {e}", path.display())
    })
}

/// Serialises the machine with the header described in the module docs.
pub fn encode(machine: &Machine, rom: &Rom) -> Result<String, String> {
    let body = machine.save_state()?;
    Ok(format!(
        "{MAGIC} {VERSION}\nrom-crc32 {:08X}\nbody-crc32 {:08X} len {}\n{body}",
        rom.info.crc32,
        crc32fast::hash(body.as_bytes()),
        body.len()
    ))
}

pub fn save(path: &Path, machine: &Machine, rom: &Rom) -> Result<(), String> {
    write_atomic(path, encode(machine, rom)?.as_bytes())
}

/// Checks the header and rebuilds the machine; every refusal says what is wrong.
pub fn decode(text: &str, rom: &Rom) -> Result<Machine, String> {
    let mut lines = text.splitn(4, '\n');
    let first = lines.next().unwrap_or("");
    let version = first
        .strip_prefix(MAGIC)
        .map(str::trim)
        .ok_or("not a nesmind savestate (missing the 'nesmind-savestate' header)")?;
    if version != VERSION.to_string() {
        return Err(format!(
            "savestate version {version} is not supported (this build reads version {VERSION})"
        ));
    }
    let crc_line = lines.next().unwrap_or("");
    let crc = crc_line
        .strip_prefix("rom-crc32 ")
        .and_then(|h| u32::from_str_radix(h.trim(), 16).ok())
        .ok_or("damaged savestate header (bad rom-crc32 line)")?;
    if crc != rom.info.crc32 {
        return Err(format!(
            "savestate belongs to another ROM (CRC32 {crc:08X}; '{}' is {:08X})",
            rom.info.file_name, rom.info.crc32
        ));
    }
    let body_line = lines.next().unwrap_or("");
    let (want_crc, want_len) = body_line
        .strip_prefix("body-crc32 ")
        .and_then(|r| r.split_once(" len "))
        .and_then(|(c, l)| {
            Some((
                u32::from_str_radix(c, 16).ok()?,
                l.trim().parse::<usize>().ok()?,
            ))
        })
        .ok_or("damaged savestate header (bad body-crc32 line)")?;
    let body = lines.next().unwrap_or("");
    if body.len() != want_len {
        return Err(format!(
            "savestate is truncated or padded: body is {} bytes, header says {want_len}",
            body.len()
        ));
    }
    if crc32fast::hash(body.as_bytes()) != want_crc {
        return Err("savestate is corrupt: body checksum does not match".into());
    }
    Machine::load_state(body, rom)
}

pub fn load(path: &Path, rom: &Rom) -> Result<Machine, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot read savestate '{}': {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("'{}' is not a nesmind savestate (not text)", path.display()))?;
    decode(&text, rom).map_err(|e| format!("cannot load savestate '{}': {e}", path.display()))
}

/// The replay hash: 64-bit FNV-1a over work RAM, PRG RAM, the CPU registers, the PPU's
/// scanline, dot and frame, and the CPU cycle count. Far cheaper than hashing the RON
/// state, and any divergence in game logic shows up in RAM or timing within frames.
pub fn state_hash(m: &Machine) -> u64 {
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
    feed(&ppu.scanline.to_le_bytes());
    feed(&ppu.dot.to_le_bytes());
    feed(&ppu.frame.to_le_bytes());
    feed(&m.cpu_cycles().to_le_bytes());
    h
}
