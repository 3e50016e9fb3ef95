//! Seats: who plays a colour in the arena or in the plug-in.

use super::board::NO_SQUARE;
use super::bots;
use super::levels::{LEVELS, Level};
use super::moves::Move;
use super::position::Position;
use nesmind_search::{Algorithm, SearchConfig, SearchResult, Searcher};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// The search the plug-in (and the `spot` seat) uses for a player count: negamax with PVS for
/// 2 players, paranoid for 3-4 (ahead of hypermax and best-reply in arena runs without the
/// opponent model). With the model on, opponents' turns become chance nodes and any of these
/// runs as expectimax (see `search::SearchConfig::model_opponents`).
pub fn default_algorithm(players: usize) -> Algorithm {
    match players {
        2 => Algorithm::Negamax,
        _ => Algorithm::Paranoid,
    }
}

/// A seat kind as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatKind {
    /// A search with iterative deepening and a table under the per-move budget.
    Search(Algorithm),
    /// The article's hypermax: fixed depth players + 1, no table.
    ArticleHypermax,
    /// A timed search that expects opponents to play like the cartridge AI model: at random
    /// among its tied best moves (expectimax for all but best-reply).
    Modeled(Algorithm),
    /// What the plug-in plays by default: expectimax against the opponent model.
    Default,
    NesAi(u8),
    /// A strength for play against a person (`levels.rs`): the default search for the
    /// player count, plain (no opponent model), under the level's own budget.
    Level(u8),
    Greedy,
    Random,
}

impl SeatKind {
    pub fn parse(text: &str) -> Result<SeatKind, String> {
        let t = text.trim().to_ascii_lowercase();
        if let Some(level) = t.strip_prefix("nes-ai") {
            let level = match level.strip_prefix(':') {
                None if level.is_empty() => 5,
                Some(l) => l
                    .parse::<u8>()
                    .ok()
                    .filter(|l| (1..=5).contains(l))
                    .ok_or_else(|| format!("bad NES AI level in '{text}' (1-5)"))?,
                None => return Err(format!("unknown seat '{text}'")),
            };
            return Ok(SeatKind::NesAi(level));
        }
        if t == "spot" {
            return Ok(SeatKind::Default);
        }
        if let Some(level) = t.strip_prefix("level:") {
            return Level::parse(level).map(|l| SeatKind::Level(l.number));
        }
        if let Some(base) = t.strip_suffix("-model") {
            return Algorithm::parse(base).map(SeatKind::Modeled);
        }
        match t.as_str() {
            "hypermax-article" => Ok(SeatKind::ArticleHypermax),
            "greedy" => Ok(SeatKind::Greedy),
            "random" => Ok(SeatKind::Random),
            _ => Algorithm::parse(&t).map(SeatKind::Search).map_err(|_| {
                format!("unknown seat '{text}' (spot, hypermax, hypermax-article, paranoid, brs, negamax, expectimax, any of these five with -model, nes-ai[:1-5], level:1-5, greedy, random)")
            }),
        }
    }
}

/// A player that picks moves for one colour.
pub struct Seat {
    kind: SeatKind,
    rng: StdRng,
    searcher: Option<Searcher<Position>>,
    /// Share of moves played at random instead of searched (weak levels).
    random_share: f64,
    pub last_search: Option<SearchResult<Move>>,
    /// Positions the search scores a return to as a draw.
    seen: Repeatable,
}

/// The positions of a game since a square was last filled (secret square hidden, as the
/// search sees them), and that number of empty squares: no move adds an empty square, so
/// only these can come again.
#[derive(Default)]
struct Repeatable {
    keys: Vec<u64>,
    empties: u32,
}

impl Repeatable {
    /// Adds `pos`; a position with fewer empty squares, or more (a new game), starts the
    /// list again.
    fn remember(&mut self, pos: &Position) {
        let empties = pos.empty().count_ones();
        if empties != self.empties {
            self.keys.clear();
            self.empties = empties;
        }
        let key = nesmind_search::Game::key(pos);
        if !self.keys.contains(&key) {
            self.keys.push(key);
        }
    }
}

impl Repeatable {
    /// The moves that leave a cycle for good: those that fill a square, else those to a
    /// position not yet seen (empty when every move returns somewhere seen).
    fn way_out(&self, pos: &Position) -> Vec<Move> {
        let mut moves = Vec::new();
        nesmind_search::Game::moves(pos, &mut moves);
        let fills: Vec<Move> = moves.iter().copied().filter(|m| m.is_clone()).collect();
        if !fills.is_empty() {
            return fills;
        }
        moves.retain(|&m| !self.keys.contains(&nesmind_search::Game::key(&pos.play(m))));
        moves
    }
}

impl Seat {
    pub fn new(kind: SeatKind, players: usize, move_time: Duration, seed: u64) -> Seat {
        // With the model, every search except best-reply is expectimax; the name says so.
        let kind = match kind {
            SeatKind::Default => SeatKind::Modeled(Algorithm::Expectimax),
            SeatKind::Modeled(a) if a != Algorithm::BestReply => {
                SeatKind::Modeled(Algorithm::Expectimax)
            }
            k => k,
        };
        let level = match kind {
            SeatKind::Level(n) => Some(LEVELS[usize::from(n.clamp(1, 5)) - 1]),
            _ => None,
        };
        let cfg = match &kind {
            SeatKind::Level(_) => Some(SearchConfig::timed(
                default_algorithm(players),
                move_time,
                seed,
            )),
            SeatKind::Search(a) => Some(SearchConfig::timed(*a, move_time, seed)),
            SeatKind::ArticleHypermax => Some(SearchConfig::article_hypermax(players, seed)),
            SeatKind::Modeled(a) => Some(SearchConfig {
                model_opponents: true,
                ..SearchConfig::timed(*a, move_time, seed)
            }),
            _ => None,
        };
        let mut seat = Seat {
            kind,
            rng: StdRng::seed_from_u64(seed ^ 0xA5A5),
            searcher: cfg.map(Searcher::new),
            random_share: 0.0,
            last_search: None,
            seen: Repeatable::default(),
        };
        if let (Some(l), Some(s)) = (level, seat.searcher.as_mut()) {
            s.set_fixed_budget(Some(l.nodes), Some(l.depth));
            seat.random_share = l.random_share;
        }
        seat
    }

    pub fn kind(&self) -> &SeatKind {
        &self.kind
    }

    /// A reproducible budget instead of the time budget (see `Searcher::set_fixed_budget`).
    /// A level seat keeps its level's budget.
    pub fn set_fixed_budget(&mut self, nodes: Option<u64>, depth: Option<u32>) {
        if matches!(self.kind, SeatKind::Level(_)) {
            return;
        }
        if let Some(s) = self.searcher.as_mut() {
            s.set_fixed_budget(nodes, depth);
        }
    }

    /// The move for the player to move in `pos` (which must not be finished).
    pub fn choose(&mut self, pos: &Position) -> Move {
        match (&self.kind, &mut self.searcher) {
            (SeatKind::NesAi(level), _) => bots::nes_ai_move(pos, *level, &mut self.rng),
            (SeatKind::Greedy, _) => bots::greedy_move(pos, &mut self.rng),
            (SeatKind::Random, _) => bots::random_move(pos, &mut self.rng),
            (_, Some(_)) if self.random_share > 0.0 && self.rng.gen_bool(self.random_share) => {
                // A weak level's slip: no search, so no line to show either.
                self.last_search = None;
                bots::random_move(pos, &mut self.rng)
            }
            (_, Some(searcher)) => {
                // The bonus game counts only at the root: deeper plies ignore the secret square.
                let mut root = *pos;
                root.set_secret(NO_SQUARE);
                // The article's engine is reproduced as it was, without the rule.
                let repetition = !matches!(self.kind, SeatKind::ArticleHypermax);
                if repetition {
                    // Back where this seat has already been: a cycle of jumps is under way,
                    // and a game with no rule to end it would go round it for ever (a side
                    // that is behind scores the return as a draw). Fill a square instead.
                    let cycle = self.seen.keys.contains(&root.key());
                    self.seen.remember(&root);
                    searcher.set_game_history(&self.seen.keys);
                    searcher.restrict_root(cycle.then(|| self.seen.way_out(&root)).as_deref());
                }
                let r = searcher.search(&root);
                if repetition {
                    searcher.restrict_root(None);
                }
                let best = r.best;
                self.last_search = Some(r);
                if repetition {
                    self.seen.remember(&root.play(best));
                }
                best
            }
            (_, None) => unreachable!("search seats always own a searcher"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layouts::parse_fen;

    /// A position from a game against the demo cart that went round a cycle of jumps for
    /// 40,000 frames: the searching side is behind and scored each return as a draw, the
    /// cart's greedy replies took the bait every time. The seat must fill a square instead.
    #[test]
    fn a_seat_behind_leaves_a_cycle_of_jumps() {
        let mut pos = parse_fen(
            "x-xxx-1/-x-x-o-/o-xxx-o/ooooooo/o-ooo-o/-o-x-o-/o-oxx-o x",
            2,
        )
        .expect("FEN");
        let mut seat = Seat::new(
            SeatKind::Search(Algorithm::Negamax),
            2,
            Duration::from_millis(100),
            1,
        );
        seat.set_fixed_budget(Some(5000), None);
        let mut cart = Seat::new(SeatKind::NesAi(5), 2, Duration::from_millis(100), 2);
        let mut plies = 0;
        while !pos.is_over() {
            let mv = if pos.to_move() == 0 {
                seat.choose(&pos)
            } else {
                cart.choose(&pos)
            };
            pos = pos.play(mv);
            plies += 1;
            assert!(plies < 200, "the game is still going after {plies} plies");
        }
    }

    /// Every algorithm chooses only among the root moves it is limited to, a limit that
    /// leaves nothing legal is ignored, and a lifted limit leaves no trace.
    #[test]
    fn a_restricted_root_chooses_among_the_allowed_moves() {
        use crate::layouts::{ThirdCorner, start_position};
        use nesmind_search::Game;
        for (players, algorithm) in [
            (2, Algorithm::Negamax),
            (2, Algorithm::Expectimax),
            (3, Algorithm::Paranoid),
            (3, Algorithm::BestReply),
            (4, Algorithm::Hypermax),
        ] {
            let pos = start_position(players, 0, ThirdCorner::LowerLeft).expect("start");
            let mut s = Searcher::new(SearchConfig::timed(algorithm, Duration::from_secs(1), 3));
            s.set_fixed_budget(None, Some(2));
            let free = s.search(&pos);
            let mut moves = Vec::new();
            pos.moves(&mut moves);
            let other = *moves
                .iter()
                .rev()
                .find(|&&m| m != free.best)
                .expect("two moves");
            s.restrict_root(Some(&[other]));
            assert_eq!(s.search(&pos).best, other, "{algorithm:?}");
            s.restrict_root(Some(&[Move::PASS]));
            assert!(moves.contains(&s.search(&pos).best), "{algorithm:?}");
            // Lifted, the value is the position's own again (the table was emptied).
            s.restrict_root(None);
            assert_eq!(s.search(&pos).score, free.score, "{algorithm:?}");
        }
    }
}
