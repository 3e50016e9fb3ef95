//! stable-retro's integrations for Python: one integration's ROM, states, variables,
//! rewards and ends, evaluated over a nesmind machine's RAM by `nesmind-retro`. The
//! Gymnasium env that `nesmind.retro.make` returns (python/nesmind/retro.py) is built on
//! this; the rules it must match are stable-retro's, checked in python/tests/test_retro.py.

use crate::errors::NesError;
use crate::machine::Machine;
use nesmind_host::files;
use nesmind_retro::integration::SETS;
use nesmind_retro::{Evaluator, GameData, Integration, Scenario, find_data, nes_integrations};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::{Path, PathBuf};

/// stable-retro's NES buttons, bit i of an action mask each (`None`: no button).
pub const BUTTONS: [Option<&str>; 9] = [
    Some("B"),
    None,
    Some("SELECT"),
    Some("START"),
    Some("UP"),
    Some("DOWN"),
    Some("LEFT"),
    Some("RIGHT"),
    Some("A"),
];

/// The pad bit (`nesmind_emu::Buttons`) of each of stable-retro's buttons.
pub const PAD_BITS: [u8; 9] = [0x02, 0, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x01];

/// What stable-retro's FILTERED actions keep of `action`: each group's part when it is one
/// of the group's combinations, else nothing of it.
pub fn filtered(groups: &[Vec<u16>], action: u16) -> u16 {
    groups.iter().fold(0, |kept, group| {
        let part = action & group.iter().fold(0, |m, c| m | c);
        if group.contains(&part) {
            kept | part
        } else {
            kept
        }
    })
}

/// The NES core's button combinations (stable-retro's `fceumm.json`), used where a
/// scenario names none: a direction up or down, one left or right, and A, B or both.
const CORE_ACTIONS: [&[&[&str]]; 3] = [
    &[&[], &["UP"], &["DOWN"]],
    &[&[], &["LEFT"], &["RIGHT"]],
    &[&[], &["A"], &["B"], &["A", "B"]],
];

/// A scenario or data file is small; a larger one is not what it claims to be.
const MAX_JSON: u64 = 4 << 20;

fn err(e: impl std::fmt::Display) -> PyErr {
    NesError::new_err(e.to_string())
}

/// The integration folder of `game`: `data` itself when it is one, else the folder of
/// that name among the NES integrations under `data` (or the installed stable-retro's).
fn integration_dir(game: &str, data: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(d) = data.filter(|d| d.join("rom.sha").is_file()) {
        return Ok(d.to_path_buf());
    }
    let root = find_data(data)?;
    let dirs = nes_integrations(&root.path, &SETS)?;
    dirs.iter()
        .find(|d| d.file_name().is_some_and(|n| n == game))
        .cloned()
        .ok_or_else(|| {
            format!(
                "no NES integration named {game:?} in {} (from {}; {} there)",
                root.path.display(),
                root.source,
                dirs.len()
            )
        })
}

/// `name` as stable-retro takes a scenario or info: a path when it ends in `.json`, else
/// the file of that name in the integration folder.
fn json_file(dir: &Path, name: &str) -> PathBuf {
    if name.ends_with(".json") {
        PathBuf::from(name)
    } else {
        dir.join(format!("{name}.json"))
    }
}

fn read_json(path: &Path, what: &str) -> Result<String, String> {
    files::read_capped_text(path, MAX_JSON, what)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A combination's mask from its button names.
fn mask_of(names: &[impl AsRef<str>]) -> Result<u16, String> {
    names.iter().try_fold(0u16, |m, n| {
        let bit = BUTTONS
            .iter()
            .position(|b| *b == Some(n.as_ref()))
            .ok_or_else(|| {
                format!(
                    "the scenario's actions name {:?}, not an NES button",
                    n.as_ref()
                )
            })?;
        Ok(m | 1 << bit)
    })
}

/// The allowed combinations per group, each group sorted (stable-retro keeps them in a
/// set, and its `Discrete` action numbers follow that order).
fn valid_actions(scenario: &Scenario) -> Result<Vec<Vec<u16>>, String> {
    let groups: Vec<Vec<u16>> = match &scenario.actions {
        Some(groups) => groups
            .iter()
            .map(|g| g.iter().map(|c| mask_of(c)).collect())
            .collect::<Result<_, _>>()?,
        None => CORE_ACTIONS
            .iter()
            .map(|g| g.iter().map(|c| mask_of(c)).collect())
            .collect::<Result<_, _>>()?,
    };
    Ok(groups
        .into_iter()
        .map(|mut g| {
            g.sort_unstable();
            g.dedup();
            g
        })
        .collect())
}

/// One integration, ready to evaluate a machine's RAM after each step.
#[pyclass(module = "nesmind")]
pub struct RetroGame {
    integration: Integration,
    eval: Evaluator,
    actions: Vec<Vec<u16>>,
    rom: Option<PathBuf>,
}

impl RetroGame {
    pub(crate) fn evaluator(&self) -> &Evaluator {
        &self.eval
    }
    pub(crate) fn actions(&self) -> &[Vec<u16>] {
        &self.actions
    }
    pub(crate) fn crop(&self, player: usize) -> (u64, u64, u64, u64) {
        let c = self.integration.scenario.crops.get(player);
        c.map_or((0, 0, 0, 0), |c| (c[0], c[1], c[2], c[3]))
    }
}

#[pymethods]
impl RetroGame {
    /// RetroGame(game, data=None, scenario=None, info=None, rom=None): `data` is a folder of
    /// integrations or one integration's folder (default: `$NESMIND_RETRO_DATA`, else the
    /// installed stable-retro's); `scenario`/`info` a name in the folder or a `.json` path.
    /// The ROM is `rom`, else the folder's `rom.nes` (a custom integration), else the one
    /// `nesmind retro import` put in the library.
    #[new]
    #[pyo3(signature = (game, data = None, scenario = None, info = None, rom = None))]
    fn new(
        game: &str,
        data: Option<PathBuf>,
        scenario: Option<String>,
        info: Option<String>,
        rom: Option<PathBuf>,
    ) -> PyResult<Self> {
        let dir = integration_dir(game, data.as_deref()).map_err(err)?;
        let mut integration = Integration::load(&dir).map_err(err)?;
        if let Some(info) = info {
            let path = json_file(&dir, &info);
            let text = read_json(&path, "an integration's data file").map_err(err)?;
            integration.data =
                GameData::parse(&text).map_err(|e| err(format!("{}: {e}", path.display())))?;
        }
        // A scenario's scripts lie beside it.
        let mut base = dir.clone();
        if let Some(scenario) = scenario {
            let path = json_file(&dir, &scenario);
            let text = read_json(&path, "a scenario").map_err(err)?;
            integration.scenario =
                Scenario::parse(&text).map_err(|e| err(format!("{}: {e}", path.display())))?;
            if let Some(parent) = path.parent() {
                base = parent.to_path_buf();
            }
        }
        let eval = Evaluator::load(
            integration.data.clone(),
            integration.scenario.clone(),
            &base,
        )
        .map_err(|e| err(format!("{game}: {e}")))?;
        let actions = valid_actions(&integration.scenario).map_err(err)?;
        let rom = rom.or_else(|| {
            let own = dir.join("rom.nes");
            let library = nesmind_retro::library::library_dir()
                .ok()
                .map(|l| nesmind_retro::library::rom_path(&l, game));
            std::iter::once(own).chain(library).find(|p| p.is_file())
        });
        Ok(RetroGame {
            integration,
            eval,
            actions,
            rom,
        })
    }

    #[getter]
    fn name(&self) -> &str {
        &self.integration.name
    }

    /// The integration's folder.
    #[getter]
    fn path(&self) -> PathBuf {
        self.integration.dir.clone()
    }

    /// The ROM's path, or None when no ROM was found (import it first).
    #[getter]
    fn rom_path(&self) -> Option<PathBuf> {
        self.rom.clone()
    }

    /// The `.state` files' names, without the extension.
    #[getter]
    fn states(&self) -> Vec<String> {
        self.integration.states.clone()
    }

    /// `metadata.json`'s `default_state`.
    #[getter]
    fn default_state(&self) -> Option<String> {
        self.integration.default_state.clone()
    }

    /// The `data.json` variables' names.
    #[getter]
    fn variables(&self) -> Vec<String> {
        self.eval.data().vars.keys().cloned().collect()
    }

    /// state_bytes(name) -> bytes: a `.state` file as stored (gzipped FCEUmm state), for
    /// `Machine.load_state`. `name` may end in `.state` or be a path to one.
    fn state_bytes<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyBytes>> {
        let stem = name.strip_suffix(".state").unwrap_or(name);
        let own = self.integration.state_path(stem);
        let path = if own.is_file() {
            own
        } else {
            PathBuf::from(name)
        };
        let bytes = files::read_capped(&path, nesmind_retro::fceumm::MAX_FILE, "an FCEUmm state")
            .map_err(|e| {
            err(format!(
                "{}: no state {name:?} ({}: {e}); it has {}",
                self.integration.name,
                path.display(),
                self.integration.states.join(", ")
            ))
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// valid_actions() -> list[list[int]]: the allowed button masks, per group.
    fn valid_actions(&self) -> Vec<Vec<u16>> {
        self.actions.clone()
    }

    /// filter_action(mask) -> int: what stable-retro's FILTERED actions keep of a mask:
    /// each group's part when it is one of the group's combinations, else nothing of it.
    fn filter_action(&self, action: u16) -> u16 {
        filtered(&self.actions, action)
    }

    /// crop_info(player=0) -> (x, y, width, height): the scenario's crop (0s: none).
    #[pyo3(signature = (player = 0))]
    fn crop_info(&self, player: usize) -> (u64, u64, u64, u64) {
        self.crop(player)
    }

    /// update(machine) -> (rewards, done, info): evaluates the machine's RAM after a step:
    /// each scenario player's reward, whether the episode ended, every variable's value.
    fn update<'py>(
        &mut self,
        py: Python<'py>,
        machine: PyRef<'_, Machine>,
    ) -> PyResult<(Vec<f32>, bool, Bound<'py, PyDict>)> {
        let step = self.eval.update(machine.machine.ram()).map_err(err)?;
        let info = PyDict::new(py);
        for (k, v) in &step.info {
            info.set_item(k, v)?;
        }
        Ok((step.rewards, step.done, info))
    }

    /// restart(): a new episode; the reward totals start again and the scenario's scripts
    /// run afresh.
    fn restart(&mut self) -> PyResult<()> {
        self.eval.restart().map_err(err)
    }

    /// total_reward(player=0) -> float: the player's reward since the last restart.
    #[pyo3(signature = (player = 0))]
    fn total_reward(&self, player: usize) -> f32 {
        self.eval.totals().get(player).copied().unwrap_or(0.0)
    }

    /// lookup_value(name, machine) -> int: a variable's value in the machine's RAM now.
    fn lookup_value(&self, name: &str, machine: PyRef<'_, Machine>) -> PyResult<i64> {
        let var = self.eval.data().get(name).map_err(err)?;
        var.read(machine.machine.ram()).map_err(err)
    }

    /// set_value(name, value, machine): writes the variable into the machine's RAM.
    fn set_value(
        &self,
        name: &str,
        value: i64,
        mut machine: PyRefMut<'_, Machine>,
    ) -> PyResult<()> {
        let var = self.eval.data().get(name).map_err(err)?.clone();
        let bytes = var.encode(machine.machine.ram(), value).map_err(err)?;
        for (i, b) in bytes.into_iter().enumerate() {
            machine.machine.poke((var.address + i) as u16, b);
        }
        Ok(())
    }
}
