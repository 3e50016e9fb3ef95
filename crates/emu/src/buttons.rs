//! Controller buttons as the NES shift register reports them (bit 0 = A is read first).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign, Not};

/// The eight buttons of one standard pad, packed in the order the console reads them.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Buttons(pub u8);

impl Buttons {
    pub const NONE: Buttons = Buttons(0);
    pub const A: Buttons = Buttons(0x01);
    pub const B: Buttons = Buttons(0x02);
    pub const SELECT: Buttons = Buttons(0x04);
    pub const START: Buttons = Buttons(0x08);
    pub const UP: Buttons = Buttons(0x10);
    pub const DOWN: Buttons = Buttons(0x20);
    pub const LEFT: Buttons = Buttons(0x40);
    pub const RIGHT: Buttons = Buttons(0x80);

    const NAMES: [(Buttons, &'static str); 8] = [
        (Buttons::A, "A"),
        (Buttons::B, "B"),
        (Buttons::SELECT, "Select"),
        (Buttons::START, "Start"),
        (Buttons::UP, "Up"),
        (Buttons::DOWN, "Down"),
        (Buttons::LEFT, "Left"),
        (Buttons::RIGHT, "Right"),
    ];

    pub fn bits(self) -> u8 {
        self.0
    }
    pub fn contains(self, other: Buttons) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Parses names such as "A+Right" or "start" (case-insensitive, `+` or `,` separated).
    pub fn parse(text: &str) -> Result<Buttons, String> {
        let mut out = Buttons::NONE;
        for part in text
            .split(['+', ','])
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let found = Buttons::NAMES
                .iter()
                .find(|(_, name)| name.eq_ignore_ascii_case(part))
                .ok_or_else(|| format!("unknown button '{part}' (expected A, B, Select, Start, Up, Down, Left, Right)"))?;
            out |= found.0;
        }
        Ok(out)
    }
}

impl BitOr for Buttons {
    type Output = Buttons;
    fn bitor(self, rhs: Buttons) -> Buttons {
        Buttons(self.0 | rhs.0)
    }
}
impl BitOrAssign for Buttons {
    fn bitor_assign(&mut self, rhs: Buttons) {
        self.0 |= rhs.0;
    }
}
impl BitAnd for Buttons {
    type Output = Buttons;
    fn bitand(self, rhs: Buttons) -> Buttons {
        Buttons(self.0 & rhs.0)
    }
}
impl Not for Buttons {
    type Output = Buttons;
    fn not(self) -> Buttons {
        Buttons(!self.0)
    }
}

impl fmt::Debug for Buttons {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Buttons {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        let names: Vec<&str> = Buttons::NAMES
            .iter()
            .filter(|(b, _)| self.contains(*b))
            .map(|(_, n)| *n)
            .collect();
        f.write_str(&names.join("+"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        let b = Buttons::parse("a+RIGHT").unwrap();
        assert_eq!(b, Buttons::A | Buttons::RIGHT);
        assert_eq!(b.to_string(), "A+Right");
        assert_eq!(Buttons::parse(&b.to_string()).unwrap(), b);
        assert!(Buttons::parse("jump").unwrap_err().contains("jump"));
    }
}
