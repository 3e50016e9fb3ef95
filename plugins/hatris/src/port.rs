//! The demo cartridge's test port (cart/README.md, "Test port"): every build writes reports
//! for test harnesses, byte by byte, to an address nothing on the board decodes. A harness
//! watches the writes (`Setup::watch`), feeds their values to a [`PortReader`] and gets
//! [`Report`]s: spawns with the piles read back through the cart's own storage, landings,
//! helpers, game over, and the check build's failures. Players are never told about it.

use nesmind_host::{AccessKind, Buttons, Fork, Frame, Plugin, Request, RomInfo, Setup, WatchHit};
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};

/// Addresses a harness watches: the whole unmapped $5000-$5FFF (the port is one of them).
pub const PORT_RANGE: RangeInclusive<u16> = 0x5000..=0x5FFF;
/// The format version this reader knows.
pub const VERSION: u8 = 1;

/// Six piles, each bottom first as types 1-6.
pub type Piles = [Vec<u8>; 6];

/// The state a pair spawned into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spawn {
    /// Pairs spawned this game, this one included.
    pub spawns: u32,
    pub shop: u8,
    pub stage: u8,
    pub cash: u64,
    /// The falling hats: (type 1-6, column 0-5).
    pub hats: [(u8, u8); 2],
    pub next: [u8; 2],
    /// The helper pool, oldest first: 1 Alexey, 2 Vladimir.
    pub pool: Vec<u8>,
    /// Pile heights in pixels.
    pub heights: [u8; 6],
    pub piles: Piles,
}

/// One report from the cart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// Power-on: the port's version and whether this is a check build.
    Hello {
        version: u8,
        check: bool,
    },
    /// A game starts (in `shop`; a later shop starts with its hats dealt).
    Start {
        shop: u8,
    },
    Spawn(Box<Spawn>),
    /// A hat landed on a pile (`quiet`: dealt between shops).
    Landed {
        col: u8,
        hat: u8,
        quiet: bool,
    },
    /// A stack of five vanished.
    Cleared {
        col: u8,
        hat: u8,
        quiet: bool,
    },
    /// A helper was called (1 Alexey, 2 Vladimir).
    Helper(u8),
    /// Alexey took the bottom hat of a pile.
    Take(u8),
    /// Vladimir swapped two piles.
    Swap(u8, u8),
    /// The game ended with these piles.
    Over {
        cash: u64,
        shop: u8,
        stage: u8,
        piles: Piles,
    },
    /// A shop was finished: the piles are emptied and dealt afresh (quiet landings follow).
    Refill {
        shop: u8,
    },
    /// The falling hats moved or swapped: (type, column) of each.
    Moved {
        hats: [(u8, u8); 2],
    },
    /// The pair split over unequal piles: the other hat stopped, hat `free` (0 or 1) hovers
    /// and falls on alone.
    Split {
        free: u8,
    },
    /// The check build found its storage disagreeing with its shadow, and stopped: what
    /// (1 a pile's count, 2 a pile's hat, 3 a falling hat, 4 a next hat, 5 the pool),
    /// which one, the value the storage decodes to and the shadow's (pile parts only).
    Fail {
        what: u8,
        which: u8,
        got: u8,
        want: u8,
    },
}

impl Report {
    /// The check build's failure in words.
    pub fn failure(&self) -> Option<String> {
        let Report::Fail {
            what,
            which,
            got,
            want,
        } = *self
        else {
            return None;
        };
        let thing = match what {
            1 => format!("pile {which}'s count"),
            2 => format!("a hat of pile {which}"),
            3 => format!("falling hat {which}"),
            4 => format!("next hat {which}"),
            5 => "the helper pool".to_string(),
            _ => format!("unknown part {what}/{which}"),
        };
        Some(format!(
            "the cart's self-check failed: {thing} disagrees with its shadow (stored {got}, \
             shadow {want})"
        ))
    }
}

/// Turns the port's bytes into reports; a report may arrive over several frames.
#[derive(Default, Clone, Debug)]
pub struct PortReader {
    bytes: Vec<u8>,
}

/// Reading from the front of a byte slice; `None` when it runs out.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }
    fn bytes<const N: usize>(&mut self) -> Option<[u8; N]> {
        let mut out = [0; N];
        for b in &mut out {
            *b = self.byte()?;
        }
        Some(out)
    }
    fn list(&mut self, max: u8, what: &str) -> Option<Result<Vec<u8>, String>> {
        let n = self.byte()?;
        if n > max {
            return Some(Err(format!("{what} of {n} entries")));
        }
        Some(Ok((0..n).map(|_| self.byte()).collect::<Option<_>>()?))
    }
    fn cash(&mut self) -> Option<u64> {
        let digits: [u8; 8] = self.bytes()?;
        Some(
            digits
                .iter()
                .rev()
                .fold(0, |acc, d| acc * 10 + *d as u64 % 10),
        )
    }
    fn piles(&mut self) -> Option<Result<Piles, String>> {
        let mut piles: Piles = Default::default();
        for pile in &mut piles {
            *pile = match self.list(64, "a pile")? {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            };
        }
        Some(Ok(piles))
    }
}

impl PortReader {
    /// Adds bytes written to the port; returns the reports they complete, in order. An
    /// unknown tag or an impossible field is an error (the stream cannot be trusted after).
    pub fn feed(&mut self, bytes: impl IntoIterator<Item = u8>) -> Result<Vec<Report>, String> {
        self.bytes.extend(bytes);
        let mut out = Vec::new();
        loop {
            let mut c = Cursor {
                bytes: &self.bytes,
                at: 0,
            };
            match parse(&mut c) {
                None => return Ok(out),
                Some(Err(e)) => {
                    let head: Vec<String> = self
                        .bytes
                        .iter()
                        .take(12)
                        .map(|b| format!("{b:02X}"))
                        .collect();
                    self.bytes.clear();
                    return Err(format!("test port: {e} (bytes {})", head.join(" ")));
                }
                Some(Ok(r)) => {
                    let used = c.at;
                    self.bytes.drain(..used);
                    out.push(r);
                }
            }
        }
    }
}

/// One report from the front of `c`; `None` while it is incomplete.
fn parse(c: &mut Cursor) -> Option<Result<Report, String>> {
    let tag = c.byte()?;
    let hat = |c: &mut Cursor| -> Option<(u8, u8)> { Some((c.byte()?, c.byte()?)) };
    Some(Ok(match tag {
        0xA0 => {
            let [version, check] = c.bytes()?;
            if version != VERSION {
                return Some(Err(format!(
                    "port version {version}, this reader knows {VERSION}"
                )));
            }
            Report::Hello {
                version,
                check: check != 0,
            }
        }
        0xA1 => {
            let [a, b, d] = c.bytes()?;
            let [shop, stage] = c.bytes()?;
            let cash = c.cash()?;
            let hats = [hat(c)?, hat(c)?];
            let next = c.bytes()?;
            let pool = match c.list(8, "a helper pool")? {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            };
            let heights = c.bytes()?;
            let piles = match c.piles()? {
                Ok(p) => p,
                Err(e) => return Some(Err(e)),
            };
            Report::Spawn(Box::new(Spawn {
                spawns: u32::from_le_bytes([a, b, d, 0]),
                shop,
                stage,
                cash,
                hats,
                next,
                pool,
                heights,
                piles,
            }))
        }
        0xA2 | 0xA3 => {
            let [col, hat, quiet] = c.bytes()?;
            let quiet = quiet != 0;
            if tag == 0xA2 {
                Report::Landed { col, hat, quiet }
            } else {
                Report::Cleared { col, hat, quiet }
            }
        }
        0xA4 => Report::Helper(c.byte()?),
        0xA5 => Report::Take(c.byte()?),
        0xA6 => {
            let [a, b] = c.bytes()?;
            Report::Swap(a, b)
        }
        0xA7 => {
            let cash = c.cash()?;
            let [shop, stage] = c.bytes()?;
            match c.piles()? {
                Ok(piles) => Report::Over {
                    cash,
                    shop,
                    stage,
                    piles,
                },
                Err(e) => return Some(Err(e)),
            }
        }
        0xA8 => Report::Refill { shop: c.byte()? },
        0xA9 => Report::Moved {
            hats: [hat(c)?, hat(c)?],
        },
        0xAA => Report::Start { shop: c.byte()? },
        0xAB => Report::Split { free: c.byte()? },
        0xAE => {
            let [what, which, got, want] = c.bytes()?;
            Report::Fail {
                what,
                which,
                got,
                want,
            }
        }
        _ => return Some(Err(format!("unknown report tag {tag:02X}"))),
    }))
}

/// What a [`PortTap`] has seen of the game so far.
#[derive(Default, Clone, Debug)]
pub struct PortLog {
    /// Whether the cart said hello (a cart without the port never does).
    pub hello: bool,
    pub check: bool,
    pub last_spawn: Option<Spawn>,
    /// Cash, level (shop * 10 + stage) and piles at game over.
    pub over: Option<(u64, u32, Piles)>,
    /// The first self-check failure or unreadable stream.
    pub error: Option<String>,
    /// Every report, when the tap was asked to keep them.
    pub reports: Vec<Report>,
    keep: bool,
}

impl PortLog {
    fn take(&mut self, r: Report) {
        match &r {
            Report::Hello { check, .. } => {
                self.hello = true;
                self.check = *check;
            }
            Report::Start { .. } => {
                self.last_spawn = None;
                self.over = None;
            }
            Report::Spawn(s) => self.last_spawn = Some((**s).clone()),
            Report::Over {
                cash,
                shop,
                stage,
                piles,
            } => self.over = Some((*cash, *shop as u32 * 10 + *stage as u32, piles.clone())),
            Report::Fail { .. } if self.error.is_none() => self.error = r.failure(),
            _ => {}
        }
        if self.keep {
            self.reports.push(r);
        }
    }
}

/// Feeds the port writes among `hits` (those of watch `id`) to `reader` and `log`.
pub fn read_hits(reader: &mut PortReader, log: &mut PortLog, hits: &[WatchHit], id: usize) {
    let bytes = hits
        .iter()
        .filter(|h| h.watch == id && h.kind == AccessKind::Write)
        .map(|h| h.value);
    match reader.feed(bytes) {
        Ok(reports) => reports.into_iter().for_each(|r| log.take(r)),
        Err(e) => {
            if log.error.is_none() {
                log.error = Some(e);
            }
        }
    }
}

/// A plug-in wrapped so that a harness can read the port while the plug-in plays: the
/// wrapped plug-in sees its own watches and hits only.
pub struct PortTap {
    inner: Box<dyn Plugin>,
    id: usize,
    reader: PortReader,
    log: Arc<Mutex<PortLog>>,
}

impl PortTap {
    /// Wraps `inner`; `keep` keeps every report in the log (else only the latest state).
    pub fn new(inner: Box<dyn Plugin>, keep: bool) -> (PortTap, Arc<Mutex<PortLog>>) {
        let log = Arc::new(Mutex::new(PortLog {
            keep,
            ..PortLog::default()
        }));
        let tap = PortTap {
            inner,
            id: usize::MAX,
            reader: PortReader::default(),
            log: log.clone(),
        };
        (tap, log)
    }
}

impl Plugin for PortTap {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn description(&self) -> &str {
        self.inner.description()
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.inner.on_attach(rom, setup)?;
        // Registered last, so the wrapped plug-in's watch ids are what it was given.
        self.id = setup.watch(AccessKind::Write, PORT_RANGE);
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let hits = frame.watch_hits();
        {
            let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
            read_hits(&mut self.reader, &mut log, hits, self.id);
        }
        let own: Vec<WatchHit> = hits
            .iter()
            .filter(|h| h.watch != self.id)
            .copied()
            .collect();
        let mut view = Filtered {
            inner: frame,
            hits: own,
        };
        self.inner.on_frame(&mut view);
    }
    fn on_detach(&mut self) {
        self.inner.on_detach();
    }
    fn result(&self) -> Option<String> {
        self.inner.result()
    }
    fn error(&self) -> Option<String> {
        self.inner.error()
    }
}

/// A frame whose watch hits leave out the tap's.
struct Filtered<'a> {
    inner: &'a mut dyn Frame,
    hits: Vec<WatchHit>,
}

impl Frame for Filtered<'_> {
    fn frame_number(&self) -> u64 {
        self.inner.frame_number()
    }
    fn peek(&self, addr: u16) -> u8 {
        self.inner.peek(addr)
    }
    fn ram(&self) -> &[u8] {
        self.inner.ram()
    }
    fn poke(&mut self, addr: u16, value: u8) {
        self.inner.poke(addr, value);
    }
    fn picture(&self) -> &[u16] {
        self.inner.picture()
    }
    fn peek_ppu(&self, addr: u16) -> u8 {
        self.inner.peek_ppu(addr)
    }
    fn oam(&self) -> &[u8] {
        self.inner.oam()
    }
    fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        self.inner.set_buttons(pad, buttons);
    }
    fn buttons(&self, pad: usize) -> Buttons {
        self.inner.buttons(pad)
    }
    fn watch_hits(&self) -> &[WatchHit] {
        &self.hits
    }
    fn set_status(&mut self, line: &str) {
        self.inner.set_status(line);
    }
    fn fork(&self) -> Option<Fork> {
        self.inner.fork()
    }
    fn request(&mut self, request: Request) {
        self.inner.request(request);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spawn_bytes() -> Vec<u8> {
        let mut b = vec![0xA1, 2, 1, 0, 0, 3];
        b.extend([0, 5, 0, 1, 0, 0, 0, 0]); // cash 1050, least significant digit first
        b.extend([1, 2, 4, 3, 6, 5]); // hats, next
        b.extend([2, 1, 2]); // pool
        b.extend([20, 0, 0, 0, 0, 0]);
        b.extend([1, 1, 0, 0, 0, 0, 0]);
        b
    }

    #[test]
    fn a_spawn_split_over_frames_reads_whole() {
        let bytes = spawn_bytes();
        let mut r = PortReader::default();
        assert_eq!(r.feed(bytes[..10].iter().copied()).unwrap(), vec![]);
        let got = r
            .feed(bytes[10..].iter().copied().chain([0xA5, 3]))
            .unwrap();
        assert_eq!(got.len(), 2);
        let Report::Spawn(s) = &got[0] else {
            panic!("{got:?}")
        };
        assert_eq!(s.spawns, 258);
        assert_eq!(s.cash, 1050);
        assert_eq!(s.hats, [(1, 2), (4, 3)]);
        assert_eq!(s.pool, vec![1, 2]);
        assert_eq!(s.piles[0], vec![1]);
        assert_eq!(got[1], Report::Take(3));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let mut r = PortReader::default();
        assert!(
            r.feed([0x12])
                .unwrap_err()
                .contains("unknown report tag 12")
        );
        let mut b = spawn_bytes();
        b[20] = 9; // a pool of 9
        assert!(r.feed(b).unwrap_err().contains("helper pool of 9"));
        assert!(r.feed([0xA0, 7, 0]).unwrap_err().contains("version 7"));
    }
}
