//! Replays: the machine configuration, per-frame pad input, console resets and power
//! cycles, and a state hash every N frames.
//!
//! File format (text, one record a line):
//! ```text
//! nesmind-replay 5
//! rom-crc32 1A2B3C4D
//! four-score 0          machine configuration: 1 when a Four Score is plugged in
//! hash-every 60
//! p 08000000            pads 1-4 (hex byte each) held after frame 0's callback
//! p 00000000            ... frame 1, and so on, one `p` line per frame
//! reset                 the reset button, pressed before the next frame runs
//! power                 a power cycle, before the next frame runs
//! load 5 1A2B3C4D 52220 (cpu:...)   a savestate loaded before the next frame runs (F9 in
//!                       the window): its version, body CRC32, length and body, on one line
//! h 59 0123456789ABCDEF state hash after frame 59's input was set
//! end 75 0123456789ABCDEF  the last line: frames recorded, state hash after the last one
//! ```
//! Replays start at power-on. Hashes are [`super::savestate::state_hash`]. The `end` line
//! lets `--verify` check the frames after the last `h` line and refuse a replay that was
//! cut. Versions 1 (no `four-score` line, no resets), 2 (no `end` line), 3 (no `load`
//! lines) and 4 (hashes with the PPU's dot: `state_hash_v4`) are still read; verifying 1
//! and 2 checks the `h` lines only, and says so.

use super::Buttons;
use super::files::write_atomic;
use super::savestate::{state_hash, state_hash_v4};
use nesmind_emu::{Machine, Rom};
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MAGIC: &str = "nesmind-replay";
const VERSION: u32 = 5;
/// The largest replay read: over 20 million frames (4 days of play) of 11-byte `p` lines,
/// fewer with savestates loaded (`load` lines).
pub const MAX_FILE: u64 = 256 << 20;

/// Something done to the console between two frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Reset,
    Power,
    /// A savestate loaded: the state file's text, as `savestate::encode` writes it (checked
    /// against the ROM when the replay is read).
    Load(Arc<str>),
}

impl Event {
    /// The record's line, without its newline.
    fn line(&self) -> String {
        match self {
            Event::Reset => "reset".into(),
            Event::Power => "power".into(),
            Event::Load(state) => format!(
                "load {}",
                super::savestate::one_line(state).unwrap_or_else(|| "?".into())
            ),
        }
    }

    /// A `load` record's state, rebuilt as a state file and checked against `rom`.
    fn parse_load(rest: &str, rom: &Rom) -> Option<Event> {
        let text = super::savestate::from_one_line(rest, rom)?;
        super::savestate::decode(&text, rom).ok()?;
        Some(Event::Load(text.into()))
    }
}

/// Why a replay could not be recorded, read or followed.
#[derive(Debug)]
pub enum ReplayError {
    /// The file could not be read or written (the message names the path).
    Io(String),
    NotAReplay,
    Version(String),
    OtherRom {
        replay: u32,
        rom: u32,
        file: String,
    },
    MissingRomCrc,
    /// Line `line` (from 1) cannot be read.
    Line {
        line: usize,
        text: String,
    },
    /// `--verify`: the state hash after `frame` differs from the recorded one.
    Diverged {
        frame: u64,
        got: u64,
        want: u64,
    },
    /// `--verify` could not vouch for the whole replay (cut, stopped early, nothing checked).
    NotVerified(String),
    /// Anything above, with the file it came from.
    In {
        path: PathBuf,
        error: Box<ReplayError>,
    },
}

impl ReplayError {
    /// The error without the file it came from.
    pub fn kind(&self) -> &ReplayError {
        match self {
            ReplayError::In { error, .. } => error.kind(),
            e => e,
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Io(m) => f.write_str(m),
            ReplayError::NotAReplay => {
                write!(f, "not a nesmind replay (missing the '{MAGIC}' header)")
            }
            ReplayError::Version(v) => write!(
                f,
                "replay version {v} is not supported (this build reads 1-{VERSION})"
            ),
            ReplayError::OtherRom { replay, rom, file } => write!(
                f,
                "recorded with another ROM (CRC32 {replay:08X}; '{file}' is {rom:08X})"
            ),
            ReplayError::MissingRomCrc => f.write_str("missing the rom-crc32 line"),
            ReplayError::Line { line, text } => write!(f, "line {line}: cannot read '{text}'"),
            ReplayError::Diverged { frame, got, want } => write!(
                f,
                "replay diverges at frame {frame}: state hash {got:016X}, recorded {want:016X}"
            ),
            ReplayError::NotVerified(why) => write!(f, "replay not verified: {why}"),
            ReplayError::In { path, error } => {
                write!(f, "bad replay '{}': {error}", path.display())
            }
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<ReplayError> for String {
    fn from(e: ReplayError) -> String {
        e.to_string()
    }
}

/// Collects a run's input; written atomically by `finish`.
pub struct Recorder {
    path: PathBuf,
    crc32: u32,
    four_score: bool,
    text: String,
    every: u64,
    frames: u64,
    /// The state hash after the last frame recorded.
    last: u64,
}

impl Recorder {
    pub fn new(path: &Path, rom: &Rom, every: u64) -> Recorder {
        Recorder {
            path: path.to_path_buf(),
            crc32: rom.info.crc32,
            four_score: false,
            text: String::new(),
            every: every.max(1),
            frames: 0,
            last: 0,
        }
    }
    /// The machine configuration the replay must recreate (the session keeps it current).
    pub fn configure(&mut self, four_score: bool) {
        self.four_score = four_score;
    }
    /// A reset, power cycle or state load before the frame about to run.
    pub fn event(&mut self, event: &Event) {
        self.text.push_str(&event.line());
        self.text.push('\n');
    }
    pub fn frame(&mut self, step: u64, pads: [Buttons; 4], m: &Machine) {
        let p = pads.map(|b| b.bits());
        let _ = writeln!(
            self.text,
            "p {:02X}{:02X}{:02X}{:02X}",
            p[0], p[1], p[2], p[3]
        );
        // Hashed every frame (a few microseconds) for the end line, since a run can stop
        // after any frame, and the machine may have moved on by the time it is written.
        let hash = state_hash(m);
        if (step + 1).is_multiple_of(self.every) {
            let _ = writeln!(self.text, "h {step} {hash:016X}");
        }
        self.frames += 1;
        self.last = hash;
    }
    pub fn finish(self) -> Result<(), ReplayError> {
        let file = format!(
            "{MAGIC} {VERSION}\nrom-crc32 {:08X}\nfour-score {}\nhash-every {}\n{}end {} {:016X}\n",
            self.crc32,
            u8::from(self.four_score),
            self.every,
            self.text,
            self.frames,
            self.last
        );
        write_atomic(&self.path, file.as_bytes()).map_err(ReplayError::Io)
    }
}

/// A loaded replay; with `verify` it checks every recorded hash.
pub struct Player {
    pads: Vec<[Buttons; 4]>,
    /// Events before frame N, by N.
    events: BTreeMap<u64, Vec<Event>>,
    hashes: BTreeMap<u64, u64>,
    four_score: bool,
    verify: bool,
    checked: usize,
    version: u32,
    /// Frames recorded and the state hash after the last (version 3's `end` line).
    end: Option<(u64, u64)>,
    end_checked: bool,
}

impl Player {
    pub fn load(path: &Path, rom: &Rom, verify: bool) -> Result<Player, ReplayError> {
        let within = |error| ReplayError::In {
            path: path.to_path_buf(),
            error: Box::new(error),
        };
        let bytes = crate::files::read_capped(path, MAX_FILE, "a nesmind replay")
            .map_err(|e| within(ReplayError::Io(e.to_string())))?;
        let text = String::from_utf8(bytes).map_err(|_| within(ReplayError::NotAReplay))?;
        Player::parse(&text, rom, verify).map_err(within)
    }

    pub fn parse(text: &str, rom: &Rom, verify: bool) -> Result<Player, ReplayError> {
        let mut lines = text.lines().enumerate();
        let header = lines.next().map(|(_, l)| l).unwrap_or("");
        let version = header
            .strip_prefix(MAGIC)
            .map(str::trim)
            .ok_or(ReplayError::NotAReplay)?;
        let version = match version {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            "4" => 4,
            "5" => 5,
            v => return Err(ReplayError::Version(v.chars().take(20).collect())),
        };
        let mut player = Player {
            pads: Vec::new(),
            events: BTreeMap::new(),
            hashes: BTreeMap::new(),
            four_score: false,
            verify,
            checked: 0,
            version,
            end: None,
            end_checked: false,
        };
        let mut crc = None;
        for (n, line) in lines {
            let bad = || ReplayError::Line {
                line: n + 1,
                text: line.chars().take(80).collect(),
            };
            if player.end.is_some() && !line.trim().is_empty() {
                return Err(ReplayError::NotVerified(format!(
                    "line {}: input after the end line",
                    n + 1
                )));
            }
            if let Some(rest) = line.strip_prefix("load ")
                && version >= 4
            {
                let e = Event::parse_load(rest, rom).ok_or_else(bad)?;
                let before = player.pads.len() as u64;
                player.events.entry(before).or_default().push(e);
                continue;
            }
            let mut parts = line.split_whitespace();
            let event = match (parts.next(), parts.next(), parts.next()) {
                (Some("rom-crc32"), Some(h), None) => {
                    crc = Some(u32::from_str_radix(h, 16).map_err(|_| bad())?);
                    None
                }
                (Some("four-score"), Some(v @ ("0" | "1")), None) => {
                    player.four_score = v == "1";
                    None
                }
                (Some("hash-every"), Some(_), None) | (None, _, _) => None,
                (Some("p"), Some(h), None) if h.len() == 8 => {
                    let v = u32::from_str_radix(h, 16).map_err(|_| bad())?.to_be_bytes();
                    player.pads.push(v.map(Buttons));
                    None
                }
                (Some("h"), Some(f), Some(h)) => {
                    let f = f.parse::<u64>().map_err(|_| bad())?;
                    let h = u64::from_str_radix(h, 16).map_err(|_| bad())?;
                    player.hashes.insert(f, h);
                    None
                }
                (Some("end"), Some(f), Some(h)) if version >= 3 => {
                    let f = f.parse::<u64>().map_err(|_| bad())?;
                    let h = u64::from_str_radix(h, 16).map_err(|_| bad())?;
                    player.end = Some((f, h));
                    None
                }
                (Some("reset"), None, None) => Some(Event::Reset),
                (Some("power"), None, None) => Some(Event::Power),
                _ => return Err(bad()),
            };
            if let Some(e) = event {
                let before = player.pads.len() as u64;
                player.events.entry(before).or_default().push(e);
            }
        }
        if verify {
            player.check_complete()?;
        }
        match crc {
            Some(c) if c == rom.info.crc32 => Ok(player),
            Some(c) => Err(ReplayError::OtherRom {
                replay: c,
                rom: rom.info.crc32,
                file: rom.info.file_name.clone(),
            }),
            None => Err(ReplayError::MissingRomCrc),
        }
    }

    /// Input read from elsewhere (another emulator's movie): the pads held after each
    /// frame and the events before frames, with no state hashes to verify.
    pub fn from_input(
        pads: Vec<[Buttons; 4]>,
        events: BTreeMap<u64, Vec<Event>>,
        four_score: bool,
    ) -> Player {
        Player {
            pads,
            events,
            hashes: BTreeMap::new(),
            four_score,
            verify: false,
            checked: 0,
            version: VERSION,
            end: None,
            end_checked: false,
        }
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
    /// Whether the recorded state hashes are checked (`--verify`).
    pub fn verifies(&self) -> bool {
        self.verify
    }
    /// Whether the recorded machine had a Four Score plugged in.
    pub fn four_score(&self) -> bool {
        self.four_score
    }
    pub fn pads(&self, step: u64) -> Option<[Buttons; 4]> {
        self.pads.get(step as usize).copied()
    }
    /// Resets and power cycles recorded before frame `step` runs.
    pub fn events(&self, step: u64) -> &[Event] {
        self.events.get(&step).map_or(&[], Vec::as_slice)
    }

    /// A version-3 file must end with its `end` line, which must count its frames: a cut
    /// or spliced file cannot be verified (it can still be played).
    fn check_complete(&self) -> Result<(), ReplayError> {
        match self.end {
            None if self.version >= 3 => Err(ReplayError::NotVerified(
                "the file has no end line: it was cut short".into(),
            )),
            Some((frames, _)) if frames != self.len() => Err(ReplayError::NotVerified(format!(
                "the end line counts {frames} frames but the file holds {}",
                self.len()
            ))),
            _ => Ok(()),
        }
    }

    /// `--verify`'s verdict on a run that stepped `steps` frames from the replay's start:
    /// the number of hashes that matched, or why the replay is not verified (the run stopped
    /// before the end, or no hash was checked). Old versions without an `end` line are
    /// verified as far as their `h` lines go; `old_tail` then says which frames were not.
    pub fn verdict(&self, steps: u64) -> Result<usize, ReplayError> {
        let not = |why: String| Err(ReplayError::NotVerified(why));
        if steps < self.len() {
            return not(format!(
                "the run stopped after {steps} of its {} frames",
                self.len()
            ));
        }
        if self.checked == 0 {
            return not("no recorded state hash was reached".into());
        }
        if self.end.is_some() && !self.end_checked {
            return not("the state after the last frame was not checked".into());
        }
        Ok(self.checked)
    }

    /// For a version 1 or 2 file (no final hash): the frames after its last `h` line,
    /// which nothing checks, as (first, count); `None` when every frame is covered.
    pub fn old_tail(&self) -> Option<(u64, u64)> {
        if self.end.is_some() {
            return None;
        }
        let covered = self.hashes.keys().next_back().map_or(0, |&f| f + 1);
        (covered < self.len()).then(|| (covered, self.len() - covered))
    }

    /// With `verify`, compares the state hash recorded for `step` (an `h` line, or the
    /// `end` line after the last frame); the first mismatch is an error.
    pub fn check(&mut self, step: u64, m: &Machine) -> Result<(), ReplayError> {
        if !self.verify {
            return Ok(());
        }
        let hash = if self.version >= 5 {
            state_hash
        } else {
            state_hash_v4
        };
        let matches = |want: u64| {
            let got = hash(m);
            if got == want {
                Ok(())
            } else {
                Err(ReplayError::Diverged {
                    frame: step,
                    got,
                    want,
                })
            }
        };
        let at_end = self.end.filter(|&(frames, _)| step + 1 == frames);
        if let Some((_, want)) = at_end {
            matches(want)?;
            self.end_checked = true;
            if !self.hashes.contains_key(&step) {
                self.checked += 1;
            }
        }
        if let Some(&want) = self.hashes.get(&step) {
            matches(want)?;
            self.checked += 1;
        }
        Ok(())
    }
}
