//! Board layouts and start positions.
//!
//! How the cartridge numbers its 512 built-in layouts is not documented. The working hypothesis
//! (facts file, section 5) is that each layout is symmetric under the 8 symmetries of the square,
//! and that the 9 symmetry classes other than the corners are each blocked or open: 2^9 = 512.
//! `builtin_layout` is the one place that encodes this; the class order is a guess too.

use super::board::{FULL, SIDE, dilate1, ring2_union, shift, square};
use super::position::{MAX_PLAYERS, Position};

pub const BUILTIN_LAYOUTS: usize = 512;

/// Representatives (row, col) of the symmetry classes that may be blocked, bit 0 first.
const CLASS_REPRESENTATIVES: [(usize, usize); 9] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 1),
    (1, 2),
    (1, 3),
    (2, 2),
    (2, 3),
    (3, 3),
];

/// The symmetry class of a square, as the representative (r, c) with r <= c <= 3.
fn class_of(row: usize, col: usize) -> (usize, usize) {
    let fold = |x: usize| x.min(SIDE - 1 - x);
    let (a, b) = (fold(row), fold(col));
    (a.min(b), a.max(b))
}

/// Blocked squares of built-in layout `index` (0-511) under the symmetric-pattern hypothesis.
pub fn builtin_layout(index: usize) -> Result<u64, String> {
    if index >= BUILTIN_LAYOUTS {
        return Err(format!(
            "layout {index} out of range (built-in layouts are 0-511)"
        ));
    }
    let mut blocked = 0u64;
    for row in 0..SIDE {
        for col in 0..SIDE {
            let class = class_of(row, col);
            if let Some(bit) = CLASS_REPRESENTATIVES.iter().position(|&r| r == class)
                && index >> bit & 1 == 1
            {
                blocked |= 1u64 << square(row, col);
            }
        }
    }
    Ok(blocked)
}

/// Parses a custom layout: 7 rows of 7 characters, `#` or `-` blocked, `.` open
/// (rows separated by `/` or new lines).
pub fn parse_custom_layout(text: &str) -> Result<u64, String> {
    let rows: Vec<&str> = text
        .split(['/', '\n'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    if rows.len() != SIDE {
        return Err(format!(
            "custom layout needs {SIDE} rows, found {}",
            rows.len()
        ));
    }
    let mut blocked = 0u64;
    for (r, row) in rows.iter().enumerate() {
        if row.chars().count() != SIDE {
            return Err(format!(
                "custom layout row {} needs {SIDE} cells: '{row}'",
                r + 1
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '#' | '-' => blocked |= 1u64 << square(r, c),
                '.' => {}
                _ => {
                    return Err(format!(
                        "custom layout: unexpected '{ch}' in row {} (use '.' or '#')",
                        r + 1
                    ));
                }
            }
        }
    }
    Ok(blocked)
}

/// A layout given on the command line: a built-in number or a custom 7-row pattern.
pub fn parse_layout(text: &str) -> Result<u64, String> {
    match text.trim().parse::<usize>() {
        Ok(i) => builtin_layout(i),
        Err(_) => parse_custom_layout(text),
    }
}

/// Which lower corner the third player starts in (the cartridge offers both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThirdCorner {
    LowerLeft,
    LowerRight,
}

const TOP_LEFT: u8 = 0;
const TOP_RIGHT: u8 = (SIDE - 1) as u8;
const BOTTOM_LEFT: u8 = ((SIDE - 1) * SIDE) as u8;
const BOTTOM_RIGHT: u8 = (SIDE * SIDE - 1) as u8;

/// Start pieces per player. Two players hold opposite corner pairs; with 3 or 4 each
/// player holds one corner, clockwise from the top left (which colour gets which corner is a guess).
pub fn start_pieces(players: usize, third: ThirdCorner) -> Result<[u64; MAX_PLAYERS], String> {
    let bit = |sq: u8| 1u64 << sq;
    let mut p = [0u64; MAX_PLAYERS];
    match players {
        2 => {
            p[0] = bit(TOP_LEFT) | bit(BOTTOM_RIGHT);
            p[1] = bit(TOP_RIGHT) | bit(BOTTOM_LEFT);
        }
        3 => {
            p[0] = bit(TOP_LEFT);
            p[1] = bit(TOP_RIGHT);
            p[2] = bit(match third {
                ThirdCorner::LowerLeft => BOTTOM_LEFT,
                ThirdCorner::LowerRight => BOTTOM_RIGHT,
            });
        }
        4 => {
            p[0] = bit(TOP_LEFT);
            p[1] = bit(TOP_RIGHT);
            p[2] = bit(BOTTOM_RIGHT);
            p[3] = bit(BOTTOM_LEFT);
        }
        n => return Err(format!("Spot has 2-4 players, not {n}")),
    }
    Ok(p)
}

/// The opening position on a layout. Corners are never blocked (start squares).
pub fn start_position(
    players: usize,
    blocked: u64,
    third: ThirdCorner,
) -> Result<Position, String> {
    let pieces = start_pieces(players, third)?;
    let corners = pieces.iter().fold(0, |a, b| a | b);
    Position::new(players, blocked & FULL & !corners, pieces, 0)
}

/// Whether the players can ever affect each other: every player's reachable region must hold
/// another player's piece and two neighbouring open squares (without those no clone or
/// capture is possible, and pieces only hop back and forth). Some symmetric layouts fail
/// this; their games are decided (drawn) by the layout.
pub fn players_can_meet(blocked: u64, players: usize, third: ThirdCorner) -> bool {
    let Ok(pieces) = start_pieces(players, third) else {
        return false;
    };
    let open = FULL & !blocked;
    let all: u64 = pieces.iter().fold(0, |a, b| a | b);
    pieces[..players].iter().all(|&mine| {
        let mut region = mine;
        loop {
            let grown = (region | dilate1(region) | ring2_union(region)) & open;
            if grown == region {
                break;
            }
            region = grown;
        }
        let touching = (shift(region, 0, 1)
            | shift(region, 1, 0)
            | shift(region, 1, 1)
            | shift(region, 1, -1))
            & region;
        region & all & !mine != 0 && touching != 0
    })
}

/// Parses a libataxx-style FEN extended to 4 players: rows top to bottom, `x` `o` `y` `z` for
/// players 1-4, `-` blocked, digits for runs of empty squares, then the side to move.
/// Move counters after the side are accepted and ignored (Spot has no move limit).
pub fn parse_fen(text: &str, players: usize) -> Result<Position, String> {
    let mut parts = text.split_whitespace();
    let board = parts.next().ok_or("empty FEN")?;
    let side = parts.next().unwrap_or("x");
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != SIDE {
        return Err(format!("FEN '{text}': needs {SIDE} rows"));
    }
    let mut pieces = [0u64; MAX_PLAYERS];
    let mut blocked = 0u64;
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                c += d as usize;
                continue;
            }
            if c >= SIDE {
                return Err(format!("FEN '{text}': row {} too long", r + 1));
            }
            let bit = 1u64 << square(r, c);
            match ch {
                '-' => blocked |= bit,
                _ => {
                    pieces[player_letter(ch)
                        .ok_or_else(|| format!("FEN '{text}': bad character '{ch}'"))?] |= bit
                }
            }
            c += 1;
        }
        if c != SIDE {
            return Err(format!("FEN '{text}': row {} has {c} cells", r + 1));
        }
    }
    let side_char = side.chars().next().unwrap_or('x');
    let to_move =
        player_letter(side_char).ok_or_else(|| format!("FEN '{text}': bad side '{side}'"))?;
    Position::new(players, blocked, pieces, to_move)
}

/// The FEN [`parse_fen`] reads: the board and the side to move.
pub fn to_fen(pos: &Position) -> String {
    let mut rows = Vec::with_capacity(SIDE);
    for r in 0..SIDE {
        let (mut row, mut run) = (String::new(), 0);
        for c in 0..SIDE {
            let sq = square(r, c);
            let ch = if pos.blocked() >> sq & 1 == 1 {
                '-'
            } else if let Some(p) = pos.owner(sq) {
                LETTERS[p] as char
            } else {
                run += 1;
                continue;
            };
            if run > 0 {
                row.push_str(&run.to_string());
                run = 0;
            }
            row.push(ch);
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    format!("{} {}", rows.join("/"), LETTERS[pos.to_move()] as char)
}

const LETTERS: &[u8; MAX_PLAYERS] = b"xoyz";

fn player_letter(ch: char) -> Option<usize> {
    "xoyz".find(ch.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Bits, row_col};

    #[test]
    fn builtin_layouts_are_distinct_symmetric_and_keep_corners_open() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..BUILTIN_LAYOUTS {
            let b = builtin_layout(i).unwrap();
            assert!(seen.insert(b), "layout {i} repeats");
            for sq in Bits(b) {
                let (r, c) = row_col(sq);
                for (rr, cc) in [(c, r), (r, SIDE - 1 - c), (SIDE - 1 - r, c)] {
                    assert!(b >> square(rr, cc) & 1 == 1, "layout {i} not symmetric");
                }
            }
            assert_eq!(b & (1 | 1 << 6 | 1 << 42 | 1 << 48), 0);
        }
        assert_eq!(builtin_layout(511).unwrap().count_ones(), 45);
        assert!(!players_can_meet(
            builtin_layout(511).unwrap(),
            2,
            ThirdCorner::LowerLeft
        ));
        assert!(players_can_meet(
            builtin_layout(0).unwrap(),
            4,
            ThirdCorner::LowerLeft
        ));
        let walled = (0..BUILTIN_LAYOUTS)
            .filter(|&i| !players_can_meet(builtin_layout(i).unwrap(), 2, ThirdCorner::LowerLeft))
            .count();
        assert_eq!(walled, 25);
        assert!(builtin_layout(512).is_err());
    }

    #[test]
    fn custom_layout_and_fen_errors_name_the_problem() {
        assert!(parse_layout("..#..../7").unwrap_err().contains("rows"));
        let e =
            parse_custom_layout(".......\n.......\n.......\n...x...\n.......\n.......\n.......")
                .unwrap_err();
        assert!(e.contains("'x'"));
        assert_eq!(
            parse_layout("...#...\n.......\n.......\n.......\n.......\n.......\n.......").unwrap(),
            1 << 3
        );
        assert!(
            parse_fen("x5o/7/7/7/7/7/o5q x", 2)
                .unwrap_err()
                .contains("'q'")
        );
        assert!(parse_fen("x5o/7/7 x", 2).is_err());
        let p = parse_fen("x5o/7/7/7/7/7/o5x x 0 1", 2).unwrap();
        assert_eq!(p, start_position(2, 0, ThirdCorner::LowerLeft).unwrap());
        assert_eq!(to_fen(&p), "x5o/7/7/7/7/7/o5x x");
        for fen in ["x1-2-o/7/7/3y3/7/-5-/o4zx z", "7/7/7/7/7/7/xo5 o"] {
            assert_eq!(to_fen(&parse_fen(fen, 4).unwrap()), fen);
        }
    }
}
