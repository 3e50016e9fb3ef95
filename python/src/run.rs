//! `nesmind.run`: a session with a plug-in (Python or in-tree), headless or in the window.

use crate::errors::{JamError, NesError, PluginError, RomError};
use crate::plugin::{InTreePlugin, PyPlugin, Raised};
use crate::rom;
use nesmind::frontend::pacing::Speed;
use nesmind_host::{Plugin, PluginOptions, Session, StepError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::sync::{Arc, Mutex};

/// Frames run between checks for Ctrl-C in headless runs (about a second of game time).
const SIGNAL_CHECK_FRAMES: u64 = 60;

/// The plug-in `plugin` stands for: an in-tree name, an in-tree player object, or a Python
/// object with the hooks.
fn make_plugin(
    plugin: &Bound<'_, PyAny>,
    options: Option<PluginOptions>,
    rom: &nesmind_emu::Rom,
    rom_source: &Bound<'_, PyAny>,
    raised: &Raised,
) -> PyResult<Box<dyn Plugin>> {
    if let Ok(script) = plugin.downcast::<crate::lua::LuaScript>() {
        if options.is_some() {
            return Err(PyValueError::new_err(
                "plugin_options go with an in-tree plug-in name; give nesmind.lua() its options",
            ));
        }
        return script.borrow().take(&rom::image(rom_source)?);
    }
    if let Ok(name) = plugin.downcast::<PyString>() {
        return crate::plugin::create_plugin(&name.to_cow()?, options)?.take();
    }
    if options.is_some() {
        return Err(PyValueError::new_err(
            "plugin_options go with an in-tree plug-in name; give a player object its options itself",
        ));
    }
    if let Ok(in_tree) = plugin.downcast::<InTreePlugin>() {
        return in_tree.borrow().take();
    }
    Ok(Box::new(PyPlugin::new(
        plugin,
        rom.clone(),
        raised.clone(),
    )?))
}

/// The Python exception for a stopped run, chained to the plug-in's own exception.
fn step_error(py: Python<'_>, e: StepError, frames: u64, raised: &Raised) -> PyErr {
    let text = format!("stopped after {frames} frames: {e}");
    match e {
        StepError::Machine(_) => JamError::new_err(text),
        StepError::Plugin { .. } => {
            let err = PluginError::new_err(text);
            if let Some(cause) = raised.lock().expect("not poisoned").take() {
                err.set_cause(py, Some(cause));
            }
            err
        }
        StepError::Replay(_) => NesError::new_err(text),
    }
}

/// run(rom, plugin=None, *, window=False, frames=None, speed=None, plugin_options=None,
///     human_pads=()) -> dict
///
/// Runs `rom` with a plug-in attached: an in-tree name ("spot"), an in-tree player from
/// `nesmind.plugins`, or a Python object with `on_frame(frame)` (and optionally
/// `on_attach(rom_info, setup)`, `on_detach()`, `result()`, `name`). Headless runs need
/// `frames`; `window=True` opens the SDL window (closing it ends the run). Returns
/// {"frames", "result", "quit_code", "quit_message", "state_hash"}. A jam raises JamError, a
/// failing plug-in PluginError (its exception is the __cause__).
#[pyfunction]
#[pyo3(signature = (rom, plugin = None, *, window = false, frames = None, speed = None,
    plugin_options = None, human_pads = Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    rom: &Bound<'py, PyAny>,
    plugin: Option<&Bound<'py, PyAny>>,
    window: bool,
    frames: Option<u64>,
    speed: Option<String>,
    plugin_options: Option<PluginOptions>,
    human_pads: Vec<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    if frames == Some(0) {
        return Err(PyValueError::new_err("frames must be at least 1"));
    }
    let speed = speed
        .map(|s| s.parse::<Speed>())
        .transpose()
        .map_err(PyValueError::new_err)?;
    let rom_source = rom;
    let rom = rom::load(rom)?;
    let raised: Raised = Arc::new(Mutex::new(None));
    let mut session = Session::new(rom.clone()).map_err(RomError::new_err)?;
    match plugin.filter(|p| !p.is_none()) {
        Some(p) => {
            let boxed = make_plugin(p, plugin_options, &rom, rom_source, &raised)?;
            let pads: Vec<usize> = human_pads.iter().map(|p| p.saturating_sub(1)).collect();
            if let Err(why) = session.attach(boxed, &pads) {
                let err = PluginError::new_err(why);
                if let Some(cause) = raised.lock().expect("not poisoned").take() {
                    err.set_cause(py, Some(cause));
                }
                return Err(err);
            }
        }
        None if plugin_options.is_some() => {
            return Err(PyValueError::new_err("plugin_options need a plugin"));
        }
        None => {}
    }
    if window {
        run_window(py, &mut session, frames, speed)?;
    } else {
        let frames = frames.ok_or_else(|| {
            PyValueError::new_err("a headless run needs frames=N (or window=True)")
        })?;
        session.machine_mut().set_audio_enabled(false);
        run_headless(py, &mut session, frames, &raised)?;
    }
    let name = session.plugin_name().unwrap_or("?").to_string();
    let detached = session.detach();
    let err = raised.lock().expect("not poisoned").take();
    if let Some(e) = err {
        // Only the window ends a run on a plug-in failure without reporting it itself.
        let wrapped = PluginError::new_err(format!(
            "plug-in '{name}' {}",
            crate::plugin::describe(py, &e)
        ));
        wrapped.set_cause(py, Some(e));
        return Err(wrapped);
    }
    let out = PyDict::new(py);
    out.set_item("frames", session.steps())?;
    out.set_item("result", session.plugin_result().or(detached))?;
    let quit = session.quit();
    out.set_item("quit_code", quit.map(|q| q.code))?;
    out.set_item("quit_message", quit.map(|q| q.message.clone()))?;
    out.set_item(
        "state_hash",
        nesmind_host::savestate::state_hash(session.machine()),
    )?;
    Ok(out)
}

fn run_headless(
    py: Python<'_>,
    session: &mut Session,
    frames: u64,
    raised: &Raised,
) -> PyResult<()> {
    let mut ran = 0;
    while ran < frames && session.quit().is_none() {
        let chunk = SIGNAL_CHECK_FRAMES.min(frames - ran);
        let outcome = py.allow_threads(|| -> Result<u64, (StepError, u64)> {
            let mut done = 0;
            while done < chunk && session.quit().is_none() {
                session.step().map_err(|e| (e, done))?;
                done += 1;
            }
            Ok(done)
        });
        match outcome {
            Ok(done) => ran += done,
            Err((e, done)) => return Err(step_error(py, e, ran + done, raised)),
        }
        py.check_signals()?;
    }
    Ok(())
}

#[cfg(feature = "sdl")]
fn run_window(
    py: Python<'_>,
    session: &mut Session,
    frames: Option<u64>,
    speed: Option<Speed>,
) -> PyResult<()> {
    use nesmind::frontend::{display, window};
    display::check().map_err(|why| NesError::new_err(format!("cannot open a window: {why}")))?;
    let opts = window::WindowOptions {
        speed: speed.unwrap_or(Speed::Times(1.0)),
        frames,
        stem: session.rom().info.file_name.clone(),
        ..Default::default()
    };
    py.allow_threads(|| window::run(session, &opts))
        .map_err(|e| NesError::new_err(e.to_string()))
}

#[cfg(not(feature = "sdl"))]
fn run_window(_: Python<'_>, _: &mut Session, _: Option<u64>, _: Option<Speed>) -> PyResult<()> {
    Err(NesError::new_err(
        "this build has no window (built without the `sdl` feature)",
    ))
}
