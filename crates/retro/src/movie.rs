//! Movies other emulators record, read as the pad input of each frame: stable-retro's `.bk2`
//! (BizHawk's layout: a zip with `Header.txt`, `Input Log.txt` and the start state in
//! `Core.bin`) and FCEUX's `.fm2` (text: `key value` header lines, then one
//! `|commands|pad|pad|...|` line per frame). Told apart by their first bytes.
//!
//! Where a movie's frame falls in nesmind's: a nesmind frame runs from line 240 to line
//! 240, so its NMI, where games read the pads, comes near its start, and input set after
//! frame N is read in frame N + 1 ([`Movie::pads`] is indexed that way). FCEUX's frames
//! begin with the vertical blank too, and its frame 0 is the one after power-on: line N
//! of an `.fm2` is read in nesmind's frame N, so it is set after frame N - 1. stable-retro
//! writes a line for its reset's frame (nesmind's frame 0 after the state loads) and one
//! per step after it, the same alignment. Line 0 has no frame before it: a game cannot
//! read it before its first NMI, and it is dropped.

use crate::zip;
use nesmind_emu::Buttons;

/// The largest movie file read: an `.fm2` of a few hours of play.
pub const MAX_FILE: u64 = 64 << 20;

/// The file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Bk2,
    Fm2,
}

/// Something done to the console between two frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Reset,
    Power,
}

/// A movie's input, in nesmind's frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movie {
    pub format: Format,
    /// The pads held after each frame (see the header for the alignment).
    pub pads: Vec<[Buttons; 4]>,
    /// Resets and power cycles, before the frame numbered.
    pub commands: Vec<(u64, Command)>,
    pub four_score: bool,
    /// The state play starts from (a `.bk2`'s `Core.bin`, FCEUmm's), if any.
    pub start_state: Option<Vec<u8>>,
    /// The game as the movie names it (`GameName`, `romFilename`).
    pub game: Option<String>,
}

impl Movie {
    /// Reads a `.bk2` or `.fm2` file's bytes.
    pub fn parse(bytes: &[u8]) -> Result<Movie, String> {
        if bytes.starts_with(b"PK\x03\x04") {
            return parse_bk2(bytes);
        }
        let text = std::str::from_utf8(bytes).map_err(|_| {
            "neither a .bk2 (zip) nor an .fm2 (text) movie: the file is not text".to_string()
        })?;
        if text.trim_start().starts_with("version") {
            return parse_fm2(text);
        }
        Err("neither a .bk2 (zip) nor an .fm2 movie (its first key must be `version`)".into())
    }
}

/// A pad's buttons from a cell of characters, each held unless '.' or ' ', named by
/// `order` (nesmind's button for each position).
fn cell(chars: &str, order: &[Buttons]) -> Buttons {
    chars
        .chars()
        .zip(order)
        .filter(|(c, _)| *c != '.' && *c != ' ')
        .fold(Buttons::NONE, |acc, (_, &b)| acc | b)
}

/// FCEUX's gamepad field: RLDUTSBA.
const FM2_ORDER: [Buttons; 8] = [
    Buttons::RIGHT,
    Buttons::LEFT,
    Buttons::DOWN,
    Buttons::UP,
    Buttons::START,
    Buttons::SELECT,
    Buttons::B,
    Buttons::A,
];

fn parse_fm2(text: &str) -> Result<Movie, String> {
    let mut header = std::collections::BTreeMap::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((_, line)) = lines.next_if(|(_, l)| !l.starts_with('|')) {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        header.insert(key.to_string(), value.to_string());
    }
    let int = |key: &str| header.get(key).and_then(|v| v.trim().parse::<i64>().ok());
    if int("version") != Some(3) {
        return Err(format!(
            "an .fm2 movie of version {}: only version 3 is known",
            header.get("version").map_or("(none)", String::as_str)
        ));
    }
    if int("binary") == Some(1) {
        return Err("an .fm2 with a binary input log: only the text log is read".into());
    }
    if int("palFlag") == Some(1) {
        return Err("a PAL movie: nesmind runs the NTSC console, so it would go astray".into());
    }
    if int("FDS") == Some(1) {
        return Err("a Famicom Disk System movie: nesmind has no FDS".into());
    }
    if header.contains_key("savestate") {
        return Err(
            "the movie starts from an FCEUX savestate, which nesmind does not read \
                    (movies from power-on play)"
                .into(),
        );
    }
    let four_score = int("fourscore") == Some(1);
    let pads_in_line = if four_score { 4 } else { 2 };
    if !four_score {
        for port in ["port0", "port1"] {
            if let Some(v) = int(port).filter(|&v| v > 1) {
                return Err(format!(
                    "{port} {v}: a device other than a gamepad (only gamepads are read)"
                ));
            }
        }
    }
    let mut frames = Vec::new();
    let mut commands = Vec::new();
    for (n, line) in lines {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let at = || format!("line {}", n + 1);
        let fields: Vec<&str> = line.split('|').collect();
        // "", commands, the pads, the expansion port, "".
        if fields.len() < 3 + pads_in_line || !fields[0].is_empty() {
            return Err(format!("{}: not an input line: {line:?}", at()));
        }
        let cmd: u32 = match fields[1].trim() {
            "" => 0,
            c => c
                .parse()
                .map_err(|_| format!("{}: commands {c:?} is not a number", at()))?,
        };
        if cmd & !3 != 0 {
            return Err(format!(
                "{}: commands {cmd} (FDS disk or VS coin): only reset and power are played",
                at()
            ));
        }
        let frame = frames.len() as u64;
        if cmd & 2 != 0 {
            commands.push((frame, Command::Power));
        } else if cmd & 1 != 0 {
            commands.push((frame, Command::Reset));
        }
        let mut pads = [Buttons::NONE; 4];
        for (p, pad) in pads.iter_mut().take(pads_in_line).enumerate() {
            *pad = cell(fields[2 + p], &FM2_ORDER);
        }
        frames.push(pads);
    }
    Ok(Movie {
        format: Format::Fm2,
        // Line N is read in frame N: set after frame N - 1 (see the header).
        pads: frames.into_iter().skip(1).collect(),
        commands,
        four_score,
        start_state: None,
        game: header.get("romFilename").cloned(),
    })
}

/// The largest file read from inside a `.bk2`: the input log of hours of play.
const MAX_ENTRY: usize = 64 << 20;

fn parse_bk2(zip_bytes: &[u8]) -> Result<Movie, String> {
    let text = |name: &str| -> Result<String, String> {
        let bytes = zip::read(zip_bytes, name, MAX_ENTRY)?
            .ok_or_else(|| format!("not a .bk2 movie (the zip holds no {name})"))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    let header = text("Header.txt")?;
    let log = text("Input Log.txt")?;
    let start_state = zip::read(zip_bytes, "Core.bin", MAX_ENTRY)?;
    let game = header
        .lines()
        .find_map(|l| l.strip_prefix("GameName "))
        .map(|g| g.trim().to_string());
    let mut lines = log
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('['));
    let keys_line = lines.next().ok_or("the input log names no keys")?;
    let keys: Vec<&str> = keys_line
        .trim_start_matches("LogKey:")
        .split('|')
        .map(|k| k.trim_start_matches('#'))
        .filter(|k| !k.is_empty())
        .collect();
    if keys.is_empty() || keys_line.starts_with('|') {
        return Err("the input log names no keys".into());
    }
    // Each key: a pad and a button, or a console button.
    let mut targets = Vec::with_capacity(keys.len());
    let mut four_score = false;
    for key in &keys {
        let target = match key.split_once(' ') {
            Some((player, button)) if player.starts_with('P') => {
                let p: usize = player[1..]
                    .parse()
                    .ok()
                    .filter(|p| (1..=4).contains(p))
                    .ok_or_else(|| format!("key {key:?}: not a player 1-4"))?;
                four_score |= p > 2;
                let b = match button {
                    "Up" => Buttons::UP,
                    "Down" => Buttons::DOWN,
                    "Left" => Buttons::LEFT,
                    "Right" => Buttons::RIGHT,
                    "Start" => Buttons::START,
                    "Select" => Buttons::SELECT,
                    "B" => Buttons::B,
                    "A" => Buttons::A,
                    _ => return Err(format!("key {key:?}: not an NES pad button")),
                };
                Target::Pad(p - 1, b)
            }
            _ => match *key {
                "Reset" => Target::Console(Command::Reset),
                "Power" => Target::Console(Command::Power),
                _ => return Err(format!("key {key:?}: not a key nesmind plays")),
            },
        };
        targets.push(target);
    }
    let mut pads = Vec::new();
    let mut commands = Vec::new();
    for (n, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('|').filter(|c| !c.is_empty()).collect();
        let mut flat: String = cells.concat();
        // stable-retro writes a console column its key list leaves out.
        if flat.chars().count() != targets.len() && cells.len() > 1 {
            flat = cells[1..].concat();
        }
        if flat.chars().count() != targets.len() {
            return Err(format!(
                "frame {}: {} keys, the log names {}",
                n + 1,
                flat.chars().count(),
                targets.len()
            ));
        }
        let mut held = [Buttons::NONE; 4];
        for (c, target) in flat.chars().zip(&targets) {
            if c == '.' || c == ' ' {
                continue;
            }
            match *target {
                Target::Pad(p, b) => held[p] |= b,
                Target::Console(c) => commands.push((n as u64, c)),
            }
        }
        pads.push(held);
    }
    Ok(Movie {
        format: Format::Bk2,
        pads: pads.into_iter().skip(1).collect(),
        commands,
        four_score,
        start_state,
        game,
    })
}

enum Target {
    Pad(usize, Buttons),
    Console(Command),
}

#[cfg(test)]
#[path = "movie_tests.rs"]
mod tests;
