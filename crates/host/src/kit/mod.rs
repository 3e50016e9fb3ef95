//! What the in-tree players share beyond the plug-in API: where a game keeps a fact
//! ([`Loc`]), the RAM-map catalogue a player reads and writes ([`CartMap`], one RON format
//! for every player), the memories a map is read from ([`Memory`]), and the RAM image an offline test host shows a player ([`RamImage`]).
//! It also builds a player's demo cartridge from the sources compiled into it ([`CartBuild`]).
//! A player keeps only what is about its own game.

mod cart_build;
mod cart_map;
mod catalogue;
mod loc;
mod memory;
mod ram_image;

pub use cart_build::CartBuild;
pub use cart_map::{CartMap, GameMap};
pub use catalogue::{file_text, find, known_game, load, no_map_for, parse, save};
pub use loc::{Loc, Space, check_variable, is_variable};
pub use memory::Memory;
pub use ram_image::{RamGame, RamImage};
