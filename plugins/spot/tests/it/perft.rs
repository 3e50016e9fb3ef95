//! perft against the libataxx vectors (2 players) and golden 3-4 player counts checked by the
//! naive generator.

use nesmind_spot::layouts::{ThirdCorner, builtin_layout, parse_fen, start_position};
use nesmind_spot::naive::NaiveBoard;
use nesmind_spot::perft::{perft, perft_unmake};

const LIBATAXX: &[(&str, &[u64])] = &[
    (
        "x5o/7/7/7/7/7/o5x x 0 1",
        &[1, 16, 256, 6460, 155888, 4752668],
    ),
    (
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        &[1, 14, 196, 4184, 86528, 2266352],
    ),
    (
        "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1",
        &[1, 14, 196, 4100, 83104, 2114588],
    ),
    (
        "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1",
        &[1, 16, 256, 5948, 133264, 3639856],
    ),
    (
        "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
        &[1, 1, 75, 249, 14270, 452980],
    ),
    (
        "7/7/7/2x1o2/7/7/7 x 0 1",
        &[1, 23, 419, 7887, 168317, 4266992],
    ),
    (
        "7/7/7/7/-------/-------/x5o x 0 1",
        &[1, 2, 4, 13, 30, 73, 174],
    ),
    ("7/7/7/7/7/7/7 x 0 1", &[1, 0, 0, 0, 0]),
];

#[test]
fn libataxx_vectors_match_to_depth_6() {
    for (fen, counts) in LIBATAXX {
        let pos = parse_fen(fen, 2).unwrap();
        for (depth, &want) in counts.iter().enumerate().take(6) {
            assert_eq!(perft(&pos, depth as u32), want, "{fen} depth {depth}");
        }
    }
}

#[test]
fn make_unmake_agrees_with_copy_make() {
    for (fen, _) in LIBATAXX {
        let pos = parse_fen(fen, 2).unwrap();
        assert_eq!(perft_unmake(&pos, 4), perft(&pos, 4), "{fen}");
    }
}

#[test]
fn start_position_depth_6() {
    // Published by several independent Ataxx engines (141,865,520 at depth 6).
    let pos = parse_fen("x5o/7/7/7/7/7/o5x x 0 1", 2).unwrap();
    assert_eq!(perft(&pos, 6), 141_865_520);
}

#[test]
#[ignore = "depth 7 is 5 billion leaves; run with --ignored"]
fn start_position_depth_7() {
    let pos = parse_fen("x5o/7/7/7/7/7/o5x x 0 1", 2).unwrap();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(
        nesmind_spot::perft::perft_parallel(&pos, 7, threads),
        5_023_479_496
    );
}

/// Golden counts for 3 and 4 players (no public vectors exist); each was produced by the
/// bitboard generator and is re-derived here by the naive generator.
const GOLDEN: &[(usize, usize, ThirdCorner, [u64; 6])] = &[
    (3, 0, ThirdCorner::LowerLeft, [1, 8, 64, 512, 8752, 146888]),
    (3, 0, ThirdCorner::LowerRight, [1, 8, 64, 512, 8816, 146722]),
    (3, 37, ThirdCorner::LowerLeft, [1, 6, 36, 216, 2664, 32111]),
    (
        3,
        300,
        ThirdCorner::LowerRight,
        [1, 7, 49, 343, 4340, 52843],
    ),
    (4, 0, ThirdCorner::LowerLeft, [1, 8, 64, 512, 4096, 69952]),
    (4, 37, ThirdCorner::LowerLeft, [1, 6, 36, 216, 1296, 15948]),
    (
        4,
        300,
        ThirdCorner::LowerRight,
        [1, 7, 49, 343, 2401, 29939],
    ),
];

#[test]
fn three_and_four_player_golden_counts() {
    for &(players, layout, third, counts) in GOLDEN {
        let pos = start_position(players, builtin_layout(layout).unwrap(), third).unwrap();
        let naive = NaiveBoard::from_position(&pos);
        for (depth, &want) in counts.iter().enumerate() {
            assert_eq!(
                perft(&pos, depth as u32),
                want,
                "{players}p layout {layout} depth {depth}"
            );
            assert_eq!(
                naive.perft(depth as u32),
                want,
                "naive {players}p layout {layout} depth {depth}"
            );
        }
    }
}

#[test]
fn naive_agrees_on_random_midgames() {
    use rand::{Rng, SeedableRng, seq::SliceRandom};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut moves = Vec::new();
    for game in 0..60 {
        let players = 2 + game % 3;
        let layout = builtin_layout(rng.gen_range(0..512)).unwrap();
        let mut pos = start_position(players, layout, ThirdCorner::LowerRight).unwrap();
        for _ in 0..rng.gen_range(4..40) {
            pos.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            pos = pos.play(mv);
        }
        assert_eq!(
            perft(&pos, 3),
            NaiveBoard::from_position(&pos).perft(3),
            "game {game}"
        );
    }
}
