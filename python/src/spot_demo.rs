//! `SpotDemo`: `nesmind demo spot --headless` from Python, one worker's share at a time, so
//! the workers of a batch can be Ray tasks and their reports merged as the command merges
//! its threads'.
//!
//! The command gives each of its `--threads` workers a share of the games and a seed of its
//! own; a worker plays its games one after another on one machine. A batch split into the
//! same workers, played anywhere, gives the same games (with a node or depth budget).

use crate::errors::NesError;
use nesmind_spot::demo::driver::{GameRecord, Report};
use nesmind_spot::demo::{self, Options, game_line, summary, variant, worker_seed};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn game_dict<'py>(py: Python<'py>, g: &GameRecord) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("layout", g.layout)?;
    d.set_item("first", g.first)?;
    d.set_item("counts", g.counts.clone())?;
    d.set_item("winner", g.winner)?;
    d.set_item("plugin_won", g.plugin_won)?;
    d.set_item("frames", g.frames)?;
    Ok(d)
}

fn game_from(d: &Bound<'_, PyAny>) -> PyResult<GameRecord> {
    Ok(GameRecord {
        layout: d.get_item("layout")?.extract()?,
        first: d.get_item("first")?.extract()?,
        counts: d.get_item("counts")?.extract()?,
        winner: d.get_item("winner")?.extract()?,
        plugin_won: d.get_item("plugin_won")?.extract()?,
        frames: d.get_item("frames")?.extract()?,
    })
}

/// The settings of one headless DOTS batch: the Spot plug-in against the cart's computer.
#[pyclass(module = "nesmind", frozen)]
pub struct SpotDemo {
    opts: Options,
    cart_variant: Option<u64>,
}

#[pymethods]
impl SpotDemo {
    /// SpotDemo(games=10, players=2, plugin_seats=1, level=5, move_nodes=None, depth=None,
    ///          move_ms=None, seed=1, animations=False, cart_variant=None)
    ///
    /// The flags of `nesmind demo spot --headless`; as there, the budget per move is 20000
    /// nodes unless `move_ms` or `depth` is given (a time budget is not reproducible).
    #[new]
    #[pyo3(signature = (games = 10, players = 2, plugin_seats = 1, level = 5, move_nodes = None,
        depth = None, move_ms = None, seed = 1, animations = false, cart_variant = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        games: usize,
        players: usize,
        plugin_seats: usize,
        level: u8,
        move_nodes: Option<u64>,
        depth: Option<u32>,
        move_ms: Option<u64>,
        seed: u64,
        animations: bool,
        cart_variant: Option<u64>,
    ) -> PyResult<SpotDemo> {
        let mut opts = Options::new(players, plugin_seats, level).map_err(PyValueError::new_err)?;
        opts.games = games;
        opts.move_ms = move_ms.unwrap_or(100).max(1);
        opts.depth = depth;
        opts.move_nodes = match (move_nodes, move_ms, depth) {
            (Some(n), _, _) => Some(n.max(1)),
            (None, None, None) => Some(demo::DEFAULT_MOVE_NODES),
            _ => None,
        };
        opts.seed = seed;
        opts.animations = animations;
        Ok(SpotDemo { opts, cart_variant })
    }

    /// Games in the whole batch.
    #[getter]
    fn games(&self) -> usize {
        self.opts.games
    }

    /// workers_for(workers) -> int: how many workers the command runs for `--threads
    /// workers` (never more than the games).
    fn workers_for(&self, workers: usize) -> usize {
        workers.clamp(1, self.opts.games.max(1))
    }

    /// play_worker(worker, workers) -> dict: the games worker `worker` of `workers` plays
    /// (GIL released), as `nesmind demo spot --headless --threads workers` would: games
    /// (list of dicts), errors, and the move counters of the summary.
    fn play_worker<'py>(
        &self,
        py: Python<'py>,
        worker: usize,
        workers: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let workers = self.workers_for(workers);
        if worker >= workers {
            return Err(PyValueError::new_err(format!(
                "worker {worker} of {workers}: workers count from 0"
            )));
        }
        let total = self.opts.games;
        let mut opts = self.opts.clone();
        opts.games = total / workers + usize::from(worker < total % workers);
        opts.seed = worker_seed(self.opts.seed, worker);
        opts.threads = 1;
        let report = py
            .allow_threads(|| {
                if let Some(seed) = self.cart_variant {
                    opts.cart = variant::build(seed)?;
                }
                demo::play(&opts)
            })
            .map_err(NesError::new_err)?;
        let d = PyDict::new(py);
        let games: Vec<_> = report
            .games
            .iter()
            .map(|g| game_dict(py, g))
            .collect::<PyResult<_>>()?;
        d.set_item("worker", worker)?;
        d.set_item("games", games)?;
        d.set_item("errors", report.errors)?;
        d.set_item("cpu_moves", report.cpu_moves)?;
        d.set_item("cpu_off_model", report.cpu_off_model)?;
        d.set_item("refused_presses", report.refused_presses)?;
        d.set_item("plugin_moves", report.plugin_moves)?;
        d.set_item("moves_by_slot", report.moves_by_slot)?;
        Ok(d)
    }

    /// report(parts) -> (str, list[str]): the game lines and summary the command prints
    /// (ending with `win_rate W`), from every worker's part (any order), and the problems
    /// the workers met (the command fails when there are any).
    fn report(&self, parts: Vec<Bound<'_, PyAny>>) -> PyResult<(String, Vec<String>)> {
        let mut parts: Vec<(usize, Bound<'_, PyAny>)> = parts
            .into_iter()
            .map(|p| Ok((p.get_item("worker")?.extract()?, p)))
            .collect::<PyResult<_>>()?;
        parts.sort_by_key(|(w, _)| *w);
        let mut total = Report::default();
        for (_, p) in &parts {
            let games: Vec<Bound<'_, PyAny>> = p.get_item("games")?.extract()?;
            total.absorb(Report {
                games: games.iter().map(game_from).collect::<PyResult<_>>()?,
                errors: p.get_item("errors")?.extract()?,
                cpu_moves: p.get_item("cpu_moves")?.extract()?,
                cpu_off_model: p.get_item("cpu_off_model")?.extract()?,
                refused_presses: p.get_item("refused_presses")?.extract()?,
                plugin_moves: p.get_item("plugin_moves")?.extract()?,
                moves_by_slot: p.get_item("moves_by_slot")?.extract()?,
                ..Report::default()
            });
        }
        let mut out = String::new();
        if let Some(seed) = self.cart_variant {
            out.push_str(&format!("cart variant {seed}\n"));
        }
        for (i, g) in total.games.iter().enumerate() {
            out.push_str(&game_line(i + 1, g, &self.opts.settings));
            out.push('\n');
        }
        out.push_str(&summary(&total, &self.opts));
        Ok((out, total.errors))
    }
}
