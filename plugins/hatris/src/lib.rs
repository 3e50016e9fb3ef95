//! Hatris player: a faithful spawn-level simulator, a two-pair search chain with trained
//! weights, the `sim` and `train` tools, the plug-in that drives the real cartridge, and an
//! open demo cartridge it plays out of the box.

pub mod board;
pub mod calib;
pub mod demo;
pub mod eval;
pub mod game;
pub mod helpers;
pub mod moves;
pub mod play;
pub mod player;
pub mod port;
pub mod ram_map;
pub mod ramhost;
pub mod rng;
pub mod rules;
pub mod runtime;
pub mod search;
pub mod sight;
pub mod sim;
pub mod train;
pub mod variant;

pub static ENTRY: nesmind_host::Entry = nesmind_host::Entry {
    name: "hatris",
    description: "Hatris AI player (search chain over the falling and next pair)",
    create: player::create,
    knows: ram_map::known_game,
    tools: &[("sim", sim::run), ("train", train::run)],
    demo: Some(&demo::DEMO),
};
