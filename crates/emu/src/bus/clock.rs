//! Scheduling: when the parts beside the CPU (PPU, APU, DMA, boards) next need a look, and
//! which shortcuts may be taken until then.
//!
//! The CPU drives the master clock; everything else runs lazily and is caught up when the CPU
//! could observe it. Two numbers bound the laziness: `ppu_due`, the cycle by whose end the PPU
//! must have run because something the CPU samples (NMI line, frame end) may change, and
//! `attention`, the first cycle whose start needs more than the access itself (an APU event, a
//! DMA request, a board that counts CPU cycles). Lockstep (the reference every shortcut is
//! checked against) sets both to 0: every cycle looks at everything.
//!
//! Anything that changes what those numbers were computed from goes through a method here
//! that re-plans (`apu_write`, `request_oam_dma`, `with_apu`, `set_speedups`), so no caller has
//! to remember to.

use super::parts::Bus;
use super::schedule::{A12Inputs, Schedule};
use super::timing::{CPU_CLOCKS, PPU_CLOCKS, PPU_OFFSET};
use crate::apu::Apu;
use crate::ppu::{A12_LOOK_AHEAD, LineShortcut};
use crate::ppu_watch::PpuWatch;
use crate::speedups::Speedups;

impl Bus {
    /// Runs the PPU up to the start of the current CPU cycle.
    #[inline]
    pub fn sync_ppu(&mut self) {
        self.sync_ppu_to(self.cycles * CPU_CLOCKS);
    }

    /// Runs the PPU up to master clock `master`. Catching up later gives the same result as
    /// running in lockstep, because nothing but the CPU's accesses (each of which syncs
    /// first) and the PPU's own state decide what the PPU does.
    #[inline]
    pub(crate) fn sync_ppu_to(&mut self, master: u64) {
        let target = master - PPU_OFFSET;
        // The PPU's run or the register access that follows may move the NMI line, or an
        // A12 board's IRQ.
        self.lines_moved();
        if target >= self.ppu_master + PPU_CLOCKS {
            let dots = (target - self.ppu_master) / PPU_CLOCKS;
            self.ppu_master += dots * PPU_CLOCKS;
            self.ppu.run(dots, &mut self.cart, self.clock.lines);
            self.cart.ppu_reached(self.ppu.dots);
        }
        self.plan_ppu();
    }

    /// Sets `ppu_due` from the PPU's next event (and an A12 board's IRQ).
    #[inline]
    fn plan_ppu(&mut self) {
        self.clock.ppu_due = if self.clock.lockstep {
            0
        } else {
            let mut dots = self.ppu.dots_to_next_event();
            // No fetch comes before the pre-render line's first dot, itself an event; a
            // delayed IRQ (`Cart::ppu_reached`) may still be on its way.
            if self.cart.ppu_watch == PpuWatch::A12
                && (!self.ppu.in_vertical_blank() || self.cart.watch_ppu_time)
            {
                dots = dots.min(self.dots_to_a12_irq());
            }
            // The event dot runs once the target passes it: k dots from now need k*4 clocks.
            let event = self.ppu_master + PPU_OFFSET + PPU_CLOCKS * (dots + 1);
            event.div_ceil(CPU_CLOCKS)
        };
    }

    /// A CPU access that reaches the PPU's side: a PPU register, or a board register that
    /// changes what the PPU fetches. The PPU is caught up to the access (`phase` master
    /// clocks into the cycle) and, if `settle`, brought to its exact dot (a line drawn ahead
    /// may otherwise stand); `access` then runs, and an A12 board's IRQ is planned again if
    /// the access changed what it was worked out from (`oam_write`: see `a12_accessed`).
    /// Every such access goes through here, so none can forget a step.
    #[inline(always)]
    pub(crate) fn touch_ppu<R>(
        &mut self,
        phase: u64,
        settle: bool,
        oam_write: bool,
        access: impl FnOnce(&mut Bus) -> R,
    ) -> R {
        self.sync_ppu_to(self.cycles * CPU_CLOCKS + phase);
        if settle {
            self.ppu.settle(&mut self.cart);
        }
        let before = self.a12_inputs();
        let result = access(self);
        self.a12_accessed(before, oam_write);
        result
    }

    /// Dots until the PPU must have run for an A12 board's IRQ; looks ahead again when an
    /// access changed the inputs or the last look is used up.
    fn dots_to_a12_irq(&mut self) -> u64 {
        let now = self.ppu.dots;
        if self.clock.a12_stale || now > self.clock.a12_next {
            let ahead = self
                .cart
                .a12_irq()
                .and_then(|irq| self.ppu.dots_to_a12_irq(irq, A12_LOOK_AHEAD));
            self.clock.a12_next = now + ahead.unwrap_or(A12_LOOK_AHEAD);
            self.clock.a12_stale = false;
        }
        self.clock.a12_next - now
    }

    /// What an A12 board's IRQ prediction is worked out from, before a CPU access that may
    /// change it (`None` for other boards).
    #[inline(always)]
    fn a12_inputs(&self) -> Option<A12Inputs> {
        (self.cart.ppu_watch == PpuWatch::A12).then(|| (self.ppu.a12_inputs(), self.cart.a12_irq()))
    }

    /// After such an access: plans again if it changed anything (an OAM write with 8x16
    /// sprites may change the tiles fetched).
    #[inline(always)]
    fn a12_accessed(&mut self, before: Option<A12Inputs>, oam_write: bool) {
        if let Some(before) = before {
            self.a12_replan(before, oam_write);
        }
    }

    #[inline(never)]
    fn a12_replan(&mut self, before: A12Inputs, oam_write: bool) {
        if (oam_write && self.ppu.tall_sprites()) || self.a12_inputs() != Some(before) {
            self.clock.a12_stale = true;
            self.plan_ppu();
        }
    }

    /// The start of a CPU cycle whose access comes `phase` master clocks in.
    #[inline(always)]
    pub fn begin_cycle(&mut self, phase: u64) {
        if self.needs_attention() {
            self.attend(phase);
        }
    }

    /// True when this cycle's start has more to do than the access (see `attend`); always
    /// true while a DMA is pending.
    #[inline(always)]
    pub fn needs_attention(&self) -> bool {
        self.cycles >= self.clock.attention
    }

    /// Everything a cycle's start may need besides the access.
    #[inline(never)]
    pub fn attend(&mut self, phase: u64) {
        self.lines_moved();
        if self.apu.due(self.cycles) {
            self.apu.run_to(self.cycles + 1);
        }
        let dmc = self.apu.dmc_dma_wanted();
        self.dma_pending |= dmc;
        self.cart.cpu_cycle();
        if self.clock.lockstep {
            self.sync_ppu_to(self.cycles * CPU_CLOCKS + phase);
        }
        self.clock.attention =
            if dmc || self.dma_pending || self.cart.watch_cpu || self.clock.lockstep {
                0
            } else {
                self.apu.next_event()
            };
    }

    #[inline(always)]
    pub fn end_cycle(&mut self) {
        self.cycles += 1;
        if self.cycles >= self.clock.ppu_due {
            self.sync_ppu_to(self.cycles * CPU_CLOCKS);
        }
    }

    /// The first cycle at which anything outside the CPU may act on its own: a PPU event
    /// (frame end, VBL, NMI), an APU event, a DMA, a board that counts cycles. A CPU that
    /// only reads memory cannot tell the cycles before it apart (see `cpu/idle.rs`).
    pub fn quiet_until(&self) -> u64 {
        // A finished frame ends `run_frame` after this instruction, exactly where it is.
        if !self.clock.may_skip() || self.ppu.frame_ready {
            return 0;
        }
        self.clock
            .attention
            .min(self.apu.next_event())
            .min(self.clock.ppu_due.saturating_sub(1))
    }

    /// Switches shortcuts on or off; results do not change, only speed.
    pub fn set_speedups(&mut self, speedups: Speedups) {
        let lockstep = !speedups.lazy_ppu;
        self.clock = Schedule {
            lockstep,
            speedups,
            lines: if !speedups.whole_lines {
                LineShortcut::None
            } else if lockstep || !speedups.lines_ahead || self.cart.watch_ppu {
                LineShortcut::Whole
            } else {
                LineShortcut::Ahead
            },
            fast_forward: self.clock.fast_forward,
            ..Schedule::default()
        };
        self.apu.set_events(speedups.apu_events);
        self.lines_moved();
    }

    /// A CPU write to an APU register: it may move the APU's next event.
    #[inline]
    pub(crate) fn apu_write(&mut self, addr: u16, value: u8) {
        self.apu.write(addr, value, self.cycles);
        self.replan();
    }

    /// A $4015 read: the flag it clears does so on a later cycle, which must be visited.
    #[inline]
    pub(crate) fn apu_read_status(&mut self) -> u8 {
        let v = self.apu.read_status(self.cycles);
        self.replan();
        v
    }

    /// A $4014 write: the DMA halts the CPU at its next read.
    #[inline]
    pub(crate) fn request_oam_dma(&mut self, page: u8) {
        self.oam_dma = Some(page);
        self.dma_pending = true;
        self.replan();
    }

    /// A change to the APU from outside the CPU (the host's sound settings, reset, the end of
    /// a frame): `f` gets the APU and the current cycle, and the schedule is planned afresh.
    pub(crate) fn with_apu<R>(&mut self, f: impl FnOnce(&mut Apu, u64) -> R) -> R {
        let result = f(&mut self.apu, self.cycles);
        self.replan();
        result
    }

    /// Makes the next cycle's start look again at everything.
    #[inline]
    fn replan(&mut self) {
        self.lines_moved();
        self.clock.attention = 0;
    }
}
