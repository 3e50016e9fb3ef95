//! Finding the hand cursor: walk it to the top-left cell, then along the top row and down the
//! right column, and fit each byte that moved to `origin + row * row_step + col * col_step`.
//! One byte that moves both ways is a cell index; a byte that follows columns and another
//! that follows rows are an x/y pair (e.g. pixel positions).

use super::lab::{Lab, SETTLE, cursor_cell, release_all};
use crate::ram_map::Cursor;
use nesmind_host::ramsearch::Snapshot;
use nesmind_host::{Buttons, Fork, Frame};

/// Models offered to the first move at most.
const MAX_MODELS: usize = 40;

/// Values of the candidate bytes on a fork.
fn values(f: &Fork, bytes: &[u16]) -> Vec<u8> {
    let s = Snapshot::take(f, true);
    bytes.iter().map(|&a| s.byte(a).unwrap_or(0)).collect()
}

/// Presses `dir` until the candidates stop changing (an edge) or, on a cursor that wraps,
/// until the press that jumps to the other edge; returns the fork on the first cell of
/// that side.
fn walk_to_edge(
    lab: &mut Lab,
    from: &Fork,
    pad: usize,
    dir: Buttons,
    bytes: &[u16],
) -> Result<Fork, String> {
    let mut forks = vec![from.clone()];
    let mut seen = vec![values(from, bytes)];
    for _ in 0..9 {
        let mut f = forks.last().expect("one fork").clone();
        lab.tap_then(&mut f, pad, dir, SETTLE)?;
        let v = values(&f, bytes);
        if v == *seen.last().expect("one value") {
            return Ok(forks.pop().expect("one fork"));
        }
        forks.push(f);
        seen.push(v);
    }
    // It wraps: for each byte, the one step whose change differs from its usual change
    // left the edge cell; the step most bytes agree on wins.
    let mut votes = [0u32; 9];
    for k in 0..bytes.len() {
        let d: Vec<u8> = seen
            .windows(2)
            .map(|w| w[1][k].wrapping_sub(w[0][k]))
            .collect();
        let usual = *d
            .iter()
            .max_by_key(|x| d.iter().filter(|y| y == x).count())
            .expect("steps");
        let odd: Vec<usize> = (0..d.len()).filter(|&j| d[j] != usual).collect();
        if let [j] = odd[..] {
            votes[j] += 1;
        }
    }
    match (0..9).filter(|&j| votes[j] > 0).max_by_key(|&j| votes[j]) {
        Some(j) => Ok(forks.swap_remove(j)),
        None => Err(
            "cursor: the hand never reaches an edge (it moves over more than 8 cells a line)"
                .into(),
        ),
    }
}

/// Cursor models that fit a walk round the board from a fork where `pad` moves
/// `candidates`, best first (a scratch byte may fit the walk and still not be the cursor).
pub fn find_cursor(
    lab: &mut Lab,
    base: &Fork,
    pad: usize,
    candidates: &[u16],
    expected: Option<&Cursor>,
) -> Result<Vec<Cursor>, String> {
    let left = walk_to_edge(lab, base, pad, Buttons::LEFT, candidates)?;
    let corner = walk_to_edge(lab, &left, pad, Buttons::UP, candidates)?;
    // Top row left to right, then the right column downwards: 13 cells.
    let mut f = corner.clone();
    let mut path = vec![((0u8, 0u8), values(&f, candidates))];
    for k in 1..7 {
        lab.tap_then(&mut f, pad, Buttons::RIGHT, SETTLE)?;
        path.push(((0, k), values(&f, candidates)));
    }
    let top_right = values(&f, candidates);
    for k in 1..7 {
        lab.tap_then(&mut f, pad, Buttons::DOWN, SETTLE)?;
        path.push(((k, 6), values(&f, candidates)));
    }
    // One press past each edge must stop or wrap round, not reach an eighth cell.
    let mut past = f.clone();
    lab.tap_then(&mut past, pad, Buttons::DOWN, SETTLE)?;
    let below = values(&past, candidates);
    let mut past = corner.clone();
    for _ in 0..7 {
        lab.tap_then(&mut past, pad, Buttons::RIGHT, SETTLE)?;
    }
    let beyond = values(&past, candidates);

    log::debug!(
        "spot: calibration: cursor walk over {candidates:04X?}: {:?}, past the edges {below:?} {beyond:?}",
        path
    );
    let mut fits: Vec<(u16, u8, i16, i16)> = Vec::new();
    for (k, &addr) in candidates.iter().enumerate() {
        let v00 = path[0].1[k];
        let dc = path[1].1[k].wrapping_sub(v00);
        let dr = path[7].1[k].wrapping_sub(top_right[k]);
        let fits_all = path.iter().all(|&((r, c), ref v)| {
            v[k] == v00
                .wrapping_add(r.wrapping_mul(dr))
                .wrapping_add(c.wrapping_mul(dc))
        });
        let bottom = path[12].1[k];
        let edge_ok = (below[k] == bottom || below[k] == top_right[k])
            && (beyond[k] == top_right[k] || beyond[k] == v00);
        if fits_all && edge_ok && (dr != 0 || dc != 0) {
            fits.push((addr, v00, signed(dr), signed(dc)));
        }
    }
    let index = |&&(_, _, dr, dc): &&(u16, u8, i16, i16)| dr != 0 && dc != 0;
    let models: Vec<Cursor> = fits
        .iter()
        .filter(index)
        .map(|&(addr, origin, row_step, col_step)| Cursor::Index {
            addr,
            origin,
            row_step,
            col_step,
        })
        .chain(pairs(&fits))
        .filter(distinct_cells)
        .collect();
    // Models the game takes a new value from first: a byte it only copies from the cursor
    // (a sprite's position, a scratch byte) follows the hand on every walk but may show the
    // opponent's hand, or none, later.
    let (mut models, mut copies) = (models, Vec::new());
    let mut k = 0;
    while k < models.len() {
        if keeps_a_new_cell(lab, base, &models[k])? {
            k += 1;
        } else {
            copies.push(models.remove(k));
        }
    }
    models.append(&mut copies);
    // The expected model first, then single bytes, then pairs; the first move decides.
    let mut ranked: Vec<Cursor> = expected
        .filter(|e| models.contains(e))
        .copied()
        .into_iter()
        .collect();
    ranked.extend(
        models
            .into_iter()
            .filter(|m| Some(m) != expected)
            .take(MAX_MODELS),
    );
    if ranked.is_empty() {
        return Err(format!(
            "cursor: {} bytes follow the D-pad but none reads as a cell of a 7 x 7 board",
            candidates.len()
        ));
    }
    Ok(ranked)
}

/// Whether the game keeps the cell written into the model's bytes on a fork (and so reads
/// the cursor from them) rather than writing them back from elsewhere.
fn keeps_a_new_cell(lab: &mut Lab, base: &Fork, model: &Cursor) -> Result<bool, String> {
    let mut f = base.clone();
    release_all(&mut f);
    let target = if cursor_cell(model, &f) == Some(24) {
        16
    } else {
        24
    };
    for ((_, addr), v) in model.addresses().into_iter().zip(model.bytes(target)) {
        f.poke(addr, v);
    }
    lab.run(&mut f, 3)?;
    Ok(cursor_cell(model, &f) == Some(target))
}

/// x/y pairs: a byte that follows the columns only and one that follows the rows only,
/// mixing early and late candidates (pairs in order of the sum of their ranks).
fn pairs(fits: &[(u16, u8, i16, i16)]) -> Vec<Cursor> {
    let xs: Vec<_> = fits.iter().filter(|f| f.2 == 0 && f.3 != 0).collect();
    let ys: Vec<_> = fits.iter().filter(|f| f.2 != 0 && f.3 == 0).collect();
    let mut out = Vec::new();
    for sum in 0..xs.len() + ys.len() {
        for (i, &&(x, x_origin, _, x_step)) in xs.iter().enumerate() {
            if let Some(&&(y, y_origin, y_step, _)) = sum.checked_sub(i).and_then(|j| ys.get(j)) {
                out.push(Cursor::Pair {
                    x,
                    x_origin,
                    x_step,
                    y,
                    y_origin,
                    y_step,
                });
            }
        }
    }
    out
}

fn distinct_cells(c: &Cursor) -> bool {
    let mut all: Vec<Vec<u8>> = (0..49).map(|k| c.bytes(k)).collect();
    all.sort();
    all.dedup();
    all.len() == 49
}

/// A byte step as a signed number (-128..127).
fn signed(d: u8) -> i16 {
    i16::from(d as i8)
}
