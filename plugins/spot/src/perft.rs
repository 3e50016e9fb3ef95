//! perft: counts the leaves of the legal-move tree (the libataxx convention: a forced pass
//! is one move, a finished game has none, a clone counts once per destination).

use super::moves::Move;
use super::position::Position;

/// Copy-make perft with bulk counting at the last ply.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut buffers = vec![Vec::with_capacity(256); depth as usize + 1];
    perft_copy(pos, depth, &mut buffers)
}

fn perft_copy(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    if depth == 1 {
        return pos.count_moves();
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.generate(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        total += perft_copy(&pos.play(mv), depth - 1, rest);
    }
    total
}

/// Make/unmake perft, kept to measure against copy-make (`nesmind perft spot --unmake`).
pub fn perft_unmake(pos: &Position, depth: u32) -> u64 {
    let mut buffers = vec![Vec::with_capacity(256); depth as usize + 1];
    let mut p = *pos;
    perft_in_place(&mut p, depth, &mut buffers)
}

fn perft_in_place(pos: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    if depth == 1 {
        return pos.count_moves();
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.generate(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = pos.make(mv);
        total += perft_in_place(pos, depth - 1, rest);
        pos.unmake(&undo);
    }
    total
}

/// perft split over the root moves on several threads.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 || pos.is_over() {
        return perft(pos, depth);
    }
    let mut roots = Vec::new();
    pos.generate(&mut roots);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let total = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&mv) = roots.get(i) else { break };
                    let n = perft(&pos.play(mv), depth - 1);
                    total.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
    });
    total.into_inner()
}
