//! The console: the 6502 and everything it reaches through the bus. The CPU drives the
//! master clock; the other parts run lazily and are caught up whenever the CPU could observe
//! them, with the same results as lockstep (`bus/schedule.rs`).
//!
//! `Machine` is plain owned data (ROM behind `Arc`s), so it is `Clone + Send` and
//! serde-serialisable; savestates leave the ROM out and re-attach it on load (`state.rs`).

use crate::apu::UnsupportedSampleRate;
use crate::bus::Bus;
use crate::buttons::Buttons;
use crate::cart::Cart;
use crate::cpu::Cpu;
use crate::rom::{Rom, RomError};
use crate::speedups::Speedups;
use crate::watch::{AccessKind, WatchHit};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::RangeInclusive;

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

/// Where the PPU is in its frame; see [`Machine::ppu_position`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PpuPosition {
    pub scanline: u16,
    pub dot: u16,
    pub frame: u64,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct Machine {
    pub(crate) cpu: Cpu,
    pub(crate) bus: Bus,
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
        self.bus.with_apu(|apu, now| apu.reset(now));
        // The cartridge connector has no reset line: boards keep their registers.
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
        self.bus.clock.fast_forward = true;
        let result = self.run_to_frame_end();
        self.bus.clock.fast_forward = false;
        result
    }

    fn run_to_frame_end(&mut self) -> Result<(), MachineError> {
        let start = self.bus.cycles;
        self.cpu.run_until(&mut self.bus, |bus| bus.ppu.frame_ready);
        if let Some((opcode, pc)) = self.cpu.jammed {
            // Keep the PPU running so the frame still completes for the frontend.
            while !self.bus.ppu.frame_ready && self.bus.cycles - start < FRAME_CYCLE_LIMIT {
                self.cpu.step(&mut self.bus);
            }
            self.bus.ppu.frame_ready = false;
            return Err(MachineError::Jammed { opcode, pc });
        }
        self.bus.ppu.frame_ready = false;
        // Bring the lazily run APU (its synthesis too) to the frame's end, so frame-end
        // state does not depend on how far its counters happened to be skipped, nor on
        // whether the host drained the sound.
        self.bus.with_apu(|apu, now| apu.catch_up(now));
        Ok(())
    }

    /// Brings the PPU up to the CPU's clock (it otherwise catches up only when needed).
    pub fn sync(&mut self) {
        self.bus.sync_ppu();
        self.bus.ppu.settle(&mut self.bus.cart);
    }

    /// Switches the speed shortcuts on or off (see [`Speedups`]); `Speedups::NONE` runs
    /// every part on every cycle. The results are identical either way (tests check
    /// this); the switches exist to prove that and to bisect a difference.
    pub fn set_speedups(&mut self, speedups: Speedups) {
        self.sync();
        self.bus.set_speedups(speedups);
    }
    pub fn speedups(&self) -> Speedups {
        self.bus.clock.speedups
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
    /// Where the PPU is: scanline (0-261), dot (0-340) and frames completed. The PPU runs
    /// on demand and may be behind the CPU's clock: call [`Machine::sync`] first for the
    /// position at the CPU's clock. At the end of `run_frame` it is at the frame's end.
    pub fn ppu_position(&self) -> PpuPosition {
        let ppu = &self.bus.ppu;
        PpuPosition {
            scanline: ppu.scanline,
            dot: ppu.dot,
            frame: ppu.frame,
        }
    }

    /// The 6502's registers (`a`, `x`, `y`, `s`, `p`, `pc`).
    pub fn cpu(&self) -> &Cpu {
        &self.cpu
    }
    /// Register access for harnesses that start the CPU elsewhere (nestest's automation mode).
    pub fn cpu_mut(&mut self) -> &mut Cpu {
        // The caller may change the I flag: the next cycle samples the lines afresh.
        self.cpu.unsettle();
        &mut self.cpu
    }
    /// The opcode and address of a JAM that locked the CPU (until reset), if one did.
    pub fn jammed(&self) -> Option<(u8, u16)> {
        self.cpu.jammed
    }
    /// The cartridge's PRG RAM (battery-backed or work RAM at $6000-$7FFF); empty without.
    pub fn prg_ram(&self) -> &[u8] {
        &self.bus.cart.core.prg_ram
    }
    /// Replaces the PRG RAM's contents (a battery save loaded at power-on). The length
    /// must be the cartridge's, so a save from another cart is refused, not cut to fit.
    pub fn load_prg_ram(&mut self, data: &[u8]) -> Result<(), String> {
        let len = self.bus.cart.core.prg_ram.len();
        if data.len() != len {
            return Err(format!(
                "{} bytes, but this cartridge has {len} bytes of PRG RAM",
                data.len()
            ));
        }
        for (i, &b) in data.iter().enumerate() {
            self.bus.cart.core.prg_ram.set(i, b);
        }
        Ok(())
    }
    /// Side-effect-free read of the PPU address space: pattern tables ($0000-$1FFF, CHR ROM
    /// or RAM through the board's current banks), nametables ($2000-$3EFF) and palette
    /// ($3F00-$3FFF).
    pub fn peek_ppu(&self, addr: u16) -> u8 {
        self.bus.ppu.peek_vram(addr, &self.bus.cart)
    }
    /// Object attribute memory: 64 sprites of 4 bytes.
    pub fn oam(&self) -> &[u8; 256] {
        &self.bus.ppu.oam
    }
    pub fn four_score(&self) -> bool {
        self.bus.input.four_score
    }

    /// Replaces the CPU access watches; the hits collected so far are dropped. With an
    /// empty list the bus does not look at accesses at all.
    pub fn set_watches(&mut self, list: Vec<(AccessKind, RangeInclusive<u16>)>) {
        self.bus.watching = !list.is_empty();
        self.bus.watches.set(list);
    }
    /// True while any watch is installed.
    pub fn watching(&self) -> bool {
        self.bus.watching
    }
    /// Moves the watch hits collected since the last call into `out` (which is cleared).
    pub fn take_watch_hits(&mut self, out: &mut Vec<WatchHit>) {
        out.clear();
        std::mem::swap(out, &mut self.bus.watches.hits);
    }

    /// Appends the audio samples (mono, 16-bit, at `sample_rate()`) produced since the
    /// last call. Call once per frame; see `apu` for the whole audio API.
    pub fn take_audio(&mut self, out: &mut Vec<i16>) {
        self.bus.with_apu(|apu, now| apu.take_audio(out, now));
    }
    /// Host output rate in Hz (8000-192000; default 48000).
    pub fn set_sample_rate(&mut self, rate: u32) -> Result<(), UnsupportedSampleRate> {
        self.bus.with_apu(|apu, now| apu.set_sample_rate(rate, now))
    }
    pub fn sample_rate(&self) -> u32 {
        self.bus.apu.sample_rate()
    }
    /// Off: no synthesis at all (fastest); everything the CPU can observe still runs.
    pub fn set_audio_enabled(&mut self, on: bool) {
        self.bus.with_apu(|apu, now| apu.set_audio_enabled(on, now));
    }
    /// Scales the resampling ratio (clamped to +-5%) to steer a host buffer's fill level.
    pub fn set_audio_rate_adjust(&mut self, factor: f64) {
        self.bus
            .with_apu(|apu, now| apu.set_rate_adjust(factor, now));
    }

    /// Whether sound is synthesised (see `set_audio_enabled`).
    pub fn audio_enabled(&self) -> bool {
        self.bus.apu.audio_enabled()
    }
}
