//! `tool`: a plug-in's command-line tool run in this process, as the `nesmind` binary runs it.

use crate::errors::NesError;
use pyo3::prelude::*;

/// tool(command, plugin, args=()) -> None: runs `nesmind COMMAND PLUGIN ARGS...` in this
/// process with the GIL released: a plug-in's tools (`sim`, `arena`, `train`, `perft`) or,
/// for `demo`, `nesmind demo PLUGIN --headless ARGS...`. It prints to the process's
/// standard output as the command does; a failure raises NesError with its message.
#[pyfunction]
#[pyo3(signature = (command, plugin, args = Vec::new()))]
pub fn tool(py: Python<'_>, command: &str, plugin: &str, args: Vec<String>) -> PyResult<()> {
    py.allow_threads(|| {
        if command != "demo" {
            return nesmind::plugins::run_tool(command, plugin, &args);
        }
        let entry = nesmind::plugins::find(plugin)?;
        let demo = entry
            .demo
            .ok_or_else(|| format!("plug-in '{}' has no demo cartridge", entry.name))?;
        (demo.headless)(&args)
    })
    .map_err(NesError::new_err)
}
