//! What the 6502 core needs from the machine around it: one call per bus cycle, the two
//! interrupt lines, and a few hooks with do-nothing defaults. `Bus` implements it for
//! the NES; the unit tests run the core on a flat 64 KiB memory (`cpu/tests.rs`).

/// The machine as the CPU sees it. Each `*_cycle` method is one CPU cycle, during which
/// the implementation clocks whatever else runs beside the CPU.
pub trait CpuBus {
    /// A read cycle with all its side effects. A DMA unit may first halt the CPU at this
    /// read for some cycles; `poll` runs after each of those, so the CPU keeps sampling
    /// its interrupt lines.
    fn read_cycle(&mut self, addr: u16, poll: &mut impl FnMut(&Self)) -> u8;
    /// The read cycle that fetches an opcode (execute watches see it too).
    #[inline(always)]
    fn fetch_cycle(&mut self, addr: u16, poll: &mut impl FnMut(&Self)) -> u8 {
        self.read_cycle(addr, poll)
    }
    /// A write cycle.
    fn write_cycle(&mut self, addr: u16, value: u8);
    /// A cycle in which the CPU drives nothing (a jammed CPU).
    fn stall_cycle(&mut self);

    /// The NMI input as sampled at the end of the last cycle.
    fn nmi_line(&self) -> bool;
    /// The IRQ input (level), as sampled at the end of the last cycle.
    fn irq_line(&self) -> bool;

    /// A number that changes whenever `nmi_line` or `irq_line` may have changed, or `None`
    /// when the bus does not keep one (the CPU then samples the lines on every cycle).
    fn lines_epoch(&self) -> Option<u64> {
        None
    }

    /// Reads without side effects (for tracing and for recognising wait loops).
    fn peek(&self, addr: u16) -> u8;
    /// Completed CPU cycles.
    fn cycles(&self) -> u64;

    /// Watched accesses seen so far (only ever grows): a wait-loop pass that leaves it
    /// unchanged touched no watched address, so skipping such passes loses no hit.
    fn watch_count(&self) -> u64 {
        0
    }
    /// True when a read or an opcode fetch at `addr` would be reported to a watch.
    fn read_watched(&self, _addr: u16) -> bool {
        false
    }

    /// False when `skip_passes` would skip nothing whatever the loop (the skip is off, the
    /// run does not fast-forward, or something is due within a pass): the skipper then
    /// does not look at loops at all.
    fn may_skip(&self) -> bool {
        false
    }
    /// A wait loop of `pass` cycles per pass may be skipped: advance the clock by as many
    /// whole passes (at most `limit`) as cannot be told apart from running them, and
    /// return how many. The default skips none.
    fn skip_passes(&mut self, _pass: u64, _limit: u64) -> u64 {
        0
    }
}
