//! `SpotArena`: `nesmind arena spot` from Python, in slices of the game range, so a batch
//! can be spread over Ray workers and merged into the same report.

use nesmind_spot::arena::{self, ArenaConfig, GameRecord, Placing};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Duration;

/// The settings of one arena batch (the flags of `nesmind arena spot`). Games are
/// reproducible by index for a given seed, so any split of the index range into slices
/// played anywhere gives the records one run of the whole range gives, as long as every
/// seat's budget is fixed: `move_nodes` or `depth` for the search seats, or seats whose
/// budget is fixed by their kind (`hypermax-article`, `nes-ai`, `greedy`, `random`).
/// `move_time_ms` alone depends on the machine's speed and load.
#[pyclass(module = "nesmind", frozen)]
pub struct SpotArena {
    cfg: ArenaConfig,
}

fn placing_name(p: Placing) -> &'static str {
    match p {
        Placing::Won => "won",
        Placing::Drew => "drew",
        Placing::Lost => "lost",
    }
}

fn parse_placing(s: &str) -> PyResult<Placing> {
    match s {
        "won" => Ok(Placing::Won),
        "drew" => Ok(Placing::Drew),
        "lost" => Ok(Placing::Lost),
        _ => Err(PyValueError::new_err(format!(
            "unknown placing '{s}' (won, drew, lost)"
        ))),
    }
}

fn record_dict<'py>(py: Python<'py>, index: usize, r: &GameRecord) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("index", index)?;
    let placings: Vec<&str> = r.placings.iter().map(|p| placing_name(*p)).collect();
    d.set_item("placings", placings)?;
    d.set_item("layout", r.layout)?;
    d.set_item("counts", r.counts.clone())?;
    d.set_item("plies", r.plies)?;
    d.set_item("adjudicated", r.adjudicated)?;
    Ok(d)
}

fn record_from(d: &Bound<'_, PyAny>) -> PyResult<(usize, GameRecord)> {
    let placings: Vec<String> = d.get_item("placings")?.extract()?;
    let index: usize = d.get_item("index")?.extract()?;
    let record = GameRecord {
        placings: placings
            .iter()
            .map(|s| parse_placing(s))
            .collect::<PyResult<_>>()?,
        layout: d.get_item("layout")?.extract()?,
        counts: d.get_item("counts")?.extract()?,
        plies: d.get_item("plies")?.extract()?,
        adjudicated: d.get_item("adjudicated")?.extract()?,
    };
    Ok((index, record))
}

#[pymethods]
impl SpotArena {
    /// SpotArena(games=100, players=2, seats="spot,nes-ai:5", move_time_ms=100, seed=1,
    ///           layout=None, bonus=True, all_layouts=False, skip_decided=False,
    ///           move_nodes=None, depth=None)
    #[new]
    #[pyo3(signature = (games = 100, players = 2, seats = "spot,nes-ai:5", move_time_ms = 100,
        seed = 1, layout = None, bonus = true, all_layouts = false, skip_decided = false,
        move_nodes = None, depth = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        games: usize,
        players: usize,
        seats: &str,
        move_time_ms: u64,
        seed: u64,
        layout: Option<&str>,
        bonus: bool,
        all_layouts: bool,
        skip_decided: bool,
        move_nodes: Option<u64>,
        depth: Option<u32>,
    ) -> PyResult<SpotArena> {
        if !(2..=4).contains(&players) {
            return Err(PyValueError::new_err(format!(
                "players must be 2-4, not {players}"
            )));
        }
        if move_nodes == Some(0) {
            return Err(PyValueError::new_err("move_nodes must be at least 1"));
        }
        if let Some(d) = depth
            && !(1..=64).contains(&d)
        {
            return Err(PyValueError::new_err(format!(
                "depth must be 1-64, not {d}"
            )));
        }
        Ok(SpotArena {
            cfg: ArenaConfig {
                games,
                players,
                seats: arena::parse_seats(seats, players).map_err(PyValueError::new_err)?,
                move_time: Duration::from_millis(move_time_ms),
                seed,
                threads: 1,
                layout: arena::parse_optional_layout(layout).map_err(PyValueError::new_err)?,
                bonus,
                first_game: 0,
                all_layouts,
                skip_decided,
                budget: arena::MoveBudget {
                    nodes: move_nodes,
                    depth,
                },
            },
        })
    }

    /// Games in the whole batch.
    #[getter]
    fn games(&self) -> usize {
        self.cfg.games
    }

    /// play(first, count, threads=1) -> list[dict]: plays games first..first+count (GIL
    /// released) and returns one record per game: index, placings (per seat: "won",
    /// "drew", "lost"), layout, counts, plies, adjudicated.
    #[pyo3(signature = (first, count, threads = 1))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        first: usize,
        count: usize,
        threads: usize,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let cfg = ArenaConfig {
            games: count,
            first_game: first,
            threads: threads.max(1),
            ..self.cfg.clone()
        };
        let records = py.allow_threads(|| arena::run(&cfg, |_| {}));
        records
            .iter()
            .enumerate()
            .map(|(i, r)| record_dict(py, first + i, r))
            .collect()
    }

    /// report(records) -> str: the table `nesmind arena spot` prints for these records
    /// (any order; each record's `index` says which seat moved first; the last line is
    /// `win_rate W` for seat 1).
    fn report(&self, records: Vec<Bound<'_, PyAny>>) -> PyResult<String> {
        let records: Vec<(usize, GameRecord)> =
            records.iter().map(record_from).collect::<PyResult<_>>()?;
        if let Some((_, r)) = records
            .iter()
            .find(|(_, r)| r.placings.len() != self.cfg.players)
        {
            return Err(PyValueError::new_err(format!(
                "a record has {} seats; this arena has {}",
                r.placings.len(),
                self.cfg.players
            )));
        }
        Ok(arena::report_indexed(&self.cfg, &records))
    }

    /// run(threads=1) -> str: the whole batch on this machine, as `nesmind arena spot`.
    #[pyo3(signature = (threads = 1))]
    fn run(&self, py: Python<'_>, threads: usize) -> String {
        let cfg = ArenaConfig {
            threads: threads.max(1),
            ..self.cfg.clone()
        };
        py.allow_threads(|| {
            let records = arena::run(&cfg, |_| {});
            arena::report_in_game_order(&cfg, &records)
        })
    }
}
