//! What the harness knows about a DOTS cart: its RAM definitions, read from the cart's own
//! source (`cart/src/ram.inc`) and, for a variant, from the `variant.inc` that `build.sh
//! --variant` wrote. The Spot player is never given these; the harness uses them to set the
//! title menu, to check every move, and to compare what calibration found with the truth.

use crate::ram_map::{BoardShape, CellCodes, Cursor, RamMap, Screen, Seats, SpotMap, Turn};
use nesmind_host::{Buttons, Frame};
use std::collections::BTreeMap;

const RAM_INC: &str = include_str!("../../cart/src/ram.inc");

pub const PHASE_TITLE: u8 = 0;
pub const PHASE_PLAYING: u8 = 1;
pub const PHASE_OVER: u8 = 2;
pub const PHASE_SPLASH: u8 = 3;

/// Title menu lines: the four player slots, the layout, animations.
pub const MENU_LINES: usize = 6;
/// Menu value of a slot played through its pad (a person, or the plug-in).
pub const SETTING_HUMAN: u8 = 6;

/// Colour names the cart gives player slots 1-4.
pub const COLOURS: [&str; 4] = ["RED", "BLUE", "GOLD", "GREEN"];

/// The press that brings the title menu one step towards `wanted` (a value per line;
/// `None` leaves a line as it is), or `None` once every line shows what is wanted. The menu
/// answers every pad.
pub fn menu_press(
    frame: &dyn Frame,
    f: &CartFacts,
    wanted: &[Option<u8>; MENU_LINES],
) -> Option<Buttons> {
    let shown = |line: usize| -> u8 {
        match line {
            0..=3 => frame.peek(f.addr("SETTINGS") + line as u16),
            4 => frame.peek(f.addr("LAYOUT_CHOICE")),
            _ => frame.peek(f.addr("ANIM_ON")),
        }
    };
    let line = (0..MENU_LINES).find(|&l| wanted[l].is_some_and(|w| w != shown(l)))?;
    let row = frame.peek(f.addr("MENU_ROW")) as usize;
    Some(if row == line {
        Buttons::RIGHT
    } else {
        Buttons::DOWN
    })
}

/// The cart's definitions by name.
#[derive(Clone, Debug, PartialEq)]
pub struct CartFacts {
    values: BTreeMap<String, i64>,
    /// The variant seed, `None` for the cart as committed.
    pub seed: Option<u64>,
    /// A wide variant's art choices (the `; art:` line of its definitions).
    art: String,
}

impl CartFacts {
    /// The committed cart.
    pub fn dots() -> CartFacts {
        let mut f = CartFacts {
            values: BTreeMap::new(),
            seed: None,
            art: String::new(),
        };
        for line in RAM_INC.lines() {
            let code = line.split(';').next().unwrap_or("").trim();
            if let Some(rest) = code.strip_prefix("default ") {
                if let Some((name, value)) = rest.split_once(',') {
                    f.define(name.trim(), value.trim());
                }
            } else if let Some((name, value)) = code.split_once('=')
                && !name.trim().contains(' ')
            {
                f.define(name.trim(), value.trim());
            }
        }
        f
    }

    /// A variant: `variant.inc` as `build.sh --variant` writes it.
    pub fn variant(seed: u64, text: &str) -> Result<CartFacts, String> {
        let mut f = CartFacts::dots();
        f.seed = Some(seed);
        let mut base = CartFacts::dots();
        for line in text.lines() {
            if let Some(art) = line.strip_prefix("; art:") {
                f.art = art.trim().to_string();
            }
            let code = line.split(';').next().unwrap_or("").trim();
            if code.is_empty() {
                continue;
            }
            let (name, value) = code
                .split_once('=')
                .ok_or_else(|| format!("variant.inc: cannot read '{line}'"))?;
            base.define(name.trim(), value.trim());
        }
        // Names defined from others (DIAG + k) follow their base.
        for line in RAM_INC.lines() {
            let code = line.split(';').next().unwrap_or("").trim();
            if let Some((name, value)) = code.split_once('=')
                && !name.trim().contains(' ')
            {
                base.define(name.trim(), value.trim());
            }
        }
        f.values = base.values;
        for must in ["BOARD", "CURRENT", "CELL_EMPTY", "DIAG"] {
            f.values
                .get(must)
                .ok_or_else(|| format!("variant.inc: {must} missing"))?;
        }
        Ok(f)
    }

    fn define(&mut self, name: &str, value: &str) {
        if let Some(v) = self.eval(value) {
            self.values.insert(name.to_string(), v);
        }
    }

    /// `12`, `-7`, `$0F`, `NAME`, `NAME + 3`.
    fn eval(&self, text: &str) -> Option<i64> {
        if let Some((a, b)) = text.split_once('+') {
            return Some(self.eval(a.trim())? + self.eval(b.trim())?);
        }
        let t = text.trim();
        if let Some(h) = t.strip_prefix('$') {
            return i64::from_str_radix(h, 16).ok();
        }
        t.parse::<i64>()
            .ok()
            .or_else(|| self.values.get(t).copied())
    }

    /// A definition, if the cart has it.
    pub fn get(&self, name: &str) -> Option<i64> {
        self.values.get(name).copied()
    }

    /// The words of a wide variant's art choices (frame, empty and blocked styles, piece
    /// designs, hand and mark shapes); empty for the plain picture.
    pub fn art_words(&self) -> Vec<String> {
        self.art
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    }

    pub fn value(&self, name: &str) -> i64 {
        *self
            .values
            .get(name)
            .unwrap_or_else(|| panic!("the DOTS cart defines no {name}"))
    }

    pub fn addr(&self, name: &str) -> u16 {
        self.value(name) as u16
    }

    pub fn byte(&self, name: &str) -> u8 {
        self.value(name) as u8
    }

    /// Whether any board copy the harness reads lives in cartridge RAM.
    pub fn board_in_prg_ram(&self) -> bool {
        self.addr("BOARD") >= 0x6000
    }

    /// The address of screen cell (row, col) in the public board.
    fn cell_addr(&self, r: i64, c: i64) -> i64 {
        let o = self.value("BOARD_ORIENT");
        let (mut a, mut b) = if o & 1 == 1 { (c, r) } else { (r, c) };
        if o & 2 == 2 {
            a = 6 - a;
        }
        if o & 4 == 4 {
            b = 6 - b;
        }
        let pad = self.value("BOARD_PAD");
        self.value("BOARD")
            + (a + pad) * self.value("BOARD_STRIDE")
            + (b + pad) * self.value("BOARD_STEP")
    }

    /// How the cart stores its board (`STORAGE` in ram.inc): 0 the classic family, 1 a byte
    /// or record per cell with flags, 2 packed fields, 3 bit planes.
    pub fn storage(&self) -> i64 {
        self.values.get("STORAGE").copied().unwrap_or(0)
    }

    /// The test port's address.
    pub fn port(&self) -> u16 {
        self.addr("PORT")
    }

    /// The cart's RAM as a Spot map: the truth calibration should find, when a map can say
    /// it (the classic family's one byte per cell); `None` for the wide space's storage.
    pub fn truth_map(&self) -> Option<RamMap> {
        // A test build's late code (`-D LATE_MOVE`) is a second code for slot 1, which a map
        // (one code per slot) cannot say.
        if self.storage() != 0 || self.values.get("LATE_MOVE").is_some_and(|&m| m != 0) {
            return None;
        }
        let origin = self.cell_addr(0, 0);
        let cursor = if self.value("CURSOR_PAIR") == 1 {
            Cursor::Pair {
                x: self.addr("CURSOR_X"),
                x_origin: self.byte("X_ORIGIN"),
                x_step: self.value("X_STEP") as i16,
                y: self.addr("CURSOR_Y"),
                y_origin: self.byte("Y_ORIGIN"),
                y_step: self.value("Y_STEP") as i16,
            }
        } else {
            Cursor::Index {
                addr: self.addr("CURSOR"),
                origin: self.byte("CURSOR_ORIGIN"),
                row_step: self.value("CURSOR_ROW") as i16,
                col_step: self.value("CURSOR_COL") as i16,
            }
        };
        Some(RamMap {
            name: match self.seed {
                Some(s) => format!("DOTS variant {s}"),
                None => "DOTS".into(),
            },
            crc32: vec![0],
            game: SpotMap {
                board: BoardShape {
                    addr: origin as u16,
                    row_step: (self.cell_addr(1, 0) - origin) as i16,
                    col_step: (self.cell_addr(0, 1) - origin) as i16,
                },
                cells: CellCodes {
                    empty: self.byte("CELL_EMPTY"),
                    blocked: Some(self.byte("CELL_BLOCKED")),
                    players: ["CELL_P1", "CELL_P2", "CELL_P3", "CELL_P4"]
                        .map(|n| self.byte(n))
                        .to_vec(),
                },
                cursor,
                turn: Turn {
                    addr: self.addr("CURRENT"),
                    values: ["TURN_0", "TURN_1", "TURN_2", "TURN_3"]
                        .map(|n| self.byte(n))
                        .to_vec(),
                },
                pad_of_player: vec![0, 1, 2, 3],
                press_frames: 1,
                seats: Some(Seats {
                    settings: self.addr("SETTINGS"),
                    human: SETTING_HUMAN,
                    types: self.addr("TYPES"),
                    none: 0,
                }),
                screen: Some(Screen {
                    mode: self.addr("MODE"),
                    playfield: self.byte("MODE_PLAYFIELD"),
                    playing: self.addr("PLAYING"),
                    animation: self.addr("ANIMATION"),
                    idle: self.byte("ANIM_IDLE"),
                }),
                bonus: None,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ram_map::{BUILTIN_RAM_MAPS, parse_ram_maps};

    #[test]
    fn the_shipped_dots_entry_is_the_carts_own_definitions() {
        let facts = CartFacts::dots();
        assert_eq!(facts.addr("CART_PHASE"), 0x0700);
        assert_eq!(facts.addr("ANIM_ON"), 0x0709);
        let maps = parse_ram_maps(BUILTIN_RAM_MAPS, "built-in").unwrap();
        let shipped = maps.iter().find(|m| m.name.starts_with("DOTS")).unwrap();
        let mut truth = facts.truth_map().unwrap();
        truth.name = shipped.name.clone();
        truth.crc32 = shipped.crc32.clone();
        assert_eq!(&truth, shipped);
    }

    #[test]
    fn a_variant_moves_what_it_names_and_what_follows_from_it() {
        let text = "BOARD = $6100\nBOARD_STRIDE = 22\nBOARD_STEP = 2\nBOARD_PAD = 2\n\
                    BOARD_ORIENT = 2\nDIAG = $0445\nCELL_EMPTY = $17\nCURRENT = $0511\n";
        let f = CartFacts::variant(9, text).unwrap();
        assert_eq!(f.addr("CART_PHASE"), 0x0445);
        assert_eq!(f.addr("WINNER"), 0x044B);
        assert!(f.board_in_prg_ram());
        let m = f.truth_map().unwrap();
        // Rows upside down: screen row 0 is array row 6, two wall rows and cells below.
        assert_eq!(m.board.addr, 0x6100 + 8 * 22 + 2 * 2);
        assert_eq!((m.board.row_step, m.board.col_step), (-22, 2));
        assert!(CartFacts::variant(1, "BOARD $10").is_err());
        // Storage a RAM map cannot describe has no truth map.
        let wide = CartFacts::variant(3, "STORAGE = 2\nST_BITS = 3\n").unwrap();
        assert_eq!(wide.storage(), 2);
        assert!(wide.truth_map().is_none());
    }
}
