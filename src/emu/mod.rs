//! The machine: CPU, PPU, APU, cartridge and controllers, clocked in lockstep.
