//! Spot: The Video Game (Ataxx for 2-4 players): game model, search players, arena and the
//! RAM-reading plug-in that drives the cartridge's pads.

pub mod arena;
pub mod board;
pub mod bots;
pub mod calibrate;
pub mod demo;
pub mod duel;
pub mod eval;
mod fork_check;
mod game;
pub mod layouts;
pub mod levels;
pub mod map_read;
pub mod moves;
pub mod naive;
pub mod pad_plan;
pub mod perft;
mod play;
pub mod players;
pub mod plugin;
pub mod position;

pub mod ram_host;
pub mod ram_map;
pub mod sight;
pub mod tools;
pub mod uai;
mod zobrist;

use nesmind_host::{Plugin, PluginOptions};

pub static ENTRY: nesmind_host::Entry = nesmind_host::Entry {
    name: "spot",
    description: "Spot: N-player hypermax / alpha-beta player that drives the pads",
    create,
    knows: ram_map::known_game,
    tools: &[
        ("arena", tools::arena_tool),
        ("perft", tools::perft_tool),
        ("bench", tools::bench_tool),
        ("uai", uai::uai_tool),
    ],
    demo: Some(&demo::DEMO),
};

fn create(opts: &PluginOptions) -> Result<Box<dyn Plugin>, String> {
    Ok(Box::new(plugin::SpotPlugin::from_options(opts)?))
}
