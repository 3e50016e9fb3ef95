//! The NTSC master clock and where in it each part acts: the figures every part of the bus
//! counts in.

/// Master clocks per CPU cycle and per PPU dot (NTSC: 21.477 MHz / 12 and / 4).
pub const CPU_CLOCKS: u64 = 12;
pub const PPU_CLOCKS: u64 = 4;
/// Where inside a CPU cycle the bus access happens: master clocks before the access for a
/// read and for a write (the rest of the 12 follow it).
pub const READ_PHASE: u64 = 5;
pub const WRITE_PHASE: u64 = 7;
/// The PPU runs this many master clocks behind the CPU (the power-on alignment).
pub const PPU_OFFSET: u64 = 1;
