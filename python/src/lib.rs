//! `nesmind._nesmind`: the extension module under the Python package `nesmind`.
//!
//! Everything here is a thin layer over the workspace crates: the machine (`nesmind-emu`),
//! savestates and sessions (`nesmind-host`), the frontend (`nesmind`) and the in-tree
//! players. Errors become Python exceptions carrying the messages the CLI prints.

mod arena;
mod errors;
mod frame;
mod hatris;
mod lua;
mod machine;
mod plugin;
mod retro;
mod retro_vec;
mod rom;
mod run;
mod spec;
mod spot;
mod spot_cart;
mod spot_demo;
mod tool;
mod vec;
mod viewer;

use pyo3::prelude::*;

#[pymodule]
fn _nesmind(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NesError", py.get_type::<errors::NesError>())?;
    m.add("RomError", py.get_type::<errors::RomError>())?;
    m.add("StateError", py.get_type::<errors::StateError>())?;
    m.add("JamError", py.get_type::<errors::JamError>())?;
    m.add("PluginError", py.get_type::<errors::PluginError>())?;
    m.add_class::<rom::RomInfo>()?;
    m.add_class::<machine::Machine>()?;
    m.add_class::<vec::VecMachine>()?;
    m.add_class::<frame::Frame>()?;
    m.add_class::<frame::Setup>()?;
    m.add_class::<plugin::InTreePlugin>()?;
    m.add_class::<arena::SpotArena>()?;
    m.add_class::<spot::SpotGame>()?;
    m.add_class::<spot_cart::SpotCart>()?;
    m.add_class::<spot_demo::SpotDemo>()?;
    m.add_class::<hatris::HatrisSim>()?;
    m.add_class::<hatris::HatrisDemo>()?;
    m.add_class::<viewer::Viewer>()?;
    m.add_class::<retro::RetroGame>()?;
    m.add_class::<lua::LuaScript>()?;
    m.add_function(wrap_pyfunction!(lua::lua, m)?)?;
    m.add_class::<retro_vec::RetroVec>()?;
    m.add_function(wrap_pyfunction!(tool::tool, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(plugin::plugin_names, m)?)?;
    m.add_function(wrap_pyfunction!(plugin::create_plugin, m)?)?;
    m.add_function(wrap_pyfunction!(plugin::demo_rom, m)?)?;
    m.add_function(wrap_pyfunction!(machine::palette, m)?)?;
    m.add_function(wrap_pyfunction!(spec::parse_spec, m)?)?;
    m.add("BUTTONS", machine::button_names())?;
    m.add("SPOT_ACTIONS", spot::ACTIONS)?;
    m.add("SPOT_PASS", spot::PASS_ACTION)?;
    Ok(())
}
