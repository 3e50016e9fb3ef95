//! What a CPU access does at its point in the cycle: address decoding, console RAM, the
//! PPU and APU registers, the pads, the cartridge, open bus, and the host's watches.

use super::parts::Bus;
use super::timing::{READ_PHASE, WRITE_PHASE};
use crate::cart::Source;
use crate::watch::AccessKind;

impl Bus {
    /// A CPU read at the current point of the cycle, with all side effects.
    #[inline(always)]
    pub fn read(&mut self, addr: u16) -> u8 {
        self.read_access(addr, false)
    }

    /// A read, `fetch` when it fetches an opcode (which execute watches also see).
    #[inline(always)]
    pub(super) fn read_access(&mut self, addr: u16, fetch: bool) -> u8 {
        let value = match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)],
            0x4020..=0xFFFF => match self.cart.core.read_prg(addr) {
                Some(v) => v,
                None => self.cart.core.read_undriven(addr, self.open_bus),
            },
            // A line drawn ahead can answer $2002; anything else needs the exact dot.
            0x2000..=0x3FFF => self.touch_ppu(READ_PHASE, addr & 7 != 2, false, |bus| {
                bus.ppu.read(addr, &mut bus.cart)
            }),
            0x4015 => return self.read_status(self.open_bus, fetch),
            0x4016 => (self.open_bus & 0xE0) | self.input.read(0, self.cycles),
            0x4017 => (self.open_bus & 0xE0) | self.input.read(1, self.cycles),
            _ => self.open_bus,
        };
        self.open_bus = value;
        self.watch_read(addr, value, fetch);
        value
    }

    /// A $4015 read. The status is internal to the 2A03: it does not drive the external bus,
    /// and bit 5 is whatever the CPU's internal bus held (`internal`).
    pub(super) fn read_status(&mut self, internal: u8, fetch: bool) -> u8 {
        let v = self.apu_read_status() | (internal & 0x20);
        self.watch_read(0x4015, v, fetch);
        v
    }

    /// A whole write cycle: its start, the access, its end (the CPU's, and OAM DMA's puts).
    #[inline(always)]
    pub(super) fn write_whole_cycle(&mut self, addr: u16, value: u8) {
        self.begin_cycle(WRITE_PHASE);
        self.write(addr, value);
        self.end_cycle();
    }

    #[inline(always)]
    pub fn write(&mut self, addr: u16, value: u8) {
        self.open_bus = value;
        self.watch(AccessKind::Write, addr, value);
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)] = value,
            0x2000..=0x3FFF => {
                let settle = !(addr & 7 == 0 && self.ppu.ctrl_write_keeps_line(value));
                self.touch_ppu(WRITE_PHASE, settle, addr & 7 == 4, |bus| {
                    bus.ppu.write(addr, value, &mut bus.cart)
                });
            }
            0x4014 => self.request_oam_dma(value),
            0x4016 => self.input.write_strobe(value, self.cycles),
            0x4000..=0x4017 => self.apu_write(addr, value),
            0x4020..=0xFFFF => {
                // Board registers can change what the PPU fetches; plain PRG RAM cannot.
                if !self.cart.write_reaches_board(addr) {
                    self.cart.cpu_write(addr, value, self.cycles);
                    return;
                }
                // A register write may raise or acknowledge the board's IRQ.
                self.lines_moved();
                if self.cart.watch_ppu {
                    self.touch_ppu(WRITE_PHASE, true, false, |bus| {
                        bus.cart.cpu_write(addr, value, bus.cycles)
                    });
                } else {
                    self.unwatched_board_write(addr, value);
                }
            }
            _ => {}
        }
    }

    /// A write to a board that does not watch the PPU bus: the PPU sees such a board only
    /// through its CHR and nametable windows, so it is caught up (with the old windows)
    /// only when the write moved one. Games that switch PRG banks mid-frame keep their
    /// PPU lazy, and a line drawn ahead stays drawn.
    fn unwatched_board_write(&mut self, addr: u16, value: u8) {
        let before = self.cart.core.ppu_windows();
        self.cart.cpu_write(addr, value, self.cycles);
        let after = self.cart.core.ppu_windows();
        if after != before {
            self.cart.core.set_ppu_windows(before);
            self.touch_ppu(WRITE_PHASE, true, false, |bus| {
                bus.cart.core.set_ppu_windows(after)
            });
        }
    }

    #[inline(always)]
    pub fn watch(&mut self, kind: AccessKind, addr: u16, value: u8) {
        if self.watching && self.watches.page_kinds(addr) & kind.bit() != 0 {
            self.record_watch(kind, addr, value);
        }
    }

    #[cold]
    fn record_watch(&mut self, kind: AccessKind, addr: u16, value: u8) {
        self.watches.record(kind, addr, value, self.cycles);
    }

    /// One check of `watching` serves both watch kinds of an opcode fetch.
    #[inline(always)]
    fn watch_read(&mut self, addr: u16, value: u8, fetch: bool) {
        if self.watching {
            let kinds = self.watches.page_kinds(addr);
            if kinds & AccessKind::Read.bit() != 0 {
                self.record_watch(AccessKind::Read, addr, value);
            }
            if fetch && kinds & AccessKind::Execute.bit() != 0 {
                self.record_watch(AccessKind::Execute, addr, value);
            }
        }
    }

    /// Reads without side effects: registers report their current value, nothing is clocked.
    pub fn peek(&self, addr: u16) -> u8 {
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)],
            0x2000..=0x3FFF => self.ppu.peek(addr),
            0x4015 => self.apu.peek_status() | (self.open_bus & 0x20),
            0x4016 => (self.open_bus & 0xE0) | self.input.peek(0, self.cycles),
            0x4017 => (self.open_bus & 0xE0) | self.input.peek(1, self.cycles),
            0x4020..=0xFFFF => match self.cart.core.read_prg(addr) {
                Some(v) => v,
                None => self.cart.core.read_undriven(addr, self.open_bus),
            },
            _ => self.open_bus,
        }
    }

    /// Writes RAM and PRG RAM directly, bypassing registers (cheats, tests, trainers).
    pub fn poke(&mut self, addr: u16, value: u8) {
        match addr {
            0x0000..=0x1FFF => self.ram[usize::from(addr & 0x7FF)] = value,
            0x6000..=0xFFFF => {
                let w = self.cart.core.cpu[usize::from(addr >> 13) - 3];
                if w.source == Source::Ram {
                    let off = w.offset + usize::from(addr & 0x1FFF);
                    self.cart.core.prg_ram.set(off, value);
                }
            }
            _ => {}
        }
    }
}
