//! `HatrisSim` and `HatrisDemo`: `nesmind sim hatris` and `nesmind demo hatris --headless`
//! from Python, in slices of the game range, so a batch can be spread over Ray workers and
//! merged into the report the command prints.
//!
//! Game i of a batch uses seed + i in both commands, and the commands summarise the games
//! in index order, so any split of the range gives the totals of one run of the whole range.

use crate::errors::NesError;
use nesmind_hatris::demo::{cart_session, drive, game_line, summary};
use nesmind_hatris::eval::Weights;
use nesmind_hatris::play::{RunResult, play_many, run_parallel};
use nesmind_hatris::rules::{NestReading, Settings};
use nesmind_hatris::sim::Batch;
use nesmind_hatris::variant::Cart;
use nesmind_host::PluginOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::BTreeMap;

fn result_dict<'py>(py: Python<'py>, index: usize, r: &RunResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("index", index)?;
    d.set_item("spawns", r.spawns)?;
    d.set_item("finished_at", r.finished_at)?;
    d.set_item("capped", r.capped)?;
    d.set_item("cash", r.cash)?;
    d.set_item("level", r.level)?;
    Ok(d)
}

/// The records in index order; every index of `0..runs` exactly once.
fn results_in_order(records: &[Bound<'_, PyAny>], runs: usize) -> PyResult<Vec<RunResult>> {
    let mut slots: Vec<Option<RunResult>> = vec![None; runs];
    for d in records {
        let index: usize = d.get_item("index")?.extract()?;
        let slot = slots.get_mut(index).ok_or_else(|| {
            PyValueError::new_err(format!("record index {index} is outside 0..{runs}"))
        })?;
        if slot.is_some() {
            return Err(PyValueError::new_err(format!(
                "game {index} has two records"
            )));
        }
        *slot = Some(RunResult {
            spawns: d.get_item("spawns")?.extract()?,
            finished_at: d.get_item("finished_at")?.extract()?,
            capped: d.get_item("capped")?.extract()?,
            cash: d.get_item("cash")?.extract()?,
            level: d.get_item("level")?.extract()?,
        });
    }
    let missing = slots.iter().filter(|s| s.is_none()).count();
    if missing > 0 {
        return Err(PyValueError::new_err(format!(
            "{missing} of {runs} games have no record"
        )));
    }
    Ok(slots.into_iter().flatten().collect())
}

fn check_slice(first: usize, count: usize, runs: usize) -> PyResult<()> {
    if first.checked_add(count).is_none_or(|end| end > runs) {
        return Err(PyValueError::new_err(format!(
            "games {first}..{} are outside the batch's 0..{runs}",
            first.saturating_add(count)
        )));
    }
    Ok(())
}

/// The settings of one `nesmind sim hatris` batch (its flags; files are given as their
/// text, so workers on other machines need not see them).
#[pyclass(module = "nesmind", frozen)]
pub struct HatrisSim {
    settings: Settings,
    weights: Weights,
    runs: usize,
    seed: u64,
    cap: Option<u64>,
}

#[pymethods]
impl HatrisSim {
    /// HatrisSim(runs=2000, seed=1, no_skew=False, weights=None, third_pair_lines=None,
    ///           settings=None, reading=None, height_limit=None, max_spawns=None)
    ///
    /// `weights` and `settings` are RON texts (the files `--weights` and `--settings`
    /// read); the other arguments are the flags of the same names.
    #[new]
    #[pyo3(signature = (runs = 2000, seed = 1, no_skew = false, weights = None,
        third_pair_lines = None, settings = None, reading = None, height_limit = None,
        max_spawns = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        runs: usize,
        seed: u64,
        no_skew: bool,
        weights: Option<&str>,
        third_pair_lines: Option<u32>,
        settings: Option<&str>,
        reading: Option<&str>,
        height_limit: Option<u16>,
        max_spawns: Option<u64>,
    ) -> PyResult<HatrisSim> {
        let bad = |e: String| PyValueError::new_err(e);
        if runs == 0 {
            return Err(bad("runs must be at least 1".into()));
        }
        let mut rules = match settings {
            Some(text) => Settings::from_ron(text).map_err(|e| bad(format!("settings: {e}")))?,
            None => Settings::default(),
        };
        if no_skew {
            rules.pair_skew = false;
        }
        match reading {
            None => {}
            Some("A") => rules.nest_reading = NestReading::A,
            Some("B") => rules.nest_reading = NestReading::B,
            Some(r) => return Err(bad(format!("reading must be A or B, not '{r}'"))),
        }
        if let Some(h) = height_limit {
            rules.height_limit = h;
        }
        rules.validate().map_err(bad)?;
        let mut weights = match weights {
            Some(text) => Weights::from_ron(text).map_err(|e| bad(format!("weights: {e}")))?,
            None => Weights::shipped(),
        };
        if let Some(n) = third_pair_lines {
            weights.third_pair_lines = n;
        }
        Ok(HatrisSim {
            settings: rules,
            weights,
            runs,
            seed,
            cap: max_spawns,
        })
    }

    /// Games in the whole batch.
    #[getter]
    fn runs(&self) -> usize {
        self.runs
    }

    /// play(first, count, threads=1) -> list[dict]: plays games first..first+count (GIL
    /// released) and returns one record per game: index, spawns, finished_at (spawn of
    /// the 60th level, or None), capped, cash, level.
    #[pyo3(signature = (first, count, threads = 1))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        first: usize,
        count: usize,
        threads: usize,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        check_slice(first, count, self.runs)?;
        let seed = self.seed.wrapping_add(first as u64);
        let results = py.allow_threads(|| {
            let (s, w) = (&self.settings, &self.weights);
            play_many(s, w, seed, count, self.cap, threads.max(1), &|_, _, _| {})
        });
        results
            .iter()
            .enumerate()
            .map(|(i, r)| result_dict(py, first + i, r))
            .collect()
    }

    /// report(records, threads, seconds) -> str: the lines `nesmind sim hatris` prints for
    /// the whole batch, from one record per game (any order); `threads` and `seconds` (the
    /// wall-clock time) fill its `threads` and `time` figures.
    fn report(
        &self,
        records: Vec<Bound<'_, PyAny>>,
        threads: usize,
        seconds: f64,
    ) -> PyResult<String> {
        let results = results_in_order(&records, self.runs)?;
        let batch = Batch {
            seed: self.seed,
            settings: &self.settings,
            weights: &self.weights,
            cap: self.cap,
            threads,
        };
        let played = results.iter().map(|r| r.spawns).sum();
        Ok(batch.report(&results, seconds, played))
    }
}

/// The settings of one `nesmind demo hatris --headless` batch: the Hatris player on the
/// Hatris-like demo cart (or a variant of it, built with cc65 where it is played).
#[pyclass(module = "nesmind", frozen)]
pub struct HatrisDemo {
    runs: usize,
    seed: u64,
    cap: Option<u64>,
    cart_variant: Option<u64>,
    options: PluginOptions,
}

#[pymethods]
impl HatrisDemo {
    /// HatrisDemo(runs=10, seed=1, max_spawns=1000, cart_variant=None, plugin_options=None)
    ///
    /// `max_spawns=0` plays every game to its end; `cart_variant` is a classic variant's seed
    /// (as `nesmind demo hatris --cart-variant SEED` builds).
    #[new]
    #[pyo3(signature = (runs = 10, seed = 1, max_spawns = 1000, cart_variant = None,
        plugin_options = None))]
    fn new(
        runs: usize,
        seed: u64,
        max_spawns: u64,
        cart_variant: Option<u64>,
        plugin_options: Option<BTreeMap<String, String>>,
    ) -> PyResult<HatrisDemo> {
        if runs == 0 {
            return Err(PyValueError::new_err("runs must be at least 1"));
        }
        let mut options = PluginOptions::new();
        for (k, v) in plugin_options.unwrap_or_default() {
            options.insert(k, v);
        }
        Ok(HatrisDemo {
            runs,
            seed,
            cap: (max_spawns > 0).then_some(max_spawns),
            cart_variant,
            options,
        })
    }

    /// Games in the whole batch.
    #[getter]
    fn runs(&self) -> usize {
        self.runs
    }

    /// play(first, count, threads=1) -> list[dict]: plays games first..first+count (GIL
    /// released); one record per game: index, spawns, finished_at (always None), capped,
    /// cash, level. A game that fails (a stalled game, a failed calibration) raises NesError.
    #[pyo3(signature = (first, count, threads = 1))]
    fn play<'py>(
        &self,
        py: Python<'py>,
        first: usize,
        count: usize,
        threads: usize,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        check_slice(first, count, self.runs)?;
        let results = py.allow_threads(|| {
            let cart = match self.cart_variant {
                Some(seed) => Cart::classic(seed, &[])?,
                None => Cart::default_cart(),
            };
            let job = |i: usize| {
                let player = nesmind_hatris::player::create(&self.options)?;
                let mut session = cart_session(&cart, player)?;
                let seed = self.seed.wrapping_add((first + i) as u64);
                drive(&mut session, &cart, seed, self.cap)
            };
            run_parallel(count, threads.max(1), &job, &|_, _, _| {})
                .into_iter()
                .collect::<Result<Vec<_>, String>>()
        });
        let results = results.map_err(NesError::new_err)?;
        results
            .iter()
            .enumerate()
            .map(|(i, r)| result_dict(py, first + i, r))
            .collect()
    }

    /// report(records) -> str: what `nesmind demo hatris --headless --threads 1` prints for
    /// the whole batch (one line per game in seed order, then the summary ending with
    /// `mean_spawns M`), from one record per game in any order.
    fn report(&self, records: Vec<Bound<'_, PyAny>>) -> PyResult<String> {
        let results = results_in_order(&records, self.runs)?;
        let mut out = String::new();
        for (i, r) in results.iter().enumerate() {
            out += &game_line(i, self.seed.wrapping_add(i as u64), r);
            out.push('\n');
        }
        out += &summary(self.seed, self.cap, &results);
        Ok(out)
    }
}
