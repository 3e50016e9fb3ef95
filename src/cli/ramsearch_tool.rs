//! The commands of `nesmind ramsearch`, one line each, against a running session: run frames
//! with buttons held, start a search, narrow it, show the survivors, watch addresses, name
//! what was found and export it as a RON entry.

use crate::emu::{AccessKind, Buttons, WatchHit};
use crate::host::Session;
use crate::host::ramsearch::{PRG_RAM, Search, Snapshot, Test, Width, parse_value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::RangeInclusive;

pub const COMMANDS: &str = "\
Commands (one a line; # starts a comment):
  run N                      let N frames pass (with the buttons held, or the replay's)
  hold PAD BUTTONS           hold buttons on pad 1-4 from now on (e.g. hold 1 right+a; none releases)
  press PAD BUTTONS [N]      hold for N frames (default 1), then release
  new [u8|u16le|u16be]       start a search: every RAM byte (and cartridge RAM) is a candidate
  snap                       take the comparison point now, keeping every candidate
  TEST | filter TEST         keep the candidates whose change since the last snapshot passes TEST:
                             changed, unchanged, increased, decreased, = V, != V, +D, -D, delta D
  show [N]                   the survivors with their values (at most N, default 20)
  peek ADDR [LEN]            bytes at ADDR
  watch ADDR[-ADDR] [write|read|exec]   report accesses (writes by default) after each run
                             (in the window between commands: at most once a second)
  unwatch                    remove every watch
  name NAME [ADDR]           name the one survivor (or ADDR) for export
  export FILE|-              write the named variables as a RON entry
  reset                      press the console's reset button
  power                      switch the console off and on (RAM starts over)
  quit                       end (so does end of input, Ctrl+D)
Ctrl+C stops a running command (run, press) and waits for the next.";

/// A variable named for export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variable {
    pub addr: u16,
    pub width: String,
    /// Its value when it was named.
    pub value: u32,
}

/// What `export` writes: the game, its CRC32 and the named variables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub name: String,
    pub crc32: Vec<u32>,
    pub variables: BTreeMap<String, Variable>,
}

impl Entry {
    /// The RON text, addresses in hex.
    pub fn to_ron(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "// Found with nesmind ramsearch; read it with ron (Entry)."
        );
        let _ = writeln!(s, "(\n    name: {:?},", self.name);
        let crc: Vec<String> = self.crc32.iter().map(|c| format!("0x{c:08X}")).collect();
        let _ = writeln!(s, "    crc32: [{}],\n    variables: {{", crc.join(", "));
        for (name, v) in &self.variables {
            let _ = writeln!(
                s,
                "        {name:?}: (addr: 0x{:04X}, width: {:?}, value: 0x{:X}),",
                v.addr, v.width, v.value
            );
        }
        s.push_str("    },\n)\n");
        s
    }
}

/// What a command asks of the loop that runs the session.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// Run this many frames before the next command.
    Frames(u64),
    /// Take the next command now.
    Go,
    Quit,
}

pub struct Tool {
    search: Option<Search>,
    held: [Buttons; 4],
    /// After a `press`: release these pads once its frames have run.
    release_after: Option<(u64, usize)>,
    watches: Vec<(AccessKind, RangeInclusive<u16>)>,
    hits: Vec<WatchHit>,
    seen: Vec<WatchHit>,
    names: BTreeMap<String, Variable>,
    prg_ram: bool,
    /// When the watch hits were last reported while no command ran (the window plays on
    /// between commands): at most one report a second, not one a frame.
    last_free_report: Option<std::time::Instant>,
}

/// Between commands the window reports watch hits at most this often.
const FREE_REPORT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

fn width_name(w: Width) -> &'static str {
    match w {
        Width::U8 => "u8",
        Width::U16Le => "u16le",
        Width::U16Be => "u16be",
    }
}

fn parse_width(w: &str) -> Result<Width, String> {
    match w {
        "u8" => Ok(Width::U8),
        "u16le" | "u16" => Ok(Width::U16Le),
        "u16be" => Ok(Width::U16Be),
        _ => Err(format!("unknown width '{w}' (u8, u16le, u16be)")),
    }
}

fn parse_addr(text: &str) -> Result<u16, String> {
    let v = parse_value(text)?;
    u16::try_from(v).map_err(|_| format!("'{text}' is not an address ($0000-$FFFF)"))
}

/// `ADDR[-ADDR]` and an access kind (`write` when none is given), as `watch` takes them.
pub(crate) fn parse_watch(
    range: &str,
    kind: Option<&str>,
) -> Result<(AccessKind, RangeInclusive<u16>), String> {
    let (lo, hi) = match range.split_once('-') {
        Some((a, b)) => (parse_addr(a)?, parse_addr(b)?),
        None => (parse_addr(range)?, parse_addr(range)?),
    };
    if hi < lo {
        return Err(format!("watch: the range {range} runs backwards"));
    }
    let kind = match kind.unwrap_or("write") {
        "write" => AccessKind::Write,
        "read" => AccessKind::Read,
        "exec" => AccessKind::Execute,
        k => return Err(format!("watch: unknown access '{k}' (write, read, exec)")),
    };
    Ok((kind, lo..=hi))
}

fn parse_pad(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 1..=4) => Ok(n - 1),
        _ => Err(format!("'{text}' is not a pad (1-4)")),
    }
}

fn parse_buttons(text: &str) -> Result<Buttons, String> {
    if text.eq_ignore_ascii_case("none") {
        Ok(Buttons::NONE)
    } else {
        Buttons::parse(text)
    }
}

impl Tool {
    /// `prg_ram`: the cartridge has RAM at $6000-$7FFF worth searching.
    pub fn new(prg_ram: bool) -> Tool {
        Tool {
            search: None,
            held: [Buttons::NONE; 4],
            release_after: None,
            watches: Vec::new(),
            hits: Vec::new(),
            seen: Vec::new(),
            names: BTreeMap::new(),
            prg_ram,
            last_free_report: None,
        }
    }

    fn say(&mut self, line: String) {
        println!("{line}");
    }

    fn snapshot(&self, session: &Session) -> Result<Snapshot, String> {
        let m = session.machine();
        let prg = self.prg_ram.then(|| PRG_RAM.map(|a| m.peek(a)).collect());
        Snapshot::from_parts(m.frame_number(), m.ram()[..0x800].to_vec(), prg)
    }

    /// Buttons the commands hold on `pad` (a replay, when one plays, overrides them).
    pub fn held(&self, pad: usize) -> Buttons {
        self.held[pad]
    }

    /// Runs one command line.
    pub fn exec(&mut self, session: &mut Session, line: &str) -> Result<Next, String> {
        let line = line.split('#').next().unwrap_or("").trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return Ok(Next::Go);
        };
        let arg = |i: usize| {
            words
                .get(i)
                .copied()
                .ok_or_else(|| format!("'{line}': an argument is missing"))
        };
        match first {
            "run" => {
                let n = arg(1)?
                    .parse::<u64>()
                    .map_err(|_| format!("run: '{}' is not a number of frames", words[1]))?;
                return Ok(Next::Frames(n));
            }
            "hold" => {
                let pad = parse_pad(arg(1)?)?;
                self.held[pad] = parse_buttons(&words[2..].join("+"))?;
            }
            "press" => {
                let pad = parse_pad(arg(1)?)?;
                self.held[pad] = parse_buttons(arg(2)?)?;
                let n = match words.get(3) {
                    Some(t) => t
                        .parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("press: '{t}' is not a number of frames"))?,
                    None => 1,
                };
                self.release_after = Some((n, pad));
                return Ok(Next::Frames(n));
            }
            "new" => {
                let width = words.get(1).map_or(Ok(Width::U8), |w| parse_width(w))?;
                let search = Search::new(self.snapshot(session)?, width);
                self.say(format!(
                    "new search ({}): {} candidates",
                    width_name(width),
                    search.len()
                ));
                self.search = Some(search);
            }
            "snap" => {
                let now = self.snapshot(session)?;
                self.search_mut()?.rebase(now);
            }
            "show" => {
                let limit = match words.get(1) {
                    Some(t) => t
                        .parse::<usize>()
                        .map_err(|_| format!("show: '{t}' is not a count"))?,
                    None => 20,
                };
                self.show(limit)?;
            }
            "peek" => {
                let addr = parse_addr(arg(1)?)?;
                let len = words
                    .get(2)
                    .map_or(Ok(1), |t| parse_value(t))?
                    .clamp(1, 256);
                let m = session.machine();
                let bytes: Vec<String> = (0..len)
                    .map(|i| format!("{:02X}", m.peek(addr.wrapping_add(i as u16))))
                    .collect();
                self.say(format!("${addr:04X}: {}", bytes.join(" ")));
            }
            "watch" => {
                let watch = parse_watch(arg(1)?, words.get(2).copied())?;
                self.watches.push(watch);
                session.machine_mut().set_watches(self.watches.clone());
            }
            "unwatch" => {
                self.watches.clear();
                session.machine_mut().set_watches(Vec::new());
            }
            "name" => self.name(session, arg(1)?, words.get(2).copied())?,
            "export" => self.export(session, arg(1)?)?,
            "reset" => session.reset(),
            "power" => session.power(),
            "quit" | "exit" => return Ok(Next::Quit),
            "help" => {
                for l in COMMANDS.lines() {
                    self.say(l.to_string());
                }
            }
            _ => {
                let text = if first == "filter" {
                    words[1..].join(" ")
                } else {
                    line.to_string()
                };
                let test = Test::parse(&text).map_err(|e| {
                    if first == "filter" {
                        e
                    } else {
                        format!("unknown command '{first}' (help lists them)")
                    }
                })?;
                let now = self.snapshot(session)?;
                let left = self.search_mut()?.filter(now, test);
                self.say(format!("{text}: {left} left"));
            }
        }
        Ok(Next::Go)
    }

    fn search_mut(&mut self) -> Result<&mut Search, String> {
        self.search
            .as_mut()
            .ok_or_else(|| "no search yet: start one with 'new'".to_string())
    }

    fn show(&mut self, limit: usize) -> Result<(), String> {
        let s = self
            .search
            .as_ref()
            .ok_or("no search yet: start one with 'new'")?;
        let survivors = s.survivors();
        let mut lines = vec![format!("{} candidates", survivors.len())];
        for v in survivors.iter().take(limit) {
            lines.push(format!("  ${:04X} = {} (${:X})", v.addr, v.value, v.value));
        }
        if survivors.len() > limit {
            lines.push(format!("  ... {} more", survivors.len() - limit));
        }
        for l in lines {
            self.say(l);
        }
        Ok(())
    }

    fn name(&mut self, session: &Session, name: &str, addr: Option<&str>) -> Result<(), String> {
        let width = self.search.as_ref().map_or(Width::U8, Search::width);
        let addr = match addr {
            Some(a) => parse_addr(a)?,
            None => match self.search.as_ref().map(Search::addresses) {
                Some([one]) => *one,
                Some(list) => {
                    return Err(format!(
                        "name: {} candidates are left, not one (give an address)",
                        list.len()
                    ));
                }
                None => return Err("name: no search yet (give an address)".into()),
            },
        };
        let value = self
            .snapshot(session)?
            .value(addr, width)
            .ok_or_else(|| format!("name: ${addr:04X} is not in RAM or cartridge RAM"))?;
        self.names.insert(
            name.to_string(),
            Variable {
                addr,
                width: width_name(width).to_string(),
                value,
            },
        );
        self.say(format!("{name} = ${addr:04X}"));
        Ok(())
    }

    fn export(&mut self, session: &Session, path: &str) -> Result<(), String> {
        let info = &session.rom().info;
        let entry = Entry {
            name: info.file_name.clone(),
            crc32: vec![info.crc32],
            variables: self.names.clone(),
        };
        let text = entry.to_ron();
        if path == "-" {
            for l in text.lines() {
                self.say(l.to_string());
            }
        } else {
            std::fs::write(path, text).map_err(|e| format!("export: cannot write {path}: {e}"))?;
            self.say(format!("wrote {} variable(s) to {path}", self.names.len()));
        }
        Ok(())
    }

    /// A command stopped before its frames ran out (Ctrl+C): a `press` lets go, and what
    /// the watches saw is reported.
    pub fn interrupted(&mut self, session: &Session, frames_left: u64) {
        self.end_press();
        self.say(format!(
            "interrupted at frame {} ({frames_left} frame(s) of the command not run)",
            session.machine().frame_number()
        ));
        self.report_hits();
    }

    /// After a frame that no command asked for (the window between commands): the watch
    /// hits, reported at most once a second.
    pub fn after_free_frame(&mut self, session: &mut Session) {
        self.take_hits(session);
        if self.seen.is_empty() {
            return;
        }
        let now = std::time::Instant::now();
        if self
            .last_free_report
            .is_none_or(|t| now.duration_since(t) >= FREE_REPORT_EVERY)
        {
            self.last_free_report = Some(now);
            self.report_hits();
        }
    }

    /// After each frame of a command: the held buttons and the watch hits. `release` ends a
    /// `press`.
    pub fn after_frame(&mut self, session: &mut Session, frames_left: u64) {
        self.take_hits(session);
        if frames_left == 0 {
            self.end_press();
            self.report_hits();
        }
    }

    /// A `press` lets go of its buttons.
    fn end_press(&mut self) {
        if let Some((_, pad)) = self.release_after.take() {
            self.held[pad] = Buttons::NONE;
        }
    }

    fn take_hits(&mut self, session: &mut Session) {
        if !self.watches.is_empty() {
            session.machine_mut().take_watch_hits(&mut self.hits);
            let frame = session.machine().frame_number();
            for h in &self.hits {
                if self.seen.len() < 10_000 {
                    self.seen.push(*h);
                }
                log::debug!(
                    "frame {frame}: {:?} ${:04X} = {:02X}",
                    h.kind,
                    h.addr,
                    h.value
                );
            }
        }
    }

    /// One line per watch with its hits since the last report.
    fn report_hits(&mut self) {
        let seen = std::mem::take(&mut self.seen);
        for (i, (kind, range)) in self.watches.clone().iter().enumerate() {
            let mine: Vec<&WatchHit> = seen.iter().filter(|h| h.watch == i).collect();
            let Some(last) = mine.last() else {
                continue;
            };
            self.say(format!(
                "watch ${:04X}-${:04X} {kind:?}: {} hit(s), last ${:04X} = {:02X}",
                range.start(),
                range.end(),
                mine.len(),
                last.addr,
                last.value
            ));
        }
    }
}
