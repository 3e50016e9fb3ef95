//! The cartridge RAM map: where a Spot game keeps its board, cursor and turn, and how it
//! codes them. Calibration (`calibrate/`) finds these facts by experiment; a RON file (the
//! shipped `ram_maps.ron`, or `--plugin-opt ram_map=FILE`) records them, and `save_map=FILE`
//! writes what calibration found in the same format. Reading RAM through a map is in
//! `map_read.rs`.

use super::board::CELLS;
use super::position::MAX_PLAYERS;
use nesmind_host::RomInfo;
use nesmind_host::kit::{self, CartMap, GameMap, check_variable as check, is_variable};
use serde::Deserialize;
use std::fmt::Write as _;

pub use nesmind_host::kit::{find as find_ram_map, no_map_for};

/// The maps shipped with the plug-in.
pub const BUILTIN_RAM_MAPS: &str = include_str!("../ram_maps.ron");

/// A Spot cartridge's map: the catalogue header (name, CRC32s) and [`SpotMap`].
pub type RamMap = CartMap<SpotMap>;

/// What the player knows of one Spot cartridge, besides its name and CRCs.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SpotMap {
    pub board: BoardShape,
    pub cells: CellCodes,
    pub cursor: Cursor,
    pub turn: Turn,
    /// The pad (0-3) that plays each player slot.
    pub pad_of_player: Vec<usize>,
    /// Frames a button is held for one press (and then released as long).
    #[serde(default = "one")]
    pub press_frames: u8,
    /// Who plays each slot (calibration does not find this; without it the player asks the
    /// game, by trying the pad on a fork).
    #[serde(default)]
    pub seats: Option<Seats>,
    /// Screen and animation state (without it: the board and the pad's effect on a fork).
    #[serde(default)]
    pub screen: Option<Screen>,
    /// The bonus game (without it the player expects none).
    #[serde(default)]
    pub bonus: Option<Bonus>,
}

fn one() -> u8 {
    1
}

/// Cell (row, col), row 0 at the top of the screen, sits at
/// `addr + row * row_step + col * col_step`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BoardShape {
    pub addr: u16,
    pub row_step: i16,
    pub col_step: i16,
}

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CellCodes {
    pub empty: u8,
    /// `None` until a layout with blocked cells has been seen.
    pub blocked: Option<u8>,
    /// One code per player slot in the game; slot 0 starts on cells 0 and 48.
    pub players: Vec<u8>,
}

/// The hand cursor, with row 0 at the top and column 0 at the left of the screen.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub enum Cursor {
    /// One byte: `origin + row * row_step + col * col_step` (wrapping at 256).
    Index {
        addr: u16,
        origin: u8,
        row_step: i16,
        col_step: i16,
    },
    /// Two bytes: `x_origin + col * x_step` and `y_origin + row * y_step` (wrapping).
    Pair {
        x: u16,
        x_origin: u8,
        x_step: i16,
        y: u16,
        y_origin: u8,
        y_step: i16,
    },
}

/// The byte that says whose turn it is, and its value for each slot.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub addr: u16,
    pub values: Vec<u8>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Seats {
    /// 4 bytes: 1-5 computer level, `human` for a pad-played slot.
    pub settings: u16,
    pub human: u8,
    /// 4 bytes: `none` for a slot not in the game.
    pub types: u16,
    pub none: u8,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Screen {
    pub mode: u16,
    pub playfield: u8,
    /// Non-zero while a game is in play.
    pub playing: u16,
    pub animation: u16,
    pub idle: u8,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Bonus {
    pub secret_square: u16,
    pub secret_used: u8,
    pub game: u16,
    pub game_active: u8,
    pub reels: u16,
    pub reel_positions: u8,
    pub reel_spot: u8,
    pub reel_cherry: u8,
    pub reel_arcadia: u8,
    pub reel_seven_up: u8,
    pub prize_mode: u16,
    pub prize_none: u8,
    pub prize_cherry: u8,
    pub prize_swap: u8,
    /// Reel steps between the frame an A press is seen and the stop.
    pub reel_stop_lead: u8,
}

/// Parses a list of maps and checks each one.
pub fn parse_ram_maps(text: &str, origin: &str) -> Result<Vec<RamMap>, String> {
    kit::parse(text, origin)
}

/// Reads a map file (`ram_map=FILE`).
pub fn load_ram_maps(path: &str) -> Result<Vec<RamMap>, String> {
    kit::load(path)
}

/// The name of the game when a shipped map lists this dump (`Entry::knows`).
pub fn known_game(rom: &RomInfo) -> Option<String> {
    kit::known_game::<SpotMap>(BUILTIN_RAM_MAPS, rom)
}

fn readable(addr: i32) -> bool {
    u16::try_from(addr).is_ok_and(is_variable)
}

impl SpotMap {
    pub fn players(&self) -> usize {
        self.cells.players.len()
    }

    fn check_fields(&self) -> Result<(), String> {
        let n = self.players();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(format!("cells.players lists {n} codes (2-4 player slots)"));
        }
        if self.turn.values.len() != n || self.pad_of_player.len() != n {
            return Err(format!(
                "turn.values and pad_of_player need {n} entries, one per player slot"
            ));
        }
        let mut addrs: Vec<i32> = (0..CELLS).map(|c| self.cell_addr_i32(c)).collect();
        if let Some(a) = addrs.iter().find(|&&a| !readable(a)) {
            return Err(format!(
                "board cell at ${a:04X} is outside work RAM and cartridge RAM"
            ));
        }
        addrs.sort_unstable();
        addrs.dedup();
        if addrs.len() != CELLS {
            return Err("board: two cells share an address".into());
        }
        let mut codes = vec![self.cells.empty];
        codes.extend(self.cells.blocked);
        codes.extend(&self.cells.players);
        if !all_distinct(&codes) {
            return Err(format!("cell codes must differ: {codes:02X?}"));
        }
        if !all_distinct(&self.turn.values) {
            return Err(format!(
                "turn values must differ: {:02X?}",
                self.turn.values
            ));
        }
        check("turn", self.turn.addr, 1)?;
        for (name, addr) in self.cursor.addresses() {
            check(name, addr, 1)?;
        }
        let mut seen: Vec<Vec<u8>> = (0..CELLS as u8).map(|c| self.cursor.bytes(c)).collect();
        seen.sort();
        seen.dedup();
        if seen.len() != CELLS {
            return Err("cursor: two cells give the same cursor bytes".into());
        }
        if let Some(p) = self.pad_of_player.iter().find(|&&p| p >= MAX_PLAYERS) {
            return Err(format!("pad_of_player: pad {p} does not exist (0-3)"));
        }
        if self.press_frames == 0 {
            return Err("press_frames must be at least 1".into());
        }
        if let Some(s) = &self.seats {
            check("seats.settings", s.settings, 4)?;
            check("seats.types", s.types, 4)?;
        }
        if let Some(s) = &self.screen {
            check("screen.mode", s.mode, 1)?;
            check("screen.playing", s.playing, 1)?;
            check("screen.animation", s.animation, 1)?;
        }
        if let Some(b) = &self.bonus {
            check("bonus.secret_square", b.secret_square, 1)?;
            check("bonus.game", b.game, 1)?;
            check("bonus.reels", b.reels, 3)?;
            check("bonus.prize_mode", b.prize_mode, 1)?;
            if b.reel_positions == 0 {
                return Err("bonus.reel_positions must be positive".into());
            }
        }
        Ok(())
    }

    fn cell_addr_i32(&self, cell: usize) -> i32 {
        let (r, c) = ((cell / 7) as i32, (cell % 7) as i32);
        i32::from(self.board.addr)
            + r * i32::from(self.board.row_step)
            + c * i32::from(self.board.col_step)
    }

    /// The address of cell `cell` (row * 7 + col).
    pub fn cell_addr(&self, cell: usize) -> u16 {
        self.cell_addr_i32(cell) as u16
    }

    /// The fields as RON, in the layout of `ram_maps.ron`.
    fn to_ron_fields(&self) -> String {
        let mut s = String::new();
        let h2 = |v: u8| format!("0x{v:02X}");
        let h4 = |v: u16| format!("0x{v:04X}");
        let list = |v: &[u8]| v.iter().map(|&b| h2(b)).collect::<Vec<_>>().join(", ");
        let b = &self.board;
        let _ = writeln!(
            s,
            "    board: (addr: {}, row_step: {}, col_step: {}),",
            h4(b.addr),
            b.row_step,
            b.col_step
        );
        let blocked = self
            .cells
            .blocked
            .map_or("None".into(), |v| format!("Some({})", h2(v)));
        let _ = writeln!(
            s,
            "    cells: (empty: {}, blocked: {blocked}, players: [{}]),",
            h2(self.cells.empty),
            list(&self.cells.players)
        );
        let cursor = match self.cursor {
            Cursor::Index {
                addr,
                origin,
                row_step,
                col_step,
            } => format!(
                "Index(addr: {}, origin: {}, row_step: {row_step}, col_step: {col_step})",
                h4(addr),
                h2(origin)
            ),
            Cursor::Pair {
                x,
                x_origin,
                x_step,
                y,
                y_origin,
                y_step,
            } => format!(
                "Pair(x: {}, x_origin: {}, x_step: {x_step}, y: {}, y_origin: {}, y_step: {y_step})",
                h4(x),
                h2(x_origin),
                h4(y),
                h2(y_origin)
            ),
        };
        let _ = writeln!(s, "    cursor: {cursor},");
        let _ = writeln!(
            s,
            "    turn: (addr: {}, values: [{}]),",
            h4(self.turn.addr),
            list(&self.turn.values)
        );
        let pads: Vec<String> = self.pad_of_player.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(s, "    pad_of_player: [{}],", pads.join(", "));
        let _ = writeln!(s, "    press_frames: {},", self.press_frames);
        if let Some(x) = &self.seats {
            let _ = writeln!(
                s,
                "    seats: Some((settings: {}, human: {}, types: {}, none: {})),",
                h4(x.settings),
                h2(x.human),
                h4(x.types),
                h2(x.none)
            );
        }
        if let Some(x) = &self.screen {
            let _ = writeln!(
                s,
                "    screen: Some((mode: {}, playfield: {}, playing: {}, animation: {}, idle: {})),",
                h4(x.mode),
                h2(x.playfield),
                h4(x.playing),
                h4(x.animation),
                h2(x.idle)
            );
        }
        if let Some(x) = &self.bonus {
            let _ = writeln!(
                s,
                "    bonus: Some((secret_square: {}, secret_used: {}, game: {}, game_active: {},\n        \
                 reels: {}, reel_positions: {}, reel_spot: {}, reel_cherry: {}, reel_arcadia: {},\n        \
                 reel_seven_up: {}, prize_mode: {}, prize_none: {}, prize_cherry: {}, prize_swap: {},\n        \
                 reel_stop_lead: {})),",
                h4(x.secret_square),
                h2(x.secret_used),
                h4(x.game),
                h2(x.game_active),
                h4(x.reels),
                x.reel_positions,
                h2(x.reel_spot),
                h2(x.reel_cherry),
                h2(x.reel_arcadia),
                h2(x.reel_seven_up),
                h4(x.prize_mode),
                h2(x.prize_none),
                h2(x.prize_cherry),
                h2(x.prize_swap),
                x.reel_stop_lead
            );
        }
        s
    }
}

impl GameMap for SpotMap {
    const WHAT: &'static str = "Spot RAM map";
    fn validate(&self) -> Result<(), String> {
        self.check_fields()
    }
    fn ron_fields(&self) -> Result<String, String> {
        Ok(self.to_ron_fields())
    }
}

impl Cursor {
    /// (name, address) of each byte.
    pub fn addresses(&self) -> Vec<(&'static str, u16)> {
        match *self {
            Cursor::Index { addr, .. } => vec![("cursor", addr)],
            Cursor::Pair { x, y, .. } => vec![("cursor x", x), ("cursor y", y)],
        }
    }

    /// The bytes the cursor holds on cell `cell` (row * 7 + col).
    pub fn bytes(&self, cell: u8) -> Vec<u8> {
        let (r, c) = (i32::from(cell / 7), i32::from(cell % 7));
        let at = |origin: u8, dr: i16, dc: i16| {
            (i32::from(origin) + r * i32::from(dr) + c * i32::from(dc)).rem_euclid(256) as u8
        };
        match *self {
            Cursor::Index {
                origin,
                row_step,
                col_step,
                ..
            } => vec![at(origin, row_step, col_step)],
            Cursor::Pair {
                x_origin,
                x_step,
                y_origin,
                y_step,
                ..
            } => {
                vec![at(x_origin, 0, x_step), at(y_origin, y_step, 0)]
            }
        }
    }
}

fn all_distinct(v: &[u8]) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.dedup();
    s.len() == v.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_maps_load_and_bad_maps_are_named() {
        let maps = parse_ram_maps(BUILTIN_RAM_MAPS, "builtin").unwrap();
        assert!(maps[0].crc32.contains(&0xCFAE9DFA));
        assert_eq!(maps[0].board.addr, 0x0380);
        assert!(maps[0].bonus.is_some() && maps[1].bonus.is_none());
        let bad = BUILTIN_RAM_MAPS.replacen(
            "(addr: 0x0380, row_step: 7",
            "(addr: 0x07F0, row_step: 7",
            1,
        );
        let e = parse_ram_maps(&bad, "x.ron").unwrap_err();
        assert!(e.contains("board cell at $0"), "{e}");
        let typo = BUILTIN_RAM_MAPS.replacen("        cursor: Index", "        cursr: Index", 1);
        let e = parse_ram_maps(&typo, "y.ron").unwrap_err();
        assert!(
            e.starts_with("y.ron: bad Spot RAM map") && e.contains("cursr"),
            "{e}"
        );
        let same = BUILTIN_RAM_MAPS.replacen("blocked: Some(0x05)", "blocked: Some(0x00)", 1);
        assert!(
            parse_ram_maps(&same, "z")
                .unwrap_err()
                .contains("cell codes")
        );
        let short =
            BUILTIN_RAM_MAPS.replacen("values: [0x00, 0x01, 0x02, 0x03]", "values: [0x00]", 1);
        assert!(
            parse_ram_maps(&short, "w")
                .unwrap_err()
                .contains("one per player slot")
        );
    }

    #[test]
    fn a_map_written_out_reads_back_the_same() {
        let mut maps = parse_ram_maps(BUILTIN_RAM_MAPS, "builtin").unwrap();
        let mut calibrated = maps[1].clone();
        calibrated.name = "variant 7 (calibrated)".into();
        calibrated.board = BoardShape {
            addr: 0x6120,
            row_step: -22,
            col_step: 2,
        };
        calibrated.cells = CellCodes {
            empty: 0x17,
            blocked: None,
            players: vec![0xA7, 0x5D],
        };
        calibrated.cursor = Cursor::Pair {
            x: 0x07,
            x_origin: 0x58,
            x_step: 24,
            y: 0x062E,
            y_origin: 0x99,
            y_step: -8,
        };
        calibrated.turn = Turn {
            addr: 0x0511,
            values: vec![0x40, 0x80],
        };
        calibrated.pad_of_player = vec![0, 1];
        calibrated.press_frames = 2;
        calibrated.seats = None;
        calibrated.screen = None;
        maps.push(calibrated);
        for m in &maps {
            let back = parse_ram_maps(&kit::file_text(m).unwrap(), "saved").unwrap();
            assert_eq!(&back[0], m);
        }
    }
}
