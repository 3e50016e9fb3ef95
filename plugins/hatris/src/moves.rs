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

/// How the piles' heights compare, one bit per column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeightOrder {
    /// `taller[i]`: the piles strictly taller than pile `i`.
    pub taller: [u8; COLUMNS],
    /// `pass[i]`: the piles a free hat whose bottom is at pile `i`'s height can slide over.
    pub pass: [u8; COLUMNS],
}

impl HeightOrder {
    pub fn of(heights: &[i16; COLUMNS], slide_over_equal: bool) -> HeightOrder {
        let mut taller = [0u8; COLUMNS];
        let mut lower = [0u8; COLUMNS];
        for i in 0..COLUMNS - 1 {
            for j in i + 1..COLUMNS {
                let (up, down) = (heights[j] > heights[i], heights[j] < heights[i]);
                taller[i] |= u8::from(up) << j;
                lower[j] |= u8::from(up) << i;
                lower[i] |= u8::from(down) << j;
                taller[j] |= u8::from(down) << i;
            }
        }
        let pass = if slide_over_equal {
            taller.map(|t| !t & 0x3F)
        } else {
            lower
        };
        HeightOrder { taller, pass }
    }
}

/// Bits `0, 6, 12, ...`: one bit per column for a run of pairs sharing their higher column.
const EVERY_SIXTH: [u32; COLUMNS + 1] = {
    let mut t = [0u32; COLUMNS + 1];
    let mut k = 1;
    while k <= COLUMNS {
        t[k] = t[k - 1] | 1 << ((k - 1) * COLUMNS);
        k += 1;
    }
    t
};

/// Unordered column pairs that two different hats could occupy, one bit per pair
/// (bit `low * COLUMNS + high`): the cheap form of [`placements`] used by the evaluation.
/// The second mask keeps only those whose taller pile is at most `ceiling` high, i.e. the
/// landings that leave room for the hat.
pub fn reach_masks(heights: &[i16; COLUMNS], slide_over_equal: bool, ceiling: i16) -> (u32, u32) {
    reach_masks_of(
        &HeightOrder::of(heights, slide_over_equal),
        heights,
        ceiling,
    )
}

/// [`reach_masks`] from an already computed height order.
pub fn reach_masks_of(order: &HeightOrder, heights: &[i16; COLUMNS], ceiling: i16) -> (u32, u32) {
    let (mut all, mut safe) = (0, 0);
    for left in 0..COLUMNS - 1 {
        let right = left + 1;
        let mask = if order.taller[left] & (1 << right) != 0 {
            // The hat over `right` stops; the free one passes columns from `left`
            // leftwards, giving bits `col * COLUMNS + right`.
            let pass = (order.pass[right] as u32) << (31 - left);
            let run = (!pass).leading_zeros() as usize;
            EVERY_SIXTH[run] << ((left + 1 - run) * COLUMNS + right)
        } else if order.taller[right] & (1 << left) != 0 {
            // The hat over `left` stops; the free one passes a run of columns from `right`
            // rightwards, giving consecutive bits `left * COLUMNS + col`.
            let run = (!(order.pass[left] as u32 >> right)).trailing_zeros() as usize;
            ((1 << run) - 1) << (left * COLUMNS + right)
        } else {
            1 << (left * COLUMNS + right)
        };
        all |= mask;
        if heights[left].max(heights[right]) <= ceiling {
            safe |= mask;
        }
    }
    (all, safe)
}

/// The two columns (lower index first) of each bit of a [`reach_masks`] mask.
pub fn reach_pairs(mask: u32) -> impl Iterator<Item = (usize, usize)> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            (bit / COLUMNS, bit % COLUMNS)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::super::rules::Settings;
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

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
        let unordered = p.as_slice().iter().fold(0u32, |m, q| {
            let (a, b) = (
                q.first.min(q.second) as usize,
                q.first.max(q.second) as usize,
            );
            m | 1u32 << (a * COLUMNS + b)
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

    /// The pairs a walk from each adjacent pair reaches, written the slow obvious way.
    fn walked_pairs(h: &[i16; COLUMNS], slide: bool, ceiling: i16) -> (u32, u32) {
        let (mut all, mut safe) = (0u32, 0u32);
        for left in 0..COLUMNS - 1 {
            let right = left + 1;
            let bottom = h[left].max(h[right]);
            let mut mask = 0u32;
            if h[left] == h[right] {
                mask = 1 << (left * COLUMNS + right);
            } else {
                let (stopped, free): (usize, Vec<usize>) = if h[left] > h[right] {
                    (left, (right..COLUMNS).collect())
                } else {
                    (right, (0..=left).rev().collect())
                };
                for c in free {
                    if !(h[c] < bottom || (slide && h[c] == bottom)) {
                        break;
                    }
                    mask |= 1 << (stopped.min(c) * COLUMNS + stopped.max(c));
                }
            }
            all |= mask;
            if bottom <= ceiling {
                safe |= mask;
            }
        }
        (all, safe)
    }

    #[test]
    fn reach_masks_agree_with_placements_and_walks() {
        let mut rng = StdRng::seed_from_u64(99);
        for round in 0..20_000 {
            // Few distinct heights, so ties are common.
            let h: [i16; COLUMNS] = std::array::from_fn(|_| rng.gen_range(0..5) * 20);
            let slide = round % 2 == 1;
            let ceiling = rng.gen_range(0..100);
            let geo = Geometry {
                slide_over_equal: slide,
                ..geo()
            };
            let (all, safe) = reach_masks(&h, slide, ceiling);
            assert_eq!(
                (all, safe),
                walked_pairs(&h, slide, ceiling),
                "{h:?} {slide}"
            );
            let from_placements =
                placements(&geo, &h, false)
                    .as_slice()
                    .iter()
                    .fold(0u32, |m, q| {
                        let (a, b) = (q.first.min(q.second), q.first.max(q.second));
                        m | 1 << (a as usize * COLUMNS + b as usize)
                    });
            assert_eq!(all, from_placements, "{h:?} {slide}");
            let pairs: Vec<_> = reach_pairs(all).collect();
            assert_eq!(pairs.len(), all.count_ones() as usize);
            assert!(
                pairs
                    .iter()
                    .all(|&(a, b)| a < b && all & 1 << (a * COLUMNS + b) != 0)
            );
        }
    }
}
