//! Looks for forced wins a seat missed: replays a game (reproducible under a node or depth
//! budget) and runs a deeper full-width negamax at each of the seat's turns.

use super::{ArenaConfig, play_game_observed};
use crate::board::NO_SQUARE;
use crate::moves::Move;
use crate::position::Position;
use nesmind_search::{Algorithm, SearchConfig, Searcher, WIN};

/// A turn where the deeper search proved a win and the move played gave it away.
#[derive(Clone, Debug, PartialEq)]
pub struct Missed {
    /// Plies played before the turn.
    pub ply: usize,
    pub played: Move,
    pub winning: Move,
}

/// What the check of one game found.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The seat's turns searched (prize choices of the bonus game are skipped).
    pub turns: usize,
    pub missed: Vec<Missed>,
}

fn prover(depth: u32) -> Searcher<Position> {
    Searcher::new(SearchConfig {
        algorithm: Algorithm::Negamax,
        max_depth: depth,
        move_time: None,
        iterative: true,
        use_tt: true,
        tt_bits: 18,
        seed: 0,
        model_opponents: false,
    })
}

/// Replays game `index` and checks every turn of `seat` with a `depth`-ply negamax that
/// ignores the bonus game (2 players).
pub fn missed_wins(cfg: &ArenaConfig, index: usize, seat: usize, depth: u32) -> Check {
    let mut turns = Vec::new();
    let mut ply = 0;
    play_game_observed(cfg, index, &mut |pos, s, mv| {
        if s == seat && !pos.bonus_pending() {
            turns.push((ply, *pos, mv));
        }
        ply += 1;
    });
    let mut check = Check {
        turns: turns.len(),
        missed: Vec::new(),
    };
    for (ply, mut pos, played) in turns {
        pos.set_secret(NO_SQUARE);
        let r = prover(depth).search(&pos);
        if r.score <= WIN / 2 || r.best == played {
            continue;
        }
        // The move played may win too, only more slowly.
        let after = pos.play(played);
        let keeps_win = after.outcome().is_some_and(|_| {
            matches!(after.ranking_outcome(), crate::position::Outcome::Win(w) if w == pos.to_move())
        }) || (!after.is_over() && {
            let v = prover(depth.saturating_sub(1).max(1)).search(&after).score;
            if after.to_move() == pos.to_move() {
                v > WIN / 2
            } else {
                v < -WIN / 2
            }
        });
        if !keeps_win {
            check.missed.push(Missed {
                ply,
                played,
                winning: r.best,
            });
        }
    }
    check
}
