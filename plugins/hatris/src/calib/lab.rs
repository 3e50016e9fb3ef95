//! Driving forks: presses, waits, and a count of every emulated frame spent (charged to
//! the calibration job's meter when one runs).

use nesmind_host::sight::charge_current;
use nesmind_host::{Buttons, Fork, Frame};

/// Frames a button is held for one deliberate press, then released for as long: the game
/// acts on new presses and may read the pad only once per frame it finishes.
pub const PRESS: u64 = 2;

/// Counts the frames run on forks (calibration's cost in emulated time).
#[derive(Default, Debug, Clone, Copy)]
pub struct Lab {
    pub frames: u64,
}

impl Lab {
    /// Holds `buttons` for `n` frames.
    pub fn hold(&mut self, fork: &mut Fork, buttons: Buttons, n: u64) -> Result<(), String> {
        fork.set_buttons(0, buttons);
        for _ in 0..n {
            // Inside a calibration job this waits for the game's next frame when the
            // frame's share is used up.
            charge_current(1)?;
            fork.run_frame()?;
            self.frames += 1;
        }
        Ok(())
    }

    /// One press of `buttons` (held, then released), `PRESS` frames each.
    pub fn press(&mut self, fork: &mut Fork, buttons: Buttons) -> Result<(), String> {
        self.hold(fork, buttons, PRESS)?;
        self.hold(fork, Buttons::NONE, PRESS)
    }

    /// A copy of `fork` after `presses` presses of `buttons`, then idle until `frames`
    /// frames have passed in all.
    pub fn after(
        &mut self,
        fork: &Fork,
        buttons: Buttons,
        presses: u64,
        frames: u64,
    ) -> Result<Fork, String> {
        let mut f = fork.clone();
        for _ in 0..presses {
            self.press(&mut f, buttons)?;
        }
        let spent = presses * 2 * PRESS;
        self.hold(&mut f, Buttons::NONE, frames.saturating_sub(spent))?;
        Ok(f)
    }
}

/// The fork of a frame, or why there is none.
pub fn fork_of(frame: &dyn Frame) -> Result<Fork, String> {
    frame
        .fork()
        .ok_or_else(|| "this host cannot fork the machine, so nothing can be tried out".into())
}
