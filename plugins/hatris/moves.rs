//! Where a falling pair can end up.
//!
//! The pair enters above every pile (a pile taller than the entry height has already
//! ended the game), so it can reach any two adjacent columns in either order. It lands as
//! a whole when both piles are equally high; otherwise the hat over the taller pile stops
//! and the other keeps falling from that height. That free hat can still slide sideways,
//! away from the stopped hat, across piles lower than its bottom edge.

use super::board::Geometry;
use super::rules::COLUMNS;

/// Final columns of a pair: `first` receives the pair's first hat, `second` the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub first: u8,
    pub second: u8,
}

/// Up to 30 distinct placements, stored inline (this runs thousands of times per spawn).
#[derive(Clone, Copy, Debug)]
pub struct Placements {
    len: u8,
    items: [Placement; COLUMNS * (COLUMNS - 1)],
}

impl Placements {
    pub fn as_slice(&self) -> &[Placement] {
        &self.items[..self.len as usize]
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn contains(&self, p: Placement) -> bool {
        self.as_slice().contains(&p)
    }
}

/// Every distinct placement of a pair whose hats are `same` type or not.
pub fn placements(geo: &Geometry, heights: &[i16; COLUMNS], same: bool) -> Placements {
    let mut out = Placements {
        len: 0,
        items: [Placement {
            first: 0,
            second: 0,
        }; COLUMNS * (COLUMNS - 1)],
    };
    let mut seen = 0u64;
    let mut add = |first: usize, second: usize| {
        // Equal hats make (a, b) and (b, a) the same outcome.
        let (f, s) = if same && first > second {
            (second, first)
        } else {
            (first, second)
        };
        let bit = 1u64 << (f * COLUMNS + s);
        if seen & bit == 0 {
            seen |= bit;
            out.items[out.len as usize] = Placement {
                first: f as u8,
                second: s as u8,
            };
            out.len += 1;
        }
    };
    let passable = |col: usize, bottom: i16| {
        heights[col] < bottom || (geo.slide_over_equal && heights[col] == bottom)
    };
    for left in 0..COLUMNS - 1 {
        let right = left + 1;
        for swapped in [false, true] {
            if same && swapped {
                continue;
            }
            // (column of the pair's first hat, column of its second hat)
            let (c_first, c_second) = if swapped {
                (right, left)
            } else {
                (left, right)
            };
            let (hl, hr) = (heights[left], heights[right]);
            if hl == hr {
                add(c_first, c_second);
                continue;
            }
            // The stopped hat sits over the taller pile; the free one slides outward.
            let (stopped, free, step): (usize, usize, isize) = if hl > hr {
                (left, right, 1)
            } else {
                (right, left, -1)
            };
            let bottom = hl.max(hr);
            let mut col = free as isize;
            while (0..COLUMNS as isize).contains(&col) && passable(col as usize, bottom) {
                let c = col as usize;
                if stopped == c_first {
                    add(stopped, c);
                } else {
                    add(c, stopped);
                }
                col += step;
            }
        }
    }
    out
}

/// How to steer a pair to a placement: which type goes on the left, the left column, and
/// where the free hat goes if the pair splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    pub left: u8,
    pub left_type: u8,
    pub free_target: Option<u8>,
}

/// A way to reach `target` with `pair` (first hat, second hat), if there is one.
pub fn route(
    geo: &Geometry,
    heights: &[i16; COLUMNS],
    pair: (u8, u8),
    target: Placement,
) -> Option<Route> {
    let same = pair.0 == pair.1;
    let norm = |f: usize, s: usize| {
        if same && f > s { (s, f) } else { (f, s) }
    };
    let want = norm(target.first as usize, target.second as usize);
    for left in 0..COLUMNS - 1 {
        let right = left + 1;
        for swapped in [false, true] {
            let (c_first, c_second) = if swapped {
                (right, left)
            } else {
                (left, right)
            };
            let left_type = if swapped { pair.1 } else { pair.0 };
            let (hl, hr) = (heights[left], heights[right]);
            if hl == hr {
                if norm(c_first, c_second) == want {
                    return Some(Route {
                        left: left as u8,
                        left_type,
                        free_target: None,
                    });
                }
                continue;
            }
            let (stopped, step): (usize, isize) = if hl > hr { (left, 1) } else { (right, -1) };
            let bottom = hl.max(hr);
            let mut col = stopped as isize + step;
            while (0..COLUMNS as isize).contains(&col)
                && (heights[col as usize] < bottom
                    || (geo.slide_over_equal && heights[col as usize] == bottom))
            {
                let c = col as usize;
                let got = if stopped == c_first {
                    norm(stopped, c)
                } else {
                    norm(c, stopped)
                };
                if got == want {
                    return Some(Route {
                        left: left as u8,
                        left_type,
                        free_target: Some(c as u8),
                    });
                }
                col += step;
            }
        }
    }
    None
}

/// Unordered column pairs that two different hats could occupy, one bit per pair
/// (bit `low * COLUMNS + high`): the cheap form of [`placements`] used by the evaluation.
/// The second mask keeps only those whose taller pile is at most `ceiling` high, i.e. the
/// landings that leave room for the hat.
pub fn reach_masks(heights: &[i16; COLUMNS], slide_over_equal: bool, ceiling: i16) -> (u64, u64) {
    let bit = |a: usize, b: usize| 1u64 << (a.min(b) * COLUMNS + a.max(b));
    let (mut all, mut safe) = (0, 0);
    for left in 0..COLUMNS - 1 {
        let (hl, hr) = (heights[left], heights[left + 1]);
        let mut mask = 0;
        if hl == hr {
            mask = bit(left, left + 1);
        } else {
            let (stopped, step): (usize, isize) = if hl > hr { (left, 1) } else { (left + 1, -1) };
            let bottom = hl.max(hr);
            let mut col = stopped as isize + step;
            while (0..COLUMNS as isize).contains(&col) {
                let h = heights[col as usize];
                if h > bottom || (h == bottom && !slide_over_equal) {
                    break;
                }
                mask |= bit(stopped, col as usize);
                col += step;
            }
        }
        all |= mask;
        if hl.max(hr) <= ceiling {
            safe |= mask;
        }
    }
    (all, safe)
}

#[cfg(test)]
mod tests {
    use super::super::rules::Settings;
    use super::*;

    fn geo() -> Geometry {
        Geometry::new(&Settings::default())
    }

    #[test]
    fn flat_floor_gives_adjacent_pairs_only() {
        let p = placements(&geo(), &[0; 6], false);
        assert_eq!(p.len(), 10);
        assert!(p.contains(Placement {
            first: 3,
            second: 2
        }));
        assert!(!p.contains(Placement {
            first: 0,
            second: 2
        }));
        assert_eq!(placements(&geo(), &[0; 6], true).len(), 5);
    }

    #[test]
    fn free_hat_slides_over_lower_piles_only() {
        let h = [10, 40, 5, 5, 50, 0];
        let p = placements(&geo(), &h, false);
        // Pair over columns 1-2: the hat over column 1 stops at 40, the other reaches 2 and 3.
        assert!(p.contains(Placement {
            first: 1,
            second: 3
        }));
        assert!(p.contains(Placement {
            first: 2,
            second: 1
        }));
        // Pair over columns 3-4: the free hat at height 50 passes over column 1 (40).
        assert!(p.contains(Placement {
            first: 1,
            second: 4
        }));
        // Nothing puts hats on both outer columns.
        assert!(!p.contains(Placement {
            first: 0,
            second: 5
        }));
        // Pair over columns 4-5: the hat over 5 is free at height 50 but can only go right.
        assert!(p.contains(Placement {
            first: 4,
            second: 5
        }));
        // Pair over columns 0-1: the free hat over column 0 cannot pass column 1.
        assert!(!p.contains(Placement {
            first: 2,
            second: 0
        }));
        let unordered = p.as_slice().iter().fold(0u64, |m, q| {
            let (a, b) = (
                q.first.min(q.second) as usize,
                q.first.max(q.second) as usize,
            );
            m | 1 << (a * COLUMNS + b)
        });
        assert_eq!(reach_masks(&h, false, i16::MAX), (unordered, unordered));
        assert_eq!(reach_masks(&h, false, 0).1, 0);
        for &q in p.as_slice() {
            let r = route(&geo(), &h, (1, 2), q).expect("every placement has a route");
            assert!(r.left < 5 && (r.left_type == 1 || r.left_type == 2));
        }
        assert_eq!(
            route(
                &geo(),
                &h,
                (1, 2),
                Placement {
                    first: 0,
                    second: 5
                }
            ),
            None
        );
        let flat = placements(&geo(), &[7; 6], false);
        assert_eq!(flat.len(), 10);
    }
}
