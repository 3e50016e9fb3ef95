//! `SpotGame`: the rules of the DOTS cartridge (the Spot crate's model, which the cart
//! implements) as the PettingZoo environments use them: actions as integers, board
//! planes per seat, and the in-tree seats as opponents.

use nesmind_spot::arena::STALL_PLIES;
use nesmind_spot::board::{Bits, CELLS};
use nesmind_spot::layouts::{
    BUILTIN_LAYOUTS, ThirdCorner, builtin_layout, parse_fen, parse_layout, players_can_meet,
    start_position, to_fen,
};
use nesmind_spot::moves::{Kind, Move};
use nesmind_spot::players::{Seat, SeatKind};
use nesmind_spot::position::{Outcome, Position};
use numpy::{PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// Action numbers: `from * 49 + to` for a step (a clone has from == to), and PASS.
pub const PASS_ACTION: usize = CELLS * CELLS;
pub const ACTIONS: usize = PASS_ACTION + 1;

pub fn action_of(mv: Move) -> usize {
    match mv.kind {
        Kind::Step => usize::from(mv.from) * CELLS + usize::from(mv.to),
        _ => PASS_ACTION,
    }
}

/// The legal actions of `pos` (PASS when its mover cannot step; none once it is over).
pub fn legal_actions(pos: &Position) -> Vec<usize> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out.into_iter().map(action_of).collect()
}

/// The legal move `action` stands for in `pos`; ValueError otherwise.
pub fn move_of(pos: &Position, action: usize) -> PyResult<Move> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    legal
        .into_iter()
        .find(|m| action_of(*m) == action)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "action {action} is not legal for seat {} now",
                pos.to_move()
            ))
        })
}

/// Pieces per seat.
pub fn counts(pos: &Position) -> Vec<u32> {
    (0..pos.players()).map(|p| pos.count(p)).collect()
}

/// +1 for the sole leader, -1 for the others; 0 for everyone sharing the lead, -1 the rest.
pub fn scores(pos: &Position) -> Vec<f64> {
    let counts = counts(pos);
    let best = counts.iter().copied().max().unwrap_or(0);
    match pos.ranking_outcome() {
        Outcome::Win(w) => (0..counts.len())
            .map(|p| if p == w { 1.0 } else { -1.0 })
            .collect(),
        Outcome::Draw => counts
            .iter()
            .map(|&c| if c == best { 0.0 } else { -1.0 })
            .collect(),
    }
}

/// The int8 (7, 7, players + 1) planes of `pos` seen from `seat` (see `SpotGame.planes`).
pub fn planes<'py>(
    py: Python<'py>,
    pos: &Position,
    seat: usize,
) -> PyResult<Bound<'py, PyArray3<i8>>> {
    let n = pos.players();
    if seat >= n {
        return Err(PyValueError::new_err(format!(
            "seat {seat} does not play ({n} players)"
        )));
    }
    let out = PyArray3::<i8>::zeros(py, [7, 7, n + 1], false);
    {
        let mut rw = out.readwrite();
        let mut a = rw.as_array_mut();
        for k in 0..n {
            for sq in Bits(pos.pieces((seat + k) % n)) {
                a[[usize::from(sq) / 7, usize::from(sq) % 7, k]] = 1;
            }
        }
        for sq in Bits(pos.blocked()) {
            a[[usize::from(sq) / 7, usize::from(sq) % 7, n]] = 1;
        }
    }
    Ok(out)
}

/// The board as 7 rows of '1'-'4' (seats), '#' (blocked) and '.', split by '/'.
pub fn board_text(pos: &Position) -> String {
    let mut s = String::new();
    for sq in 0..CELLS as u8 {
        s.push(match pos.owner(sq) {
            Some(p) => char::from(b'1' + p as u8),
            None if pos.blocked() >> sq & 1 == 1 => '#',
            None => '.',
        });
        if sq % 7 == 6 && usize::from(sq) != CELLS - 1 {
            s.push('/');
        }
    }
    s
}

/// A game of DOTS without the bonus game (the prize moves are not actions).
#[pyclass(module = "nesmind")]
#[derive(Clone)]
pub struct SpotGame {
    pos: Position,
    plies: usize,
    /// The ply at which an empty square was last filled (for the stall rule).
    last_fill: usize,
    layout: Option<usize>,
}

impl SpotGame {
    fn stalled(&self) -> bool {
        self.plies - self.last_fill >= STALL_PLIES
    }
}

#[pymethods]
impl SpotGame {
    /// SpotGame(players=2, layout=None, seed=0)
    ///
    /// `layout`: a built-in number 0-511, 7 rows of '.'/'#' split by '/', or None for a
    /// random built-in layout on which the players can reach each other (drawn from `seed`,
    /// which also draws the third player's corner).
    #[new]
    #[pyo3(signature = (players = 2, layout = None, seed = 0))]
    fn new(players: usize, layout: Option<&Bound<'_, PyAny>>, seed: u64) -> PyResult<SpotGame> {
        if !(2..=4).contains(&players) {
            return Err(PyValueError::new_err(format!(
                "DOTS has 2-4 players, not {players}"
            )));
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let third = if rng.gen_bool(0.5) {
            ThirdCorner::LowerLeft
        } else {
            ThirdCorner::LowerRight
        };
        let (blocked, number) = match layout.filter(|l| !l.is_none()) {
            Some(l) => match l.extract::<usize>() {
                Ok(i) => (builtin_layout(i).map_err(PyValueError::new_err)?, Some(i)),
                Err(_) => (
                    parse_layout(&l.extract::<String>()?).map_err(PyValueError::new_err)?,
                    None,
                ),
            },
            None => loop {
                let i = rng.gen_range(0..BUILTIN_LAYOUTS);
                let b = builtin_layout(i).expect("in range");
                if players_can_meet(b, players, third) {
                    break (b, Some(i));
                }
            },
        };
        let pos = start_position(players, blocked, third).map_err(PyValueError::new_err)?;
        Ok(SpotGame {
            pos,
            plies: 0,
            last_fill: 0,
            layout: number,
        })
    }

    /// Number of players.
    #[getter]
    fn players(&self) -> usize {
        self.pos.players()
    }

    /// The seat (0-based) to move.
    #[getter]
    fn to_move(&self) -> usize {
        self.pos.to_move()
    }

    /// Plies played.
    #[getter]
    fn plies(&self) -> usize {
        self.plies
    }

    /// The built-in layout number, or None for a custom layout.
    #[getter]
    fn layout(&self) -> Option<usize> {
        self.layout
    }

    /// legal_actions() -> list[int]: the mover's legal actions (PASS when it cannot step;
    /// empty once the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        legal_actions(&self.pos)
    }

    /// play(action): plays a legal action for the seat to move; ValueError otherwise.
    fn play(&mut self, action: usize) -> PyResult<()> {
        let mv = move_of(&self.pos, action)?;
        let empties = self.pos.empty().count_ones();
        self.pos = self.pos.play(mv);
        self.plies += 1;
        if self.pos.empty().count_ones() < empties {
            self.last_fill = self.plies;
        }
        Ok(())
    }

    /// Whether the game has ended by the rules (board full, one colour left, nobody can move).
    #[getter]
    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    /// Whether no empty square was filled for 150 plies (the arena scores such games as
    /// they stand; the rules themselves have no such end).
    #[getter]
    fn is_stalled(&self) -> bool {
        self.stalled()
    }

    /// counts() -> list[int]: pieces per seat.
    fn counts(&self) -> Vec<u32> {
        counts(&self.pos)
    }

    /// scores() -> list[float]: +1 for the sole leader, -1 for the others; 0 for everyone
    /// sharing the lead in a draw and -1 for the rest. Meaningful once the game has ended.
    fn scores(&self) -> Vec<f64> {
        scores(&self.pos)
    }

    /// planes(seat) -> numpy.ndarray: int8 (7, 7, players + 1) board planes seen from `seat`:
    /// plane 0 its pieces, planes 1..players-1 the others in turn order after it, the
    /// last plane the blocked squares.
    fn planes<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray3<i8>>> {
        planes(py, &self.pos, seat)
    }

    /// The position as FEN: rows top to bottom, x o y z for seats 0-3, '-' blocked, digits
    /// for runs of empty cells, then the seat to move.
    #[getter]
    fn fen(&self) -> String {
        to_fen(&self.pos)
    }

    /// SpotGame.from_fen(fen, players) -> SpotGame: a game from a position (the `fen`
    /// property of this class or of `SpotCart`), plies counted from 0.
    #[staticmethod]
    fn from_fen(fen: &str, players: usize) -> PyResult<SpotGame> {
        let pos = parse_fen(fen, players).map_err(PyValueError::new_err)?;
        Ok(SpotGame {
            pos,
            plies: 0,
            last_fill: 0,
            layout: None,
        })
    }

    /// best_action(seat_kind="nes-ai:5", seed=0, move_time_ms=100) -> int: the move an
    /// in-tree seat (as `nesmind arena spot --seats` names them: spot, hypermax,
    /// hypermax-article, nes-ai[:1-5], greedy, random, ...) plays here.
    #[pyo3(signature = (seat_kind = "nes-ai:5", seed = 0, move_time_ms = 100))]
    fn best_action(
        &self,
        py: Python<'_>,
        seat_kind: &str,
        seed: u64,
        move_time_ms: u64,
    ) -> PyResult<usize> {
        if self.pos.is_over() {
            return Err(PyValueError::new_err("the game is over"));
        }
        let kind = SeatKind::parse(seat_kind).map_err(PyValueError::new_err)?;
        let pos = self.pos;
        let mv = py.allow_threads(|| {
            Seat::new(
                kind,
                pos.players(),
                Duration::from_millis(move_time_ms),
                seed,
            )
            .choose(&pos)
        });
        Ok(action_of(mv))
    }

    /// copy() -> SpotGame: an independent copy.
    fn copy(&self) -> SpotGame {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<nesmind.SpotGame {} to move {} ply {}>",
            board_text(&self.pos),
            self.pos.to_move() + 1,
            self.plies
        )
    }
}
