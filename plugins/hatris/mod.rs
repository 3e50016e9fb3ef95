//! Hatris player: a faithful spawn-level simulator, a two-pair search chain with trained
//! weights, the `sim` and `train` tools, and the plug-in that drives the real cartridge.

pub mod board;
pub mod eval;
pub mod game;
pub mod moves;
pub mod play;
pub mod rng;
pub mod rules;
pub mod search;
pub mod sim;
pub mod train;

use crate::host::{Plugin, PluginOptions};

pub static ENTRY: super::Entry = super::Entry {
    name: "hatris",
    description: "Hatris AI player (search chain over the falling and next pair)",
    create,
    tools: &[("sim", sim::run), ("train", train::run)],
};

fn create(_opts: &PluginOptions) -> Result<Box<dyn Plugin>, String> {
    Err("the hatris plug-in is not built yet".to_string())
}
