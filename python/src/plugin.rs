//! Plug-ins from Python: a Python object behind the Rust `Plugin` trait, and the in-tree
//! players (`nesmind.plugins.spot(...)`) as objects `nesmind.run` accepts.

use crate::errors::{NesError, PluginError};
use crate::frame::{Frame, Setup};
use crate::rom::RomInfo;
use nesmind_emu::Rom;
use nesmind_host::{Plugin, PluginOptions};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use std::sync::{Arc, Mutex};

/// The Python exception that ended a run, kept so `nesmind.run` can re-raise it as the
/// cause of its PluginError (with the plug-in's traceback).
pub type Raised = Arc<Mutex<Option<PyErr>>>;

/// A Python object with the hooks of the Rust `Plugin` trait: `on_frame(frame)` (required),
/// and optionally `name`, `description`, `on_attach(rom_info, setup)`, `on_detach()`,
/// `result()`.
pub struct PyPlugin {
    object: Py<PyAny>,
    rom: Rom,
    name: String,
    description: String,
    error: Option<String>,
    raised: Raised,
}

/// "ValueError: message" for a Python exception.
pub fn describe(py: Python<'_>, e: &PyErr) -> String {
    let kind = e
        .get_type(py)
        .name()
        .map_or_else(|_| "Exception".to_string(), |n| n.to_string());
    format!("raised {kind}: {}", e.value(py))
}

impl PyPlugin {
    pub fn new(object: &Bound<'_, PyAny>, rom: Rom, raised: Raised) -> PyResult<PyPlugin> {
        if !object.hasattr("on_frame")? {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "a plug-in needs an on_frame(frame) method; {} has none",
                object.get_type().name()?
            )));
        }
        let text = |attr: &str| -> PyResult<Option<String>> {
            if !object.hasattr(attr)? {
                return Ok(None);
            }
            let v = object.getattr(attr)?;
            let v = if v.is_callable() { v.call0()? } else { v };
            v.extract().map(Some)
        };
        let name = match text("name")? {
            Some(n) => n,
            None => object.get_type().name()?.to_string(),
        };
        Ok(PyPlugin {
            object: object.clone().unbind(),
            rom,
            name,
            description: text("description")?.unwrap_or_default(),
            error: None,
            raised,
        })
    }

    /// Calls an optional hook; a missing one does nothing.
    fn call_optional<'py>(
        &self,
        py: Python<'py>,
        hook: &str,
        args: Bound<'py, PyTuple>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let obj = self.object.bind(py);
        if !obj.hasattr(hook)? {
            return Ok(None);
        }
        obj.call_method1(hook, args).map(Some)
    }

    fn fail(&mut self, py: Python<'_>, e: PyErr) {
        self.error = Some(describe(py, &e));
        *self.raised.lock().expect("not poisoned") = Some(e);
    }
}

impl Plugin for PyPlugin {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn on_attach(
        &mut self,
        _rom: &nesmind_emu::RomInfo,
        setup: &mut dyn nesmind_host::Setup,
    ) -> Result<(), String> {
        Python::with_gil(|py| {
            let info = RomInfo::of(&self.rom);
            // A returned string is a refusal, as the Rust hook's Err(reason).
            let outcome = Setup::lend(py, setup, |s| -> PyResult<Option<String>> {
                let v =
                    self.call_optional(py, "on_attach", (info, s.clone()).into_pyobject(py)?)?;
                match v.filter(|v| !v.is_none()) {
                    Some(v) => Ok(Some(v.str()?.to_string())),
                    None => Ok(None),
                }
            })
            .and_then(|r| r);
            match outcome {
                Ok(Some(why)) => Err(why),
                Ok(None) => Ok(()),
                Err(e) => {
                    let text = describe(py, &e);
                    *self.raised.lock().expect("not poisoned") = Some(e);
                    Err(text)
                }
            }
        })
    }

    fn on_frame(&mut self, frame: &mut dyn nesmind_host::Frame) {
        if self.error.is_some() {
            return;
        }
        Python::with_gil(|py| {
            let object = self.object.clone_ref(py);
            let outcome = Frame::lend(py, frame, Some(&self.rom), |f| {
                object
                    .bind(py)
                    .call_method1("on_frame", (f.clone(),))
                    .map(drop)
            })
            .and_then(|r| r);
            if let Err(e) = outcome {
                self.fail(py, e);
            }
        });
    }

    fn on_detach(&mut self) {
        Python::with_gil(|py| {
            if let Err(e) = self.call_optional(py, "on_detach", PyTuple::empty(py)) {
                self.fail(py, e);
            }
        });
    }

    fn result(&self) -> Option<String> {
        Python::with_gil(|py| {
            let v = self
                .call_optional(py, "result", PyTuple::empty(py))
                .ok()??;
            if v.is_none() {
                return None;
            }
            v.str().ok().map(|s| s.to_string())
        })
    }

    fn error(&self) -> Option<String> {
        self.error.clone()
    }
}

/// An in-tree player (Spot, Hatris) ready to be attached by `nesmind.run`. Each object
/// drives one run.
#[pyclass(module = "nesmind")]
pub struct InTreePlugin {
    name: String,
    plugin: Mutex<Option<Box<dyn Plugin>>>,
}

impl InTreePlugin {
    /// Hands the player over to a run; a second run gets an error.
    pub fn take(&self) -> PyResult<Box<dyn Plugin>> {
        self.plugin
            .lock()
            .expect("not poisoned")
            .take()
            .ok_or_else(|| {
                NesError::new_err(format!(
                    "this '{}' player already ran; create a new one for each run",
                    self.name
                ))
            })
    }
}

#[pymethods]
impl InTreePlugin {
    /// The registered name ("spot", "hatris").
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    fn __repr__(&self) -> String {
        format!("<nesmind in-tree plug-in '{}'>", self.name)
    }
}

/// plugin_names() -> list[tuple[str, str]]: the in-tree plug-ins' names and descriptions.
#[pyfunction]
pub fn plugin_names() -> Vec<(&'static str, &'static str)> {
    nesmind::plugins::registry()
        .iter()
        .map(|e| (e.name, e.description))
        .collect()
}

/// create_plugin(name, options) -> InTreePlugin: an in-tree player with `options` (the
/// `--plugin-opt key=value` pairs of the CLI).
#[pyfunction]
#[pyo3(signature = (name, options = None))]
pub fn create_plugin(name: &str, options: Option<PluginOptions>) -> PyResult<InTreePlugin> {
    let entry = nesmind::plugins::find(name).map_err(PluginError::new_err)?;
    let plugin = (entry.create)(&options.unwrap_or_default()).map_err(|e| {
        PluginError::new_err(format!("cannot create plug-in '{}': {e}", entry.name))
    })?;
    Ok(InTreePlugin {
        name: entry.name.to_string(),
        plugin: Mutex::new(Some(plugin)),
    })
}

/// demo_rom(name) -> bytes: the open demo cartridge an in-tree plug-in plays.
#[pyfunction]
pub fn demo_rom<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyBytes>> {
    let entry = nesmind::plugins::find(name).map_err(PluginError::new_err)?;
    let demo = entry.demo.ok_or_else(|| {
        PluginError::new_err(format!("plug-in '{}' has no demo cartridge", entry.name))
    })?;
    Ok(PyBytes::new(py, demo.image))
}
