//! From a run of recorded drops: which bytes hold the falling and next hat types, which
//! hold the pile counts, and where each pile keeps its hats.

use super::drops::Drop;
use super::snap::{Snap, all_locs, valid};
use crate::ram_map::{Loc, PileLayout};
use crate::rules::COLUMNS;
use nesmind_host::kit::Memory;
use nesmind_host::ramsearch::Test;
use nesmind_host::sight::Effort;
use std::collections::{HashMap, HashSet};

/// The falling hats' type bytes and the next pair's, hat 1 first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types {
    pub falling: [u16; 2],
    pub next: [u16; 2],
}

/// Pairs (current, next) of bytes where each new pair's value is the last pair's next,
/// over every spawn recorded, and that hold still while a pair falls.
pub fn type_bytes(drops: &[Drop]) -> Vec<(u16, u16)> {
    let spawned: Vec<&Drop> = drops.iter().take_while(|d| d.spawned).collect();
    if spawned.len() < 3 {
        return Vec::new();
    }
    // The pairs' memories in order: before each drop, then the one after the last.
    let snaps: Vec<&Snap> = drops.iter().map(|d| &d.before).collect();
    let n = snaps.len().min(spawned.len() + 1);
    // Bytes that hold still while each pair falls (from settled to its last move).
    let mut search = snaps[0].search();
    for d in &drops[..n - 1] {
        search.filter_pair(d.before.cpu(), d.falling.cpu(), Test::Unchanged);
    }
    let steady: Vec<Loc> = search.addresses().iter().map(|&a| Loc::cpu(a)).collect();
    let mut by_next: HashMap<Vec<u8>, Vec<u16>> = HashMap::new();
    for &at in &steady {
        let seq: Vec<u8> = (0..n - 1).map(|k| snaps[k].at(at)).collect();
        by_next.entry(seq).or_default().push(at.addr);
    }
    let mut out = Vec::new();
    for &at in &steady {
        let seq: Vec<u8> = (1..n).map(|k| snaps[k].at(at)).collect();
        if seq.iter().all(|&v| v == seq[0]) {
            continue;
        }
        if let Some(nexts) = by_next.get(&seq) {
            out.extend(
                nexts
                    .iter()
                    .filter(|&&x| x != at.addr)
                    .map(|&x| (at.addr, x)),
            );
        }
    }
    out
}

/// One hat landing: in which column, on how many hats, with which byte, in which drop.
#[derive(Clone, Copy, Debug)]
pub struct Landing {
    pub drop: usize,
    pub col: usize,
    pub code: u8,
}

/// Landings of every spawned drop when hat i's type byte is `falling[i]`.
pub fn landings(drops: &[Drop], falling: [u16; 2]) -> Vec<Landing> {
    let mut out = Vec::new();
    for (k, d) in drops.iter().enumerate().filter(|(_, d)| d.spawned) {
        for (i, &f) in falling.iter().enumerate() {
            if let Ok(col) = usize::try_from(d.cols[i])
                && col < COLUMNS
            {
                out.push(Landing {
                    drop: k,
                    col,
                    code: d.before.at(Loc::cpu(f)),
                });
            }
        }
    }
    out
}

/// The memory after drop k's landing (the next pair's settled memory).
fn after(drops: &[Drop], k: usize) -> Option<&Snap> {
    drops.get(k + 1).map(|d| &d.before)
}

/// Bytes that grow by one exactly when a hat lands in their column: (column c's count,
/// distance between columns' counts).
pub fn counts(drops: &[Drop], lands: &[Landing]) -> Option<(Loc, i32)> {
    // Each column must have received a hat, or its count could be any idle byte.
    if (0..COLUMNS).any(|c| !lands.iter().any(|l| l.col == c)) {
        return None;
    }
    let fits = |at: Loc, c: usize| {
        (0..drops.len()).all(|k| {
            let Some(next) = after(drops, k).filter(|_| drops[k].spawned) else {
                return true;
            };
            let want = lands.iter().filter(|l| l.drop == k && l.col == c).count() as u8;
            let grew = next.at(at).wrapping_sub(drops[k].before.at(at));
            // A landing that completes a stack of five takes the count down by four.
            grew == want || (want == 1 && grew == 1u8.wrapping_sub(5))
        })
    };
    let per_col: Vec<HashSet<Loc>> = (0..COLUMNS)
        .map(|c| all_locs().filter(|&at| fits(at, c)).collect())
        .collect();
    for &a in &per_col[0] {
        for &b in &per_col[1] {
            if a.space != b.space {
                continue;
            }
            let stride = b.addr as i32 - a.addr as i32;
            let ok = (2..COLUMNS).all(|c| {
                let at = a.offset(stride * c as i32);
                valid(at) && per_col[c].contains(&at)
            });
            if ok {
                return Some((a, stride));
            }
        }
    }
    None
}

/// Where each pile keeps its hats: the layout that puts every landed hat's byte in its
/// pile's next slot, as the counts say. The search charges its work to the running job
/// (`Err`: the job was cancelled): on scrambled memory it can try millions of candidates.
pub fn piles(
    drops: &[Drop],
    lands: &[Landing],
    counts: (Loc, i32),
    effort: &mut Effort,
) -> Result<Option<PileLayout>, String> {
    // Only landings whose result was seen (the last drop's next pair may not have come).
    let lands: Vec<Landing> = lands
        .iter()
        .filter(|l| after(drops, l.drop).is_some())
        .copied()
        .collect();
    let lands = &lands[..];
    let count = |k: usize, c: usize| -> i32 {
        drops[k].before.at(counts.0.offset(counts.1 * c as i32)) as i32
    };
    // A landing's slot index: the count before the drop (a pair's hats go to two piles).
    let slot = |l: &Landing| count(l.drop, l.col);
    let changed_to = |l: &Landing, effort: &mut Effort| -> Result<Vec<Loc>, String> {
        let Some(next) = after(drops, l.drop) else {
            return Ok(Vec::new());
        };
        let before = &drops[l.drop].before;
        let mut out = Vec::new();
        for at in all_locs() {
            effort.step()?;
            if next.at(at) == l.code && before.at(at) != l.code {
                out.push(at);
            }
        }
        Ok(out)
    };
    let holds = |at: Loc, l: &Landing| {
        valid(at) && after(drops, l.drop).is_some_and(|s| s.at(at) == l.code)
    };
    // Anchor: two landings in one column at different heights give the step.
    let Some(col0) = lands.first().map(|l| l.col) else {
        return Ok(None);
    };
    let same: Vec<&Landing> = lands.iter().filter(|l| l.col == col0).collect();
    let Some((a, b)) = same
        .iter()
        .flat_map(|&x| same.iter().map(move |&y| (x, y)))
        .find(|(x, y)| slot(y) > slot(x))
    else {
        return Ok(None);
    };
    let Some(other) = lands.iter().find(|l| l.col != col0) else {
        return Ok(None);
    };
    let cand_a = changed_to(a, effort)?;
    let cand_b = changed_to(b, effort)?;
    let cand_o = changed_to(other, effort)?;
    let dn = slot(b) - slot(a);
    let dc = other.col as i32 - col0 as i32;
    for &xa in &cand_a {
        // A step of at most four bytes a slot puts b's byte near a's.
        let near =
            |x: &&Loc| x.space == xa.space && (x.addr as i32 - xa.addr as i32).abs() <= 4 * dn;
        for &xb in cand_b.iter().filter(near) {
            effort.step()?;
            let dx = xb.addr as i32 - xa.addr as i32;
            if dx % dn != 0 || dx == 0 {
                continue;
            }
            let step = dx / dn;
            for &xo in cand_o.iter().filter(|x| x.space == xa.space) {
                effort.step()?;
                let rest = xo.addr as i32 - xa.addr as i32 - step * (slot(other) - slot(a));
                if rest % dc != 0 {
                    continue;
                }
                let stride = rest / dc;
                let base = xa.offset(-step * slot(a) - stride * col0 as i32);
                let at = |l: &Landing| base.offset(stride * l.col as i32 + step * slot(l));
                if lands.iter().all(|l| holds(at(l), l)) {
                    return Ok(Some(PileLayout::Columns {
                        counts: counts.0,
                        counts_stride: counts.1,
                        hats: base,
                        stride,
                        step,
                    }));
                }
            }
        }
    }
    Ok(None)
}
