//! Lookahead: an independent copy of the whole machine a plug-in can step and inspect.
//!
//! A `Fork` owns a clone of the running machine (ROM data shared through `Arc`s, so a
//! fork costs one copy of RAM, VRAM, OAM and the frame buffer). It is `Clone + Send`:
//! plug-ins may fork a fork, or move forks to worker threads and run them in parallel.
//! Nothing done to a fork reaches the real game, and forks record no watch hits.

use super::{Buttons, Frame};
use nesmind_emu::Machine;

#[derive(Clone)]
pub struct Fork {
    machine: Machine,
}

impl Fork {
    /// Copies `machine`, dropping its access watches (they belong to the real session).
    pub fn new(machine: &Machine) -> Fork {
        let mut machine = machine.clone();
        machine.set_watches(Vec::new());
        Fork { machine }
    }

    /// Runs one frame to the next plug-in callback point (scanline 240).
    /// A jammed CPU is reported as an error naming the opcode and address.
    pub fn run_frame(&mut self) -> Result<(), String> {
        self.machine.run_frame().map_err(|e| e.to_string())
    }

    /// Runs `n` frames, holding the current buttons.
    pub fn run_frames(&mut self, n: u64) -> Result<(), String> {
        for _ in 0..n {
            self.run_frame()?;
        }
        Ok(())
    }

    pub fn cpu_cycles(&self) -> u64 {
        self.machine.cpu_cycles()
    }

    /// The forked machine itself, for tools that need more than the `Frame` view.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }
}

impl Frame for Fork {
    crate::view::machine_frame_methods!();
    fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        self.machine.set_buttons(pad, buttons);
    }
    fn fork(&self) -> Option<Fork> {
        Some(self.clone())
    }
    fn restore(&mut self, state: &Fork) -> Result<(), String> {
        self.machine = state.machine.clone();
        Ok(())
    }
}
