//! The players' shared kit for seeing a game the way a person does: from the picture.
//!
//! A player must work out a cartridge it was never told about. RAM can be laid out in any
//! way a 6502 programmer liked, but the game has to *show* its state to the person playing
//! it, so the picture is the ground truth and RAM is at most a shortcut that is checked
//! against it. This module holds what every player needs for that:
//!
//! - [`picture`]: a frame's picture, rectangles, what changed between two pictures, and
//!   where sprites may hide the background;
//! - [`look`]: appearances learned from experiments and read back ([`Codebook`]);
//! - [`lab`]: experiments on forks (press, wait for the picture to settle and look, or
//!   compare memory with a copy left alone), and how long the real game's picture has been
//!   still ([`Stillness`]);
//! - [`job`]: long experiments run a bounded slice per game frame, reproducibly;
//! - [`tape`]: presses proven on a fork, replayed into the real game with checkpoints;
//! - [`narrate`]: the status line and the rule that no wait is silent.

pub mod job;
pub mod lab;
pub mod look;
pub mod narrate;
pub mod picture;
pub mod tape;

pub use job::{Effort, Job, Meter, charge_current};
pub use lab::{Effect, Lab, Stillness, fork_of, release_all};
pub use look::{Codebook, Look, Verdict};
pub use narrate::Narrator;
pub use picture::{Changes, Picture, PixelMask, Rect, Shot, SpriteMask};
pub use tape::{Tape, TapeRun, TapeStep, Taped};
