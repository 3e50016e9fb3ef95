//! Finding the board from a start position: every 7 x 7 array in work RAM or cartridge RAM,
//! at any row stride and one or two bytes per cell, whose corners hold player pieces as a
//! game starts (2 players: one code on two opposite corners, another on the other two; 3-4
//! players: a different code per corner, one corner empty with 3) and whose other 45 cells
//! hold at most two values (empty and blocked).
//!
//! The array's axes need not be the screen's: it may be stored transposed or upside down.
//! Which way round it is comes out of the first move (`experiment.rs`).

use nesmind_host::ramsearch::{PRG_RAM, Snapshot, WORK_RAM};

/// The widest row stride considered (bytes).
const MAX_ROW_STEP: i32 = 40;

/// A candidate board: cell (i, j) of the array is at `addr + i * row_step + j * col_step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub addr: u16,
    pub row_step: i16,
    pub col_step: i16,
    /// The most common value of the 45 cells off the corners ...
    pub empty: u8,
    /// ... and the other one, if there is one (blocked cells, or empty if blocks outnumber
    /// empty cells; the first move tells).
    pub other: Option<u8>,
    /// Array corners (0,0), (0,6), (6,0), (6,6).
    pub corners: [u8; 4],
}

impl Found {
    pub fn addr_of(&self, i: usize, j: usize) -> u16 {
        (i32::from(self.addr)
            + i as i32 * i32::from(self.row_step)
            + j as i32 * i32::from(self.col_step)) as u16
    }

    /// The array's cells in array order (i * 7 + j).
    pub fn read(&self, s: &Snapshot) -> [u8; 49] {
        std::array::from_fn(|k| s.byte(self.addr_of(k / 7, k % 7)).unwrap_or(0))
    }

    /// Distinct player codes on the corners.
    pub fn player_codes(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self
            .corners
            .iter()
            .copied()
            .filter(|&c| c != self.empty && Some(c) != self.other)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// Every start position in the snapshot.
pub fn scan(s: &Snapshot) -> Vec<Found> {
    let mut out = Vec::new();
    let areas = [Some(WORK_RAM), s.has_prg_ram().then_some(PRG_RAM)];
    for area in areas.into_iter().flatten() {
        let bytes: Vec<u8> = area.clone().map(|a| s.byte(a).unwrap_or(0)).collect();
        let start = i32::from(*area.start());
        let len = bytes.len() as i32;
        for col_step in [1i32, 2] {
            // The top row first: it alone rules out almost every place (and needs no
            // stride); the bottom row next, then the whole array.
            for base in 0..len - 6 * col_step {
                if !row_ok(&bytes, base, col_step) {
                    continue;
                }
                for row_step in 7 * col_step..=MAX_ROW_STEP {
                    let bottom = base + 6 * row_step;
                    if bottom + 6 * col_step >= len || !row_ok(&bytes, bottom, col_step) {
                        continue;
                    }
                    if let Some(f) = check(&bytes, base, row_step, col_step) {
                        out.push(Found {
                            addr: (start + base) as u16,
                            ..f
                        });
                    }
                }
            }
        }
    }
    out
}

/// A top or bottom row of a start position: at most two values between the corners, and a
/// piece (a value not among them) on at least one corner.
fn row_ok(b: &[u8], at: i32, step: i32) -> bool {
    let cell = |k: i32| b[(at + k * step) as usize];
    let (first, mut second) = (cell(1), None);
    for k in 2..6 {
        let v = cell(k);
        if v != first {
            match second {
                None => second = Some(v),
                Some(x) if x == v => {}
                Some(_) => return false,
            }
        }
    }
    let inside = |v: u8| v == first || Some(v) == second;
    !inside(cell(0)) || !inside(cell(6))
}

fn check(b: &[u8], base: i32, rs: i32, cs: i32) -> Option<Found> {
    let at = |i: i32, j: i32| b[(base + i * rs + j * cs) as usize];
    let corners = [at(0, 0), at(0, 6), at(6, 0), at(6, 6)];
    let [a, b1, c, d] = corners;
    // Cheap first: two diagonal pairs (2 players) or at least three different corners.
    let two = a == d && b1 == c && a != b1;
    let equal_pairs = [a == b1, a == c, a == d, b1 == c, b1 == d, c == d]
        .iter()
        .filter(|&&e| e)
        .count();
    // At least three different corners: at most one equal pair.
    if !two && equal_pairs > 1 {
        return None;
    }
    let mut values: [(u8, u32); 2] = [(0, 0); 2];
    let mut kinds = 0;
    for i in 0..7 {
        for j in 0..7 {
            if (i == 0 || i == 6) && (j == 0 || j == 6) {
                continue;
            }
            let v = at(i, j);
            match values[..kinds].iter().position(|&(x, _)| x == v) {
                Some(k) => values[k].1 += 1,
                None if kinds < 2 => {
                    values[kinds] = (v, 1);
                    kinds += 1;
                }
                None => return None,
            }
        }
    }
    if kinds == 2 && values[1].1 > values[0].1 {
        values.swap(0, 1);
    }
    // At most 31 blocked cells (the limit of Spot's own layout editor on the Game Boy).
    if values[0].1 < 14 {
        return None;
    }
    let empty = values[0].0;
    let other = (kinds == 2).then_some(values[1].0);
    let is_piece = |v: u8| v != empty && Some(v) != other;
    let pieces = corners.iter().filter(|&&v| is_piece(v)).count();
    let ok = if two {
        is_piece(a) && is_piece(b1)
    } else {
        let empties = corners.iter().filter(|&&v| v == empty).count();
        let distinct_pieces = {
            let mut p: Vec<u8> = corners.iter().copied().filter(|&v| is_piece(v)).collect();
            p.sort_unstable();
            p.dedup();
            p.len()
        };
        distinct_pieces == pieces && (pieces == 4 || (pieces == 3 && empties == 1))
    };
    ok.then_some(Found {
        addr: 0,
        row_step: rs as i16,
        col_step: cs as i16,
        empty,
        other,
        corners,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(fill: impl Fn(&mut [u8], &mut [u8])) -> Snapshot {
        let mut ram = vec![0u8; 0x800];
        let mut prg = vec![0u8; 0x2000];
        fill(&mut ram, &mut prg);
        Snapshot::from_parts(0, ram, Some(prg)).unwrap()
    }

    #[test]
    fn finds_a_plain_board_and_a_padded_upside_down_one() {
        let s = snapshot(|ram, prg| {
            // $0380, stride 7: player codes 1 on 0/48, 2 on 6/42, a blocked centre.
            let b = 0x380;
            ram[b] = 1;
            ram[b + 48] = 1;
            ram[b + 6] = 2;
            ram[b + 42] = 2;
            ram[b + 24] = 5;
            // $6100: stride 11, two bytes a cell, empty $17, codes $5D / $A7, walls $98.
            for k in 0..11 * 22 {
                prg[0x100 + k] = 0x98;
            }
            for i in 0..7 {
                for j in 0..7 {
                    let code = match (i, j) {
                        (0, 0) | (6, 6) => 0xA7,
                        (0, 6) | (6, 0) => 0x5D,
                        _ => 0x17,
                    };
                    prg[0x100 + (i + 2) * 22 + (j + 2) * 2] = code;
                }
            }
        });
        let found = scan(&s);
        let plain = found
            .iter()
            .find(|f| f.addr == 0x0380)
            .expect("the plain board");
        assert_eq!((plain.row_step, plain.col_step), (7, 1));
        assert_eq!((plain.empty, plain.other), (0, Some(5)));
        assert_eq!(plain.player_codes(), vec![1, 2]);
        let padded = found
            .iter()
            .find(|f| f.addr == 0x6100 + 2 * 22 + 4)
            .expect("the padded board");
        assert_eq!((padded.row_step, padded.col_step), (22, 2));
        assert_eq!(padded.empty, 0x17);
        assert_eq!(padded.corners, [0xA7, 0x5D, 0x5D, 0xA7]);
        assert_eq!(found.len(), 2, "{found:?}");
    }

    #[test]
    fn four_players_and_three_with_an_empty_corner() {
        let s = snapshot(|ram, _| {
            for (k, c) in [(0, 9), (6, 8), (42, 7), (48, 6)] {
                ram[0x100 + k] = c;
            }
            for (k, c) in [(0, 9), (6, 8), (48, 6)] {
                ram[0x500 + k] = c;
            }
        });
        let found = scan(&s);
        // Sparse memory also lines up a few corner sets at other strides (the first move
        // weeds those out); the two boards are there, with their codes.
        let four = found
            .iter()
            .find(|f| (f.addr, f.row_step) == (0x100, 7))
            .unwrap();
        assert_eq!(four.player_codes(), vec![6, 7, 8, 9]);
        let three = found
            .iter()
            .find(|f| (f.addr, f.row_step) == (0x500, 7))
            .unwrap();
        assert_eq!(three.player_codes(), vec![6, 8, 9]);
    }

    #[test]
    fn noise_and_half_built_boards_are_not_boards() {
        let s = snapshot(|ram, _| {
            ram[0x380] = 1;
            ram[0x380 + 48] = 1;
            ram[0x380 + 6] = 2;
            ram[0x380 + 42] = 2;
            ram[0x380 + 10] = 3; // two more values inside: not a start position
            ram[0x380 + 11] = 4;
            ram[0x500] = 1;
            ram[0x506] = 1; // two equal neighbouring corners: not a start position
            ram[0x500 + 42] = 1;
            ram[0x500 + 48] = 1;
        });
        assert!(scan(&s).is_empty(), "{:?}", scan(&s));
    }
}
