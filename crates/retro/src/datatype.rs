//! The type codes of `data.json` variables (`|u1`, `>n6`, `<d4`, ...): how many bytes a
//! variable spans, in which order, and how each byte counts. Integrations describe a game's
//! score or lives this way, so the decoding must match stable-retro's digit for digit.
//!
//! A code is `<order><repr><width>`: order `<` little-endian, `>` big-endian, `|` one byte
//! (no order), `=` the host's order (little on every machine stable-retro ships for), and
//! the mixed orders `><`/`<>` (the halves in one order, the bytes within them in the other); repr `u` unsigned, `i` signed
//! (two's complement over the width), `d` packed BCD (two decimal digits a byte), `n` one
//! decimal digit in each byte's low nibble; width 1 to 8 bytes.

use std::fmt;

/// How each byte contributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    Unsigned,
    Signed,
    /// Two decimal digits per byte (high nibble tens, low nibble units).
    Bcd,
    /// One decimal digit per byte, in the low nibble; the high nibble is ignored.
    LowNibbleDigit,
}

/// A parsed type code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataType {
    code: String,
    width: usize,
    repr: Repr,
    /// The place value of each byte, indexed by its offset from the address.
    place: [u64; 8],
}

/// A type code stable-retro would not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadType {
    pub code: String,
    pub why: &'static str,
}

impl fmt::Display for BadType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "type {:?}: {}", self.code, self.why)
    }
}

impl std::error::Error for BadType {}

#[derive(Clone, Copy)]
enum Order {
    Little,
    Big,
    /// `><`: high half first, each half little-endian.
    MixedBl,
    /// `<>`: low half first, each half big-endian.
    MixedLb,
}

impl DataType {
    /// Parses a code such as `>n6`.
    pub fn parse(code: &str) -> Result<DataType, BadType> {
        let bad = |why| BadType {
            code: code.to_string(),
            why,
        };
        let b = code.as_bytes();
        if b.len() < 3 || !code.is_ascii() {
            return Err(bad("expected <order><repr><width>, e.g. >u2"));
        }
        let width = match b[b.len() - 1] {
            d @ b'1'..=b'8' => usize::from(d - b'0'),
            _ => return Err(bad("the width (last character) must be 1 to 8 bytes")),
        };
        let repr = match b[b.len() - 2] {
            b'u' => Repr::Unsigned,
            b'i' => Repr::Signed,
            b'd' => Repr::Bcd,
            b'n' => Repr::LowNibbleDigit,
            _ => return Err(bad("the representation must be u, i, d or n")),
        };
        // stable-retro reads the order from the first one or two characters; `=` is the
        // host's order, and its mixed forms reduce as on a little-endian host.
        let order = match (b[0], b.get(1).copied()) {
            (b'>', Some(b'<')) | (b'>', Some(b'=')) => Order::MixedBl,
            (b'<', Some(b'>')) => Order::MixedLb,
            (b'>', _) => Order::Big,
            (b'<', _) | (b'=', _) | (b'|', _) => Order::Little,
            _ => return Err(bad("the byte order must be <, >, | or =")),
        };
        let step: u64 = match repr {
            Repr::Bcd => 100,
            Repr::LowNibbleDigit => 10,
            _ => 256,
        };
        let mut place = [0u64; 8];
        let mut value = 1u64;
        let mut set = |i: usize| {
            place[i] = value;
            value = value.wrapping_mul(step);
        };
        match order {
            Order::Little => (0..width).for_each(&mut set),
            Order::Big => (0..width).rev().for_each(&mut set),
            // Place values run through one half, then carry on through the other.
            Order::MixedBl => {
                (width / 2..width).for_each(&mut set);
                (0..width / 2).for_each(&mut set);
            }
            Order::MixedLb => {
                (0..width / 2).rev().for_each(&mut set);
                (width / 2..width).rev().for_each(&mut set);
            }
        }
        Ok(DataType {
            code: code.to_string(),
            width,
            repr,
            place,
        })
    }

    /// The code as written in `data.json`.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Bytes the variable spans.
    pub fn width(&self) -> usize {
        self.width
    }

    pub fn repr(&self) -> Repr {
        self.repr
    }

    /// The value of `bytes` (exactly `width` of them, from the variable's address on).
    /// Digits above 9 in a decimal code count modulo 10, as stable-retro counts them.
    pub fn decode(&self, bytes: &[u8]) -> i64 {
        let mut value: u64 = 0;
        for (i, &b) in bytes.iter().take(self.width).enumerate() {
            let digits = match self.repr {
                Repr::Unsigned | Repr::Signed => u64::from(b),
                Repr::Bcd => u64::from(b & 0xF) % 10 + u64::from(b >> 4) % 10 * 10,
                Repr::LowNibbleDigit => u64::from(b & 0xF) % 10,
            };
            value = value.wrapping_add(digits.wrapping_mul(self.place[i]));
        }
        let value = value as i64;
        if self.repr == Repr::Signed && self.width < 8 {
            let unused = 64 - 8 * self.width as u32;
            (value << unused) >> unused
        } else {
            value
        }
    }

    /// The `width` bytes that decode to `value` (stable-retro's `set_value`): integers wrap
    /// to the width; a decimal code holds the value's last digits, a negative one as 0.
    pub fn encode(&self, value: i64) -> Vec<u8> {
        let decimal = matches!(self.repr, Repr::Bcd | Repr::LowNibbleDigit);
        let v = if decimal {
            value.max(0) as u64
        } else {
            value as u64
        };
        (0..self.width)
            .map(|i| {
                let place = self.place[i];
                // Past the 64-bit range a place value wraps to 0: those bytes hold nothing.
                let part = v.checked_div(place).unwrap_or(0);
                match self.repr {
                    Repr::Unsigned | Repr::Signed => (part & 0xFF) as u8,
                    Repr::Bcd => {
                        let two = part % 100;
                        (((two / 10) << 4) | (two % 10)) as u8
                    }
                    Repr::LowNibbleDigit => (part % 10) as u8,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_is_decode_reversed() {
        for (code, value) in [
            ("|u1", 200),
            ("|i1", -3),
            ("<u2", 0x1234),
            (">u3", 0x0A0B0C),
            (">i2", -2),
            ("><u4", 0x01020304),
            ("<>u4", 0x01020304),
            (">d3", 123456),
            ("<d2", 1234),
            (">n6", 654321),
            ("<n3", 987),
        ] {
            let t = DataType::parse(code).unwrap();
            assert_eq!(t.decode(&t.encode(value)), value, "{code}");
        }
        assert_eq!(DataType::parse(">d2").unwrap().encode(1234), [0x12, 0x34]);
        assert_eq!(DataType::parse("|u1").unwrap().encode(257), [1]);
        assert_eq!(DataType::parse(">n2").unwrap().encode(-5), [0, 0]);
    }

    fn dec(code: &str, bytes: &[u8]) -> i64 {
        DataType::parse(code).unwrap().decode(bytes)
    }

    #[test]
    fn integers_in_each_order() {
        assert_eq!(dec("|u1", &[0xFF]), 255);
        assert_eq!(dec("|i1", &[0xFF]), -1);
        assert_eq!(dec("<u2", &[0x34, 0x12]), 0x1234);
        assert_eq!(dec(">u2", &[0x12, 0x34]), 0x1234);
        assert_eq!(dec("<u3", &[1, 2, 3]), 0x030201);
        assert_eq!(dec(">u4", &[1, 2, 3, 4]), 0x01020304);
        assert_eq!(dec(">i2", &[0xFF, 0xFE]), -2);
        assert_eq!(dec("<i2", &[0x00, 0x80]), -32768);
        assert_eq!(dec("><u4", &[1, 2, 3, 4]), 0x02010403);
        assert_eq!(dec("<>u4", &[1, 2, 3, 4]), 0x03040102);
    }

    #[test]
    fn decimal_codes() {
        assert_eq!(dec(">d2", &[0x12, 0x34]), 1234);
        assert_eq!(dec("<d2", &[0x34, 0x12]), 1234);
        assert_eq!(dec("|d1", &[0x99]), 99);
        // A nibble above 9 counts modulo 10.
        assert_eq!(dec("|d1", &[0xAB]), 1);
        assert_eq!(dec(">n6", &[0, 1, 2, 3, 4, 5]), 12345);
        assert_eq!(dec("<n3", &[7, 8, 9]), 987);
        // The high nibble of an `n` byte is not a digit.
        assert_eq!(dec("|n1", &[0x37]), 7);
    }

    #[test]
    fn bad_codes_are_named() {
        for code in ["", "u1", "|x1", "|u9", "|u0", "?u1", "|uA"] {
            let e = DataType::parse(code).unwrap_err();
            assert!(e.to_string().contains(code), "{e}");
        }
    }
}
