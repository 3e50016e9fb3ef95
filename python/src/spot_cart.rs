//! `SpotCart`: a game of DOTS played on the demo cart in the emulator, every seat from
//! Python, with the interface of `SpotGame` (the rules model) so the PettingZoo
//! environments run on either. The cart does the work (`nesmind_spot::demo::table`): moves
//! go in through the pads, the board and the game's end come back from RAM.

use crate::errors::NesError;
use crate::machine::picture_rgb;
use crate::spot::{board_text, counts, legal_actions, move_of, planes, scores};
use nesmind_spot::arena::STALL_PLIES;
use nesmind_spot::demo::committed_cart;
use nesmind_spot::demo::table::{CartTable, End, offered_layouts};
use nesmind_spot::layouts::to_fen;
use numpy::{PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

#[pyclass(module = "nesmind")]
pub struct SpotCart {
    table: CartTable,
    plies: usize,
    /// The ply at which an empty cell was last filled (for the stall rule).
    last_fill: usize,
}

#[pymethods]
impl SpotCart {
    /// SpotCart(players=2, layout=None)
    ///
    /// Powers the DOTS cart on and sets its title menu: `players` slots HUMAN (each played
    /// on its pad from here), the others OFF, animations off; `layout` is a built-in layout
    /// number among `SpotCart.layouts()`, or None for one drawn from each reset's seed.
    /// Call `reset(seed)` to start a game. GIL released while the machine runs.
    #[new]
    #[pyo3(signature = (players = 2, layout = None))]
    fn new(py: Python<'_>, players: usize, layout: Option<u16>) -> PyResult<SpotCart> {
        if !(2..=4).contains(&players) {
            return Err(PyValueError::new_err(format!(
                "DOTS has 2-4 players, not {players}"
            )));
        }
        if let Some(n) = layout.filter(|n| !offered_layouts().contains(n)) {
            return Err(PyValueError::new_err(format!(
                "layout {n} is not among the cart's layouts {:?}",
                offered_layouts()
            )));
        }
        let table = py
            .allow_threads(|| CartTable::new(&committed_cart(), players, layout))
            .map_err(NesError::new_err)?;
        Ok(SpotCart {
            table,
            plies: 0,
            last_fill: 0,
        })
    }

    /// SpotCart.layouts() -> list[int]: the built-in layout numbers the cart offers.
    #[staticmethod]
    fn layouts() -> Vec<u16> {
        offered_layouts()
    }

    /// reset(seed): a new game from the title screen as power-on left it; `seed` draws the
    /// layout (unless one was given), set on the menu, and how many frames (1-256) the
    /// title waits before Start, which seeds the cart's own RNG (first mover, third
    /// player's corner).
    fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let table = &mut self.table;
        py.allow_threads(|| table.reset(seed))
            .map_err(NesError::new_err)?;
        self.plies = 0;
        self.last_fill = 0;
        Ok(())
    }

    /// Number of players.
    #[getter]
    fn players(&self) -> usize {
        self.table.players()
    }

    /// The seat (0-based; seat k is the cart's slot k + 1, on pad k + 1) to move.
    #[getter]
    fn to_move(&self) -> usize {
        self.table.position().to_move()
    }

    /// Plies played (moves and passes).
    #[getter]
    fn plies(&self) -> usize {
        self.plies
    }

    /// The built-in layout number the cart plays this game.
    #[getter]
    fn layout(&self) -> u16 {
        self.table.layout()
    }

    /// The seat the cart chose to move first.
    #[getter]
    fn first_mover(&self) -> usize {
        self.table.first_mover()
    }

    /// Frames the machine ran since the last reset.
    #[getter]
    fn frames(&self) -> u64 {
        self.table.frames
    }

    /// legal_actions() -> list[int]: the mover's legal actions on the board the cart shows
    /// (PASS when it cannot step; empty once the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        legal_actions(self.table.position())
    }

    /// play(action): plays a legal action for the seat to move: a step is entered on the
    /// cart with the seat's pad (the hand walked to the source, A, to the destination, A)
    /// and the board read back; a PASS confirms the pass the cart made by itself.
    /// ValueError for an illegal action, NesError if the cart does not answer as the rules say.
    fn play(&mut self, py: Python<'_>, action: usize) -> PyResult<()> {
        let mv = move_of(self.table.position(), action)?;
        let empties = self.table.position().empty().count_ones();
        let table = &mut self.table;
        py.allow_threads(|| table.play(mv))
            .map_err(NesError::new_err)?;
        self.plies += 1;
        if self.table.position().empty().count_ones() < empties {
            self.last_fill = self.plies;
        }
        Ok(())
    }

    /// Whether the cart has ended the game (its game-over screen is up).
    #[getter]
    fn is_over(&self) -> bool {
        matches!(self.table.end(), End::Over(_))
    }

    /// Whether no empty cell was filled for 150 plies (the environments end such games as
    /// they stand; the cart itself would play on).
    #[getter]
    fn is_stalled(&self) -> bool {
        self.plies - self.last_fill >= STALL_PLIES
    }

    /// The winning seat the cart names once it is over (None: a draw, or not over).
    #[getter]
    fn winner(&self) -> Option<usize> {
        match self.table.end() {
            End::Over(w) => w,
            End::Playing => None,
        }
    }

    /// counts() -> list[int]: pieces per seat on the cart's board.
    fn counts(&self) -> Vec<u32> {
        counts(self.table.position())
    }

    /// scores() -> list[float]: as `SpotGame.scores` (the cart's winner is checked to be the
    /// counts' leader).
    fn scores(&self) -> Vec<f64> {
        scores(self.table.position())
    }

    /// planes(seat) -> numpy.ndarray: int8 (7, 7, players + 1) board planes seen from
    /// `seat`, as `SpotGame.planes`, from the board in the cart's RAM.
    fn planes<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray3<i8>>> {
        planes(py, self.table.position(), seat)
    }

    /// The position as FEN (see `SpotGame.fen`).
    #[getter]
    fn fen(&self) -> String {
        to_fen(self.table.position())
    }

    /// picture() -> numpy.ndarray: uint8 RGB (240, 256, 3) of the cart's last frame.
    fn picture<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<u8>> {
        let out = PyArray3::<u8>::zeros(py, [240, 256, 3], false);
        {
            let mut rw = out.readwrite();
            let slice = rw.as_slice_mut().expect("a fresh array is contiguous");
            picture_rgb(self.table.machine().machine().picture(), slice);
        }
        out
    }

    fn __repr__(&self) -> String {
        format!(
            "<nesmind.SpotCart {} to move {} ply {}>",
            board_text(self.table.position()),
            self.to_move() + 1,
            self.plies
        )
    }
}
