//! Replays: per-frame pad input plus a state hash every N frames.
//!
//! File format (text, one record a line):
//! ```text
//! nesmind-replay 1
//! rom-crc32 1A2B3C4D
//! hash-every 60
//! p 08000000        pads 1-4 (hex byte each) held after frame 0's callback
//! p 00000000        ... frame 1, and so on, one `p` line per frame
//! h 59 0123456789ABCDEF   state hash after frame 59's input was set
//! ```
//! Replays start at power-on. Hashes are [`super::savestate::state_hash`].

use super::Buttons;
use super::savestate::{state_hash, write_atomic};
use nesmind_emu::{Machine, Rom};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const MAGIC: &str = "nesmind-replay";
const VERSION: u32 = 1;

/// Collects a run's input; written atomically by `finish`.
pub struct Recorder {
    path: PathBuf,
    text: String,
    every: u64,
}

impl Recorder {
    pub fn new(path: &Path, rom: &Rom, every: u64) -> Recorder {
        let every = every.max(1);
        Recorder {
            path: path.to_path_buf(),
            text: format!(
                "{MAGIC} {VERSION}\nrom-crc32 {:08X}\nhash-every {every}\n",
                rom.info.crc32
            ),
            every,
        }
    }
    pub fn frame(&mut self, step: u64, pads: [Buttons; 4], m: &Machine) {
        let p = pads.map(|b| b.bits());
        let _ = writeln!(
            self.text,
            "p {:02X}{:02X}{:02X}{:02X}",
            p[0], p[1], p[2], p[3]
        );
        if (step + 1).is_multiple_of(self.every) {
            let _ = writeln!(self.text, "h {step} {:016X}", state_hash(m));
        }
    }
    pub fn finish(self) -> Result<(), String> {
        write_atomic(&self.path, self.text.as_bytes())
    }
}

/// A loaded replay; with `verify` it checks every recorded hash.
pub struct Player {
    pads: Vec<[Buttons; 4]>,
    hashes: BTreeMap<u64, u64>,
    verify: bool,
    checked: usize,
}

impl Player {
    pub fn load(path: &Path, rom: &Rom, verify: bool) -> Result<Player, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read replay '{}': {e}", path.display()))?;
        Player::parse(&text, rom, verify)
            .map_err(|e| format!("bad replay '{}': {e}", path.display()))
    }

    pub fn parse(text: &str, rom: &Rom, verify: bool) -> Result<Player, String> {
        let mut lines = text.lines().enumerate();
        let header = lines.next().map(|(_, l)| l).unwrap_or("");
        match header.strip_prefix(MAGIC).map(str::trim) {
            Some(v) if v == VERSION.to_string() => {}
            Some(v) => {
                return Err(format!(
                    "replay version {v} is not supported (this build reads {VERSION})"
                ));
            }
            None => return Err("not a nesmind replay (missing the 'nesmind-replay' header)".into()),
        }
        let (mut pads, mut hashes, mut crc) = (Vec::new(), BTreeMap::new(), None);
        for (n, line) in lines {
            let bad = || format!("line {}: cannot read '{line}'", n + 1);
            let mut parts = line.split_whitespace();
            match (parts.next(), parts.next(), parts.next()) {
                (Some("rom-crc32"), Some(h), None) => {
                    crc = Some(u32::from_str_radix(h, 16).map_err(|_| bad())?);
                }
                (Some("hash-every"), Some(_), None) | (None, _, _) => {}
                (Some("p"), Some(h), None) if h.len() == 8 => {
                    let v = u32::from_str_radix(h, 16).map_err(|_| bad())?.to_be_bytes();
                    pads.push(v.map(Buttons));
                }
                (Some("h"), Some(f), Some(h)) => {
                    let f = f.parse::<u64>().map_err(|_| bad())?;
                    hashes.insert(f, u64::from_str_radix(h, 16).map_err(|_| bad())?);
                }
                _ => return Err(bad()),
            }
        }
        match crc {
            Some(c) if c == rom.info.crc32 => {}
            Some(c) => {
                return Err(format!(
                    "recorded with another ROM (CRC32 {c:08X}; '{}' is {:08X})",
                    rom.info.file_name, rom.info.crc32
                ));
            }
            None => return Err("missing the rom-crc32 line".into()),
        }
        Ok(Player {
            pads,
            hashes,
            verify,
            checked: 0,
        })
    }

    pub fn len(&self) -> u64 {
        self.pads.len() as u64
    }
    pub fn is_empty(&self) -> bool {
        self.pads.is_empty()
    }
    pub fn checked(&self) -> usize {
        self.checked
    }
    pub fn pads(&self, step: u64) -> Option<[Buttons; 4]> {
        self.pads.get(step as usize).copied()
    }

    /// With `verify`, compares the state hash recorded for `step`; the first mismatch is an error.
    pub fn check(&mut self, step: u64, m: &Machine) -> Result<(), String> {
        if !self.verify {
            return Ok(());
        }
        if let Some(&want) = self.hashes.get(&step) {
            let got = state_hash(m);
            if got != want {
                return Err(format!(
                    "replay diverges at frame {step}: state hash {got:016X}, recorded {want:016X}"
                ));
            }
            self.checked += 1;
        }
        Ok(())
    }
}
