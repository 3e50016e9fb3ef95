//! The IRQ counter Konami's VRC4, VRC6 and VRC7 share (the nesdev wiki's "VRC IRQ"),
//! clocked by the CPU: an 8-bit counter that counts up and, when it overflows past $FF,
//! reloads from the latch and raises the IRQ. In cycle mode it counts every CPU cycle; in
//! scanline mode a prescaler counts 341 down by 3 each cycle and clocks it whenever the
//! prescaler reaches 0 or below (adding 341 back), once per 113⅔ cycles, an NTSC line.
//!
//! The control register (bits: 2 cycle mode, 1 enable, 0 enable after acknowledge)
//! acknowledges the IRQ and resets the prescaler; with the enable bit set it also reloads
//! the counter. The acknowledge register acknowledges and copies bit 0 into the enable.
//! While disabled, neither the prescaler nor the counter moves. (A 2022 die analysis of the
//! VRC7 on the wiki's talk page differs in details; this follows the wiki's article.)

use serde::{Deserialize, Serialize};

/// The prescaler's period, in thirds of a CPU cycle (PPU dots).
const LINE: i16 = 341;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VrcIrq {
    pub(crate) latch: u8,
    pub(crate) counter: u8,
    /// Counts down from 341 by 3 a cycle in scanline mode.
    pub(crate) prescaler: i16,
    pub(crate) cycle_mode: bool,
    pub(crate) enabled: bool,
    pub(crate) enable_after_ack: bool,
}

impl Default for VrcIrq {
    fn default() -> Self {
        VrcIrq {
            latch: 0,
            counter: 0,
            prescaler: LINE,
            cycle_mode: false,
            enabled: false,
            enable_after_ack: false,
        }
    }
}

impl VrcIrq {
    /// VRC6 and VRC7 write the latch whole.
    #[allow(dead_code)]
    pub fn set_latch(&mut self, value: u8) {
        self.latch = value;
    }
    /// VRC4 writes the latch a nibble at a time.
    pub fn set_latch_low(&mut self, value: u8) {
        self.latch = self.latch & 0xF0 | value & 0x0F;
    }
    pub fn set_latch_high(&mut self, value: u8) {
        self.latch = self.latch & 0x0F | value << 4;
    }
    /// The control register; `irq` is the board's IRQ line.
    pub fn control(&mut self, value: u8, irq: &mut bool) {
        self.enable_after_ack = value & 1 != 0;
        self.enabled = value & 2 != 0;
        self.cycle_mode = value & 4 != 0;
        self.prescaler = LINE;
        if self.enabled {
            self.counter = self.latch;
        }
        *irq = false;
    }
    pub fn acknowledge(&mut self, irq: &mut bool) {
        self.enabled = self.enable_after_ack;
        *irq = false;
    }
    /// One CPU cycle.
    #[inline]
    pub fn cpu_cycle(&mut self, irq: &mut bool) {
        if !self.enabled {
            return;
        }
        if !self.cycle_mode {
            self.prescaler -= 3;
            if self.prescaler > 0 {
                return;
            }
            self.prescaler += LINE;
        }
        if self.counter == 0xFF {
            self.counter = self.latch;
            *irq = true;
        } else {
            self.counter += 1;
        }
    }
    /// Savestate check: the prescaler stays within one period.
    pub fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        crate::invalid::ensure(
            (1..=LINE).contains(&self.prescaler),
            "bus.cart.board.irq.prescaler",
            || format!("{} is outside 1..=341", self.prescaler),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cycles (after the control write) on which the IRQ rises, up to `until`.
    fn rises(latch: u8, control: u8, until: u32) -> Vec<u32> {
        let (mut v, mut irq) = (VrcIrq::default(), false);
        v.set_latch(latch);
        v.control(control, &mut irq);
        let mut out = Vec::new();
        for c in 1..=until {
            v.cpu_cycle(&mut irq);
            if irq {
                out.push(c);
                irq = false;
            }
        }
        out
    }

    #[test]
    fn cycle_mode_counts_every_cycle_from_the_latch() {
        assert_eq!(rises(0xFF, 6, 3), [1, 2, 3]);
        assert_eq!(rises(0xF0, 6, 40), [16, 32]);
    }

    #[test]
    fn scanline_mode_counts_lines_of_113_and_two_thirds_cycles() {
        // Three lines take exactly 341 cycles.
        assert_eq!(rises(0xFF, 2, 700), [114, 228, 341, 455, 569, 682]);
        assert_eq!(rises(0xFD, 2, 1100), [341, 682, 1023]);
    }

    #[test]
    fn acknowledge_moves_the_a_bit_into_e() {
        let (mut v, mut irq) = (VrcIrq::default(), true);
        v.control(3, &mut irq);
        assert!(!irq && v.enabled);
        v.control(2, &mut irq);
        v.acknowledge(&mut irq);
        assert!(!v.enabled);
        for _ in 0..1000 {
            v.cpu_cycle(&mut irq);
        }
        assert!(!irq, "disabled: no count");
    }
}
