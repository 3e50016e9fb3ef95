//! Calibration's fork lab: the host's (`nesmind_host::sight::Lab`), charging the calibration
//! job's meter when one runs, with Hatris's press length. Hatris plays on pad 0.

pub use nesmind_host::sight::{Lab, fork_of};

/// Frames a button is held for one deliberate press, then released for as long: the game
/// acts on new presses and may read the pad only once per frame it finishes.
pub const PRESS: u64 = 2;

/// The pad Hatris is played on.
pub const PAD: usize = 0;

/// A lab for one calibration step.
pub fn new() -> Lab<'static> {
    Lab::on_job(PRESS)
}
