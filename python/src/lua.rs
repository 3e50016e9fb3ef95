//! `nesmind.lua(script, ...)`: an FCEUX or BizHawk Lua script as a plug-in for `nesmind.run`,
//! the same as `nesmind run ROM --lua SCRIPT` (docs/lua.md). The script is loaded when the
//! run starts, since its `rom.readbyte` reads the ROM the run plays.

use crate::errors::PluginError;
use nesmind_host::{Plugin, PluginOptions};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Mutex;

/// A Lua script and its settings, ready to run once.
#[pyclass(module = "nesmind")]
pub struct LuaScript {
    script: PathBuf,
    options: PluginOptions,
    used: Mutex<bool>,
}

impl LuaScript {
    /// The plug-in for a run of the ROM whose file bytes are `rom_image`; a second run gets
    /// an error.
    pub fn take(&self, rom_image: &[u8]) -> PyResult<Box<dyn Plugin>> {
        let mut used = self.used.lock().expect("not poisoned");
        if *used {
            return Err(PluginError::new_err(format!(
                "the Lua script '{}' already ran; call nesmind.lua() again for each run",
                self.script.display()
            )));
        }
        *used = true;
        let plugin = nesmind_lua::LuaPlugin::load(&self.script, &self.options, rom_image)
            .map_err(PluginError::new_err)?;
        Ok(Box::new(plugin))
    }
}

#[pymethods]
impl LuaScript {
    #[getter]
    fn script(&self) -> PathBuf {
        self.script.clone()
    }

    fn __repr__(&self) -> String {
        format!("<nesmind Lua script '{}'>", self.script.display())
    }
}

/// lua(script, options) -> LuaScript: `options` are the `--lua-arg` pairs (the script's
/// `arg` table, and budget, memory-mb, seed, dialect, on-error, pads, unsafe).
#[pyfunction]
#[pyo3(signature = (script, options = None))]
pub fn lua(script: PathBuf, options: Option<PluginOptions>) -> PyResult<LuaScript> {
    if !script.is_file() {
        return Err(PluginError::new_err(format!(
            "no Lua script '{}'",
            script.display()
        )));
    }
    Ok(LuaScript {
        script,
        options: options.unwrap_or_default(),
        used: Mutex::new(false),
    })
}
