//! stable-retro's NES integrations on nesmind. People training agents with stable-retro
//! keep their games as integration folders (variables in `data.json`, rewards and ends in
//! `scenario.json`, start states as FCEUmm savestates); this crate reads those folders as
//! they are, evaluates rewards and ends over RAM exactly as stable-retro does, matches the
//! user's ROM files to integrations, parses the savestates, and starts a nesmind machine
//! from a state (`parts`; the boards it decodes are in `boards`). Rewards and ends written
//! in Lua (`script.lua`) run in an embedded Lua 5.1 (`script`).

pub mod boards;
pub mod data;
pub mod datatype;
pub mod eval;
pub mod fceumm;
pub mod gzip;
pub mod integration;
pub mod layout;
pub mod library;
pub mod movie;
pub mod parts;
pub mod scenario;
pub mod script;
pub mod zip;

pub use data::{GameData, RAM_SIZE, Variable};
pub use datatype::DataType;
pub use eval::{Evaluator, Step};
pub use fceumm::{FceuState, StateError};
pub use integration::{Integration, find_data, nes_integrations};
pub use scenario::Scenario;
