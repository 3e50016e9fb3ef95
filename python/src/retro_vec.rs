//! `nesmind.RetroVec`: N copies of one stable-retro integration stepped together on a
//! thread pool with the GIL released; the emulation, the picture's framing and the
//! scenario's rewards, ends and variables all happen in Rust, and results land in arrays
//! the caller owns. `nesmind.retro.make_vec` wraps it as a Gymnasium vector env.
//!
//! Episodes restart as Gymnasium's vector envs do by default (next-step autoreset): the
//! step after an env's episode ended restarts it from the start state instead of stepping
//! it, with reward 0 and no end, and its observation is the new episode's first.

use crate::errors::JamError;
use crate::machine::{Machine, WIDTH, picture_rgb, run_frames};
use crate::retro::{PAD_BITS, RetroGame, filtered};
use nesmind_emu::Buttons;
use nesmind_retro::{Evaluator, Step};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::Arc;

/// The part of the picture stable-retro shows: 8 pixels off each side, 8 lines off the top
/// and bottom.
const TOP: usize = 8;
const LEFT: usize = 8;
const SHOWN_H: usize = 224;
const SHOWN_W: usize = 240;

struct Env {
    machine: nesmind_emu::Machine,
    eval: Evaluator,
    /// The episode ended: the next step restarts it.
    ended: bool,
}

/// N envs of one integration (see the module header).
#[pyclass(module = "nesmind")]
pub struct RetroVec {
    envs: Vec<Env>,
    start: nesmind_emu::Machine,
    /// FILTERED actions: each mask is cut to the scenario's combinations.
    filter: Option<Vec<Vec<u16>>>,
    /// x, y, width, height of the observation within the shown picture.
    crop: [usize; 4],
    variables: Vec<String>,
    pool: rayon::ThreadPool,
    rom: Arc<nesmind_emu::Rom>,
}

/// Cuts `crop` (x, y, width, height; 0 or too large: to the edge) to the shown picture.
fn clamp_crop(c: (u64, u64, u64, u64)) -> [usize; 4] {
    let (x, y) = (
        (c.0 as usize).min(SHOWN_W - 1),
        (c.1 as usize).min(SHOWN_H - 1),
    );
    let w = match c.2 as usize {
        0 => SHOWN_W - x,
        w => w.min(SHOWN_W - x),
    };
    let h = match c.3 as usize {
        0 => SHOWN_H - y,
        h => h.min(SHOWN_H - y),
    };
    [x, y, w, h]
}

fn observe(crop: [usize; 4], m: &nesmind_emu::Machine, out: &mut [u8]) {
    let [x, y, w, _] = crop;
    let picture = m.picture();
    for (row, o) in out.chunks_exact_mut(w * 3).enumerate() {
        let from = (TOP + y + row) * WIDTH + LEFT + x;
        picture_rgb(&picture[from..from + w], o);
    }
}

/// The pad byte for a mask of stable-retro's buttons (bit i: `BUTTONS[i]`).
fn pad(mask: u16) -> Buttons {
    Buttons(
        PAD_BITS
            .iter()
            .enumerate()
            .filter(|(i, _)| mask >> i & 1 != 0)
            .fold(0, |b, (_, bit)| b | bit),
    )
}

/// Starts an env's episode: the start state, one frame with no buttons (as stable-retro's
/// reset), the scenario restarted and evaluated.
fn restart(env: &mut Env, start: &nesmind_emu::Machine) -> Result<Step, String> {
    env.machine = start.clone();
    env.machine.set_buttons(0, Buttons::NONE);
    run_frames(&mut env.machine, 1, None).map_err(|e| e.to_string())?;
    env.eval.restart()?;
    let step = env.eval.update(env.machine.ram())?;
    env.ended = false;
    Ok(step)
}

#[pymethods]
impl RetroVec {
    /// RetroVec(game, start, n, filtered=True, threads=None): `n` envs of the integration
    /// `game` (a RetroGame, whose scenario each copies) starting from the machine `start`
    /// (its ROM, at the episodes' start state).
    #[new]
    #[pyo3(signature = (game, start, n, filtered = true, threads = None))]
    fn new(
        game: PyRef<'_, RetroGame>,
        start: PyRef<'_, Machine>,
        n: usize,
        filtered: bool,
        threads: Option<usize>,
    ) -> PyResult<RetroVec> {
        if n == 0 {
            return Err(PyValueError::new_err("n must be at least 1"));
        }
        let pool = crate::vec::thread_pool(threads)?;
        let rom = start.rom.clone();
        let start = (*start.machine).clone();
        let envs = (0..n)
            .map(|_| Env {
                machine: start.clone(),
                eval: game.evaluator().clone(),
                ended: true,
            })
            .collect();
        Ok(RetroVec {
            envs,
            start,
            filter: filtered.then(|| game.actions().to_vec()),
            crop: clamp_crop(game.crop(0)),
            variables: game.evaluator().data().vars.keys().cloned().collect(),
            pool,
            rom,
        })
    }

    fn __len__(&self) -> usize {
        self.envs.len()
    }

    /// The observation's shape: (height, width, 3).
    #[getter]
    fn obs_shape(&self) -> (usize, usize, usize) {
        (self.crop[3], self.crop[2], 3)
    }

    /// The variables, in the order of `info_out`'s columns.
    #[getter]
    fn variables(&self) -> Vec<String> {
        self.variables.clone()
    }

    /// reset(obs_out): every env starts an episode; observations into `obs_out`, uint8
    /// (n, height, width, 3).
    fn reset(&mut self, py: Python<'_>, obs_out: Bound<'_, numpy::PyArray4<u8>>) -> PyResult<()> {
        let n = self.envs.len();
        let shape = self.obs_shape();
        let mut obs = obs_out.try_readwrite()?;
        check_shape(obs.shape(), &[n, shape.0, shape.1, 3], "obs_out")?;
        let obs = obs.as_slice_mut()?;
        let each = obs.len() / n;
        let (envs, start, pool, crop) = (&mut self.envs, &self.start, &self.pool, self.crop);
        let failed = py.allow_threads(|| {
            pool.install(|| {
                envs.par_iter_mut()
                    .zip(obs.par_chunks_mut(each))
                    .enumerate()
                    .map(|(i, (env, o))| {
                        let r = restart(env, start).map_err(|e| format!("env {i}: {e}"));
                        observe(crop, &env.machine, o);
                        r.map(|_| ())
                    })
                    .find_first(|r| r.is_err())
            })
        });
        match failed {
            Some(Err(e)) => Err(JamError::new_err(e)),
            _ => Ok(()),
        }
    }

    /// step(masks, obs_out, reward_out, done_out, info_out): each env presses its mask of
    /// stable-retro's buttons (uint16 (n,), bit i: BUTTONS[i]; cut to the scenario's
    /// combinations when FILTERED) for one frame, or restarts if its episode ended last
    /// step; its observation, reward (player 1's), end and variables (int64 (n, vars))
    /// land in the arrays.
    fn step(
        &mut self,
        py: Python<'_>,
        masks: PyReadonlyArray1<'_, u16>,
        obs_out: Bound<'_, numpy::PyArray4<u8>>,
        reward_out: Bound<'_, PyArray1<f32>>,
        done_out: Bound<'_, PyArray1<bool>>,
        info_out: Bound<'_, PyArray2<i64>>,
    ) -> PyResult<()> {
        let n = self.envs.len();
        let masks = masks.as_slice()?.to_vec();
        if masks.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} masks for {n} envs",
                masks.len()
            )));
        }
        let shape = self.obs_shape();
        let mut obs = obs_out.try_readwrite()?;
        check_shape(obs.shape(), &[n, shape.0, shape.1, 3], "obs_out")?;
        let mut rew = reward_out.try_readwrite()?;
        check_shape(rew.shape(), &[n], "reward_out")?;
        let mut done = done_out.try_readwrite()?;
        check_shape(done.shape(), &[n], "done_out")?;
        let mut info = info_out.try_readwrite()?;
        let vars = self.variables.len();
        check_shape(info.shape(), &[n, vars], "info_out")?;
        let (obs, rew, done, info) = (
            obs.as_slice_mut()?,
            rew.as_slice_mut()?,
            done.as_slice_mut()?,
            info.as_slice_mut()?,
        );
        let each = obs.len() / n;
        let (envs, start, pool, crop) = (&mut self.envs, &self.start, &self.pool, self.crop);
        let (filter, names) = (&self.filter, &self.variables);
        let failed = py.allow_threads(|| {
            pool.install(|| {
                envs.par_iter_mut()
                    .zip(masks.par_iter())
                    .zip(obs.par_chunks_mut(each))
                    .zip(rew.par_iter_mut().zip(done.par_iter_mut()))
                    .zip(info.par_chunks_mut(vars.max(1)))
                    .enumerate()
                    .map(|(i, ((((env, &mask), o), (r, d)), inf))| {
                        let step = if env.ended {
                            restart(env, start).map(|s| Step {
                                rewards: vec![0.0],
                                done: false,
                                ..s
                            })
                        } else {
                            let mask = filter.as_ref().map_or(mask, |g| filtered(g, mask));
                            env.machine.set_buttons(0, pad(mask));
                            run_frames(&mut env.machine, 1, None)
                                .map_err(|e| e.to_string())
                                .and_then(|()| env.eval.update(env.machine.ram()))
                        };
                        let step = step.map_err(|e| format!("env {i}: {e}"))?;
                        (*r, *d) = (step.rewards[0], step.done);
                        env.ended = step.done;
                        observe(crop, &env.machine, o);
                        for (slot, name) in inf.iter_mut().zip(names) {
                            *slot = step.info.get(name).copied().unwrap_or(0);
                        }
                        Ok(())
                    })
                    .find_first(|r: &Result<(), String>| r.is_err())
            })
        });
        match failed {
            Some(Err(e)) => Err(JamError::new_err(e)),
            _ => Ok(()),
        }
    }

    /// get(i) -> Machine: a copy of env `i`'s machine.
    fn get(&self, i: usize) -> PyResult<Machine> {
        let env = self
            .envs
            .get(i)
            .ok_or_else(|| PyValueError::new_err(format!("env {i} of {}", self.envs.len())))?;
        Ok(Machine::wrap(env.machine.clone(), self.rom.clone()))
    }
}

fn check_shape(got: &[usize], want: &[usize], name: &str) -> PyResult<()> {
    if got != want {
        return Err(PyValueError::new_err(format!(
            "{name} has shape {got:?}, expected {want:?} (and C-contiguous)"
        )));
    }
    Ok(())
}
