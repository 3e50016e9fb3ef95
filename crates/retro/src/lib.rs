//! stable-retro's NES integrations on nesmind. People training agents with stable-retro
//! keep their games as integration folders (variables in `data.json`, rewards and ends in
//! `scenario.json`, start states as FCEUmm savestates); this crate reads those folders as
//! they are, evaluates rewards and ends over RAM exactly as stable-retro does, matches the
//! user's ROM files to integrations, and parses the savestates.
//!
//! Not yet: rewards written in Lua (`script.lua`, reported as "needs Lua"), and building a
//! nesmind machine from an FCEUmm state (the parser names each state's board, and `parts`
//! decodes NROM and MMC1 states into what a machine would be built from).

pub mod data;
pub mod datatype;
pub mod eval;
pub mod fceumm;
pub mod gzip;
pub mod integration;
pub mod layout;
pub mod library;
pub mod parts;
pub mod scenario;

pub use data::{GameData, RAM_SIZE, Variable};
pub use datatype::DataType;
pub use eval::{Evaluator, Step};
pub use fceumm::{FceuState, StateError};
pub use integration::{Integration, find_data, nes_integrations};
pub use scenario::Scenario;
