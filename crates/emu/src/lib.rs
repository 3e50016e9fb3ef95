//! The machine: CPU, PPU, APU, cartridge and controllers, clocked in lockstep.
//!
//! `Machine` is plain owned data (ROM behind `Arc`s), so it is `Clone + Send` and
//! serde-serialisable; savestates leave the ROM out and re-attach it on load.

pub mod apu;
pub mod bus;
pub mod buttons;
pub mod cart;
pub mod cpu;
pub mod input;
pub mod ppu;
pub mod rom;
pub mod watch;

use bus::Bus;
pub use buttons::Buttons;
use cart::Cart;
use cpu::Cpu;
pub use rom::{Mirroring, Rom, RomError, RomInfo};
use serde::{Deserialize, Serialize};
use std::fmt;
pub use watch::{AccessKind, WatchHit, Watches};

/// Why the machine stopped running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MachineError {
    /// The CPU executed a JAM opcode and locked up.
    Jammed { opcode: u8, pc: u16 },
}

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineError::Jammed { opcode, pc } => {
                write!(
                    f,
                    "the CPU jammed: opcode ${opcode:02X} at ${pc:04X} locks the 6502 until reset"
                )
            }
        }
    }
}

impl std::error::Error for MachineError {}

#[derive(Clone, Serialize, Deserialize)]
pub struct Machine {
    pub cpu: Cpu,
    pub bus: Bus,
}

/// A CPU-cycle budget for one frame far above the real 29,781, so a frame can always end.
const FRAME_CYCLE_LIMIT: u64 = 100_000;

impl Machine {
    /// Builds a machine with the cartridge inserted and runs the power-on reset.
    pub fn new(rom: &Rom) -> Result<Machine, RomError> {
        let cart = Cart::new(rom)?;
        let mut m = Machine {
            cpu: Cpu::new(),
            bus: Bus::new(cart),
        };
        if let Some(trainer) = &rom.trainer {
            // Trainers load at $7000 in PRG RAM.
            for (i, b) in trainer.iter().enumerate() {
                m.bus.poke(0x7000 + i as u16, *b);
            }
        }
        m.cpu.reset(&mut m.bus);
        Ok(m)
    }

    /// The reset button: CPU reset sequence, PPU/APU reset lines; RAM keeps its contents.
    pub fn reset(&mut self) {
        self.bus.ppu.reset();
        self.bus.apu.reset(self.bus.cycles);
        self.bus.cart.reset();
        self.bus.recheck();
        self.cpu.reset(&mut self.bus);
    }

    /// Runs one instruction (and any interrupt entry it triggers).
    #[inline]
    pub fn step(&mut self) -> Result<(), MachineError> {
        self.cpu.step(&mut self.bus);
        match self.cpu.jammed {
            Some((opcode, pc)) => Err(MachineError::Jammed { opcode, pc }),
            None => Ok(()),
        }
    }

    /// Runs until the PPU reaches the post-render line (the picture is complete and the
    /// game's NMI has not started): the point where plug-ins see each frame.
    pub fn run_frame(&mut self) -> Result<(), MachineError> {
        self.bus.fast_forward = true;
        let result = self.run_to_frame_end();
        self.bus.fast_forward = false;
        result
    }

    fn run_to_frame_end(&mut self) -> Result<(), MachineError> {
        let start = self.bus.cycles;
        while !self.bus.ppu.frame_ready {
            self.cpu.step(&mut self.bus);
            if let Some((opcode, pc)) = self.cpu.jammed {
                // Keep the PPU running so the frame still completes for the frontend.
                while !self.bus.ppu.frame_ready && self.bus.cycles - start < FRAME_CYCLE_LIMIT {
                    self.cpu.step(&mut self.bus);
                }
                self.bus.ppu.frame_ready = false;
                return Err(MachineError::Jammed { opcode, pc });
            }
        }
        self.bus.ppu.frame_ready = false;
        // Bring the lazily run APU to the frame's end, so frame-end state does not depend on
        // how far its counters happened to be skipped.
        self.bus.apu.run_to(self.bus.cycles);
        self.bus.recheck();
        Ok(())
    }

    /// Brings the PPU up to the CPU's clock (it otherwise catches up only when needed).
    pub fn sync(&mut self) {
        self.bus.sync_ppu();
        self.bus.ppu.settle(&mut self.bus.cart);
    }

    /// Runs the PPU on every half CPU cycle instead of on demand. The results are identical
    /// (tests check this); it exists to prove that and to debug.
    pub fn force_lockstep(&mut self) {
        self.bus.lockstep = true;
        self.bus.recheck();
        self.sync();
    }

    pub fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        if let Some(p) = self.bus.input.pads.get_mut(pad) {
            *p = buttons;
        }
    }
    pub fn buttons(&self, pad: usize) -> Buttons {
        self.bus.input.pads.get(pad).copied().unwrap_or_default()
    }
    /// Plugs in (or removes) the Four Score adapter.
    pub fn set_four_score(&mut self, on: bool) {
        self.bus.input.four_score = on;
    }

    /// Side-effect-free read of the CPU address space.
    pub fn peek(&self, addr: u16) -> u8 {
        self.bus.peek(addr)
    }
    pub fn poke(&mut self, addr: u16, value: u8) {
        self.bus.poke(addr, value);
    }
    pub fn ram(&self) -> &[u8] {
        &self.bus.ram
    }
    /// Side-effect-free read of the PPU address space ($0000-$3FFF, mirrored above): pattern
    /// tables through the cartridge's current CHR banks (ROM or RAM), nametables through its
    /// current mirroring, palette RAM as stored. No read buffer, address or mapper latch moves.
    pub fn peek_ppu(&self, addr: u16) -> u8 {
        self.bus.ppu.peek_vram(addr, &self.bus.cart)
    }
    /// The PPU's object attribute memory: 64 sprites of y, tile, attributes, x.
    pub fn oam(&self) -> &[u8; 256] {
        &self.bus.ppu.oam
    }
    /// The last value written to PPUCTRL ($2000): base nametable, pattern tables, sprite size.
    pub fn ppu_ctrl(&self) -> u8 {
        self.bus.ppu.ctrl
    }
    /// The last completed picture: 256x240 palette indices with emphasis in bits 6-8.
    pub fn picture(&self) -> &[u16] {
        &self.bus.ppu.frame_buffer
    }
    pub fn frame_number(&self) -> u64 {
        self.bus.ppu.frame
    }
    pub fn cpu_cycles(&self) -> u64 {
        self.bus.cycles
    }

    /// Appends the audio samples (mono, 16-bit, at `sample_rate()`) produced since the
    /// last call. Call once per frame; see `apu` for the whole audio API.
    pub fn take_audio(&mut self, out: &mut Vec<i16>) {
        self.bus.apu.take_audio(out, self.bus.cycles);
        self.bus.recheck();
    }
    /// Host output rate in Hz (8000-192000; default 48000).
    pub fn set_sample_rate(&mut self, rate: u32) -> Result<(), String> {
        let set = self.bus.apu.set_sample_rate(rate, self.bus.cycles);
        self.bus.recheck();
        set
    }
    pub fn sample_rate(&self) -> u32 {
        self.bus.apu.sample_rate()
    }
    /// Off: no synthesis at all (fastest); everything the CPU can observe still runs.
    pub fn set_audio_enabled(&mut self, on: bool) {
        self.bus.apu.set_audio_enabled(on, self.bus.cycles);
        self.bus.recheck();
    }
    /// Scales the resampling ratio (clamped to +-5%) to steer a host buffer's fill level.
    pub fn set_audio_rate_adjust(&mut self, factor: f64) {
        self.bus.apu.set_rate_adjust(factor, self.bus.cycles);
        self.bus.recheck();
    }

    /// Serialises the whole machine except ROM data.
    pub fn save_state(&self) -> Result<String, String> {
        ron::to_string(self).map_err(|e| format!("cannot serialise the machine: {e}"))
    }

    /// Restores a state saved by `save_state`, re-attaching the ROM it was saved with.
    pub fn load_state(text: &str, rom: &Rom) -> Result<Machine, String> {
        let mut m: Machine =
            ron::from_str(text).map_err(|e| format!("corrupt machine state: {e}"))?;
        m.bus.cart.attach_rom(rom);
        Ok(m)
    }
}
