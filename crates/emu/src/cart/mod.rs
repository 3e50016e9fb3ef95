//! Cartridges: memory windows shared by every board, and one board (mapper) per file.
//!
//! Reads never dispatch on the board: each board keeps `CartCore`'s bank windows current
//! when its registers change, so the CPU and PPU read through plain offset tables.
//!
//! # Adding a board
//! 1. A file `cart/<board>.rs` with a serde-serialisable struct implementing `Board`:
//!    `power_on` sets the bank layout, `write` decodes the registers and calls the
//!    `CartCore::map_*` helpers. Everything the board knows about itself stays in its
//!    file: whether it watches the PPU bus or counts CPU cycles, and any registers in
//!    $6000-$7FFF (the trait's methods with defaults).
//! 2. A variant in the `boards!` list and its mapper number (and submapper) in `board_for`,
//!    with the name `nesmind info` shows (the README's supported-boards list follows it:
//!    `crates/emu/tests/it/supported_boards.rs`).
//! 3. A test ROM for it in `crates/testroms/conformance.ron` (holy-mapperel covers most
//!    discrete boards) and a line in the README's conformance table (`nesmind test-roms
//!    --markdown`),
//!    or a test cart of its own in `tests/carts/boards` (a script of register writes and
//!    expected reads for `harness.inc`), listed in `tests/board_carts.rs`.
//! 4. A board that watches the PPU bus says what whole lines must show it (`PpuWatch`),
//!    and a board whose IRQ counts A12 rises describes its counter (`a12_irq`) so the
//!    scheduler can predict the IRQ (`ppu/watched.rs`), with the dots its line lags the
//!    counting rise (`A12Irq::delay`, raised in `Board::ppu_reached`: the TC0690); check its
//!    speed with `nesmind bench` and its results with `examples/fingerprint.rs` (lazy =
//!    lockstep).
//!
//! The cartridge connector carries no reset line, so the reset button leaves every
//! board's registers as they are.

mod action53;
mod axrom;
mod bnrom;
mod camerica;
mod cnrom;
mod cnrom_protect;
mod color_dreams;
mod fme7;
mod gxrom;
mod import;
mod irem78;
mod irem_g101;
mod irem_h3001;
mod jaleco140;
mod jaleco87;
mod jaleco_ss88006;
mod mmc1;
mod mmc2;
mod mmc3;
mod namco108;
mod nina0306;
mod nrom;
mod ntdec2722;
mod shared_ram;
mod sunsoft1;
mod sunsoft3;
mod sunsoft4;
mod taito_tc0190;
mod unrom512;
mod uxrom;
mod vrc1;
mod vrc2_4;
mod vrc_irq;

use super::rom::{Mirroring, Rom, RomError};
use crate::ppu_watch::{A12Irq, PpuWatch};
pub use import::{BoardImport, MAX_IMPORT_CYCLES, RegisterImport};
pub use jaleco_ss88006::Ss88006Import;
pub use mmc1::Mmc1Import;
pub use mmc3::Mmc3Import;
use serde::{Deserialize, Serialize};
pub(crate) use shared_ram::SharedRam;
use std::ops::RangeInclusive;
use std::sync::Arc;
pub use taito_tc0190::TaitoImport;
pub use vrc2_4::Vrc2_4Import;

/// Where an 8 KiB CPU window at $6000-$FFFF points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    Rom,
    Ram,
    OpenBus,
    /// A 1-bit latch that drives D0 at $6000-$6FFF (VRC2 without PRG RAM); the window's
    /// offset holds the bit (see `CartCore::read_undriven`).
    Latch,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    pub(crate) source: Source,
    pub(crate) offset: usize,
    pub(crate) writable: bool,
}

/// The $FF page after the CHR ROM of boards that can disconnect CHR (`Board::cuts_chr`).
const CUT_CHR_PAGE: usize = 0x400;

/// The CHR ROM as a board keeps it: with an $FF page appended when it can cut CHR off.
fn board_chr_rom(rom: &Rom, cuts_chr: bool) -> Arc<[u8]> {
    if cuts_chr && !rom.chr_rom.is_empty() {
        let mut chr = rom.chr_rom.to_vec();
        chr.resize(chr.len() + CUT_CHR_PAGE, 0xFF);
        chr.into()
    } else {
        rom.chr_rom.clone()
    }
}

/// `CartCore::rom_pages` for a page that does not show ROM.
const NOT_ROM: usize = usize::MAX;

fn no_rom_pages() -> [usize; 8] {
    [NOT_ROM; 8]
}

impl Window {
    const OPEN: Window = Window {
        source: Source::OpenBus,
        offset: 0,
        writable: false,
    };
}

/// Memory and bank state common to all boards.
#[derive(Clone, Serialize, Deserialize)]
pub struct CartCore {
    #[serde(skip)]
    pub(crate) prg_rom: Arc<[u8]>,
    #[serde(skip)]
    chr_rom: Arc<[u8]>,
    pub(crate) chr_ram: SharedRam,
    pub(crate) prg_ram: SharedRam,
    /// Nametable RAM: the console's 2 KiB, or 4 KiB for four-screen boards.
    pub(crate) vram: SharedRam,
    /// CPU windows for $6000, $8000, $A000, $C000, $E000 (changed only through
    /// `set_cpu_window`, which keeps `rom_pages` current).
    pub(crate) cpu: [Window; 5],
    /// Derived from `cpu`: for each 8 KiB page of the CPU's address space, the PRG ROM
    /// offset its window shows, or `NOT_ROM` (RAM, open bus, below $6000), so the common
    /// read, code and data from ROM, costs one table lookup.
    #[serde(skip, default = "no_rom_pages")]
    rom_pages: [usize; 8],
    /// 1 KiB pattern-table windows: offsets into CHR ROM or RAM.
    pub(crate) chr: [usize; 8],
    pub(crate) chr_is_ram: bool,
    /// 1 KiB nametable pages: offsets into `vram`.
    pub(crate) nt: [usize; 4],
    /// Bit n set: nametable n shows a copy of CHR ROM (Sunsoft-4), which writes leave alone.
    #[serde(default)]
    pub(crate) nt_read_only: u8,
    pub(crate) irq: bool,
    pub(crate) header_mirroring: Mirroring,
    pub(crate) submapper: u8,
}

impl CartCore {
    pub fn prg_len(&self) -> usize {
        self.prg_rom.len()
    }
    /// PRG ROM size in 8 KiB banks (at least 1, so bank arithmetic never divides by zero).
    pub fn prg_banks8(&self) -> usize {
        (self.prg_rom.len() / 0x2000).max(1)
    }
    /// Index of the last 16 KiB PRG bank.
    pub fn last_bank16(&self) -> usize {
        (self.prg_rom.len() / 0x4000).max(1) - 1
    }
    pub fn chr_len(&self) -> usize {
        if self.chr_is_ram {
            self.chr_ram.len()
        } else {
            self.chr_rom.len()
        }
    }

    /// Maps an 8 KiB PRG ROM bank (wrapping at the ROM size) at window `slot` (1-4 = $8000-$E000).
    pub fn map_prg8(&mut self, slot: usize, bank: usize) {
        let banks = (self.prg_rom.len() / 0x2000).max(1);
        self.set_cpu_window(
            slot,
            Window {
                source: Source::Rom,
                offset: (bank % banks) * 0x2000,
                writable: false,
            },
        );
    }
    pub fn map_prg16(&mut self, slot16: usize, bank: usize) {
        self.map_prg8(1 + slot16 * 2, bank * 2);
        self.map_prg8(2 + slot16 * 2, bank * 2 + 1);
    }
    /// The power-on layout of boards that switch $8000 and fix the last 16 KiB bank at
    /// $C000: bank 0, then the last bank.
    pub fn map_first_and_last16(&mut self) {
        self.map_prg16(0, 0);
        self.map_prg16(1, self.last_bank16());
    }
    /// The PRG mode MMC3 and the Irem boards share: `bank` at $8000 and the second-last
    /// 8 KiB bank at $C000, or the other way round when `swapped`.
    pub fn map_prg8_swappable(&mut self, bank: usize, swapped: bool) {
        // Counted modulo the ROM size (`map_prg8` wraps), so a one-bank ROM cannot underflow.
        let second_last = 2 * self.prg_banks8() - 2;
        let (at_8000, at_c000) = if swapped {
            (second_last, bank)
        } else {
            (bank, second_last)
        };
        self.map_prg8(1, at_8000);
        self.map_prg8(3, at_c000);
    }
    pub fn map_prg32(&mut self, bank: usize) {
        for i in 0..4 {
            self.map_prg8(1 + i, bank * 4 + i);
        }
    }
    /// Maps 8 KiB of PRG RAM bank `bank` at $6000, or open bus when the board has none.
    pub fn map_prg_ram(&mut self, bank: usize, enabled: bool, writable: bool) {
        let banks = self.prg_ram.len() / 0x2000;
        let window = if enabled && banks > 0 {
            Window {
                source: Source::Ram,
                offset: (bank % banks) * 0x2000,
                writable,
            }
        } else {
            Window::OPEN
        };
        self.set_cpu_window(0, window);
    }
    /// A 1-bit latch holding `bit` at $6000 (`Source::Latch`).
    pub fn map_latch(&mut self, bit: u8) {
        self.set_cpu_window(
            0,
            Window {
                source: Source::Latch,
                offset: usize::from(bit & 1),
                writable: false,
            },
        );
    }
    /// Open bus at window `slot`.
    pub fn map_open(&mut self, slot: usize) {
        self.set_cpu_window(slot, Window::OPEN);
    }
    fn set_cpu_window(&mut self, slot: usize, window: Window) {
        self.cpu[slot] = window;
        self.rom_pages[slot + 3] = self.rom_page(window);
    }
    fn rom_page(&self, w: Window) -> usize {
        // A window that would run past the ROM's end takes the slow path.
        // (A forged savestate's offset may be anywhere; it is refused after this.)
        let end = w.offset.checked_add(0x2000);
        if w.source == Source::Rom && end.is_some_and(|end| end <= self.prg_rom.len()) {
            w.offset
        } else {
            NOT_ROM
        }
    }
    /// After the windows or the ROM were replaced wholesale (a savestate load).
    fn rebuild_rom_pages(&mut self) {
        for slot in 0..5 {
            self.rom_pages[slot + 3] = self.rom_page(self.cpu[slot]);
        }
    }
    pub fn map_chr1(&mut self, slot: usize, bank: usize) {
        let banks = (self.chr_len() / 0x400).max(1);
        self.chr[slot] = (bank % banks) * 0x400;
    }
    pub fn map_chr2(&mut self, slot2: usize, bank: usize) {
        self.map_chr1(slot2 * 2, bank * 2);
        self.map_chr1(slot2 * 2 + 1, bank * 2 + 1);
    }
    pub fn map_chr4(&mut self, slot4: usize, bank: usize) {
        for i in 0..4 {
            self.map_chr1(slot4 * 4 + i, bank * 4 + i);
        }
    }
    pub fn map_chr8(&mut self, bank: usize) {
        for i in 0..8 {
            self.map_chr1(i, bank * 8 + i);
        }
    }
    /// Points every pattern window at the 1 KiB of $FF kept after the CHR ROM of boards
    /// that can cut CHR off (`Board::cuts_chr`): the PPU then reads what a floating bus
    /// pulled up gives. With CHR RAM there is no such page, and nothing changes.
    pub fn map_chr_cut(&mut self) {
        if !self.chr_is_ram && self.chr_rom.len() >= CUT_CHR_PAGE {
            self.chr = [self.chr_rom.len() - CUT_CHR_PAGE; 8];
        }
    }
    pub fn set_mirroring(&mut self, m: Mirroring) {
        self.nt_read_only = 0;
        self.nt = match m {
            Mirroring::Horizontal => [0, 0, 0x400, 0x400],
            Mirroring::Vertical => [0, 0x400, 0, 0x400],
            Mirroring::SingleLow => [0; 4],
            Mirroring::SingleHigh => [0x400; 4],
            Mirroring::FourScreen => [0, 0x400, 0x800, 0xC00],
        };
    }

    /// Nametables from CHR ROM (Sunsoft-4): copies 1 KiB CHR banks `banks` into the two
    /// nametable pages after the console's (a board that does this asks for 4 KiB of
    /// nametable RAM) and points the nametables the mirroring put on the console's first and
    /// second page at the first and second copy, read-only.
    pub fn set_rom_nametables(&mut self, banks: [usize; 2]) {
        for (i, bank) in banks.into_iter().enumerate() {
            let len = self.chr_len();
            let from = (bank * 0x400) % len.max(0x400);
            let Some(page) = self.chr_bytes().get(from..from + 0x400) else {
                continue;
            };
            let page = page.to_vec();
            self.vram.copy_in(0x800 + i * 0x400, &page);
        }
        for nt in &mut self.nt {
            *nt = 0x800 + (*nt & 0x400);
        }
        self.nt_read_only = 0x0F;
    }

    /// Everything a board's register write can change of what the PPU reads: the pattern
    /// and nametable windows (CHR RAM and nametable contents change only through the PPU).
    #[inline]
    pub(crate) fn ppu_windows(&self) -> ([usize; 8], [usize; 4]) {
        (self.chr, self.nt)
    }
    #[inline]
    pub(crate) fn set_ppu_windows(&mut self, (chr, nt): ([usize; 8], [usize; 4])) {
        self.chr = chr;
        self.nt = nt;
    }

    /// All pattern memory (CHR ROM or RAM); `chr` windows are offsets into it.
    #[inline(always)]
    pub fn chr_bytes(&self) -> &[u8] {
        if self.chr_is_ram {
            &self.chr_ram
        } else {
            &self.chr_rom
        }
    }

    /// The 1 KiB nametable page that `addr` ($2000-$3EFF) falls in.
    #[inline(always)]
    pub fn nt_page(&self, addr: u16) -> &[u8] {
        let start = self.nt[usize::from(addr >> 10) & 3];
        &self.vram[start..start + 0x400]
    }

    #[inline(always)]
    pub fn read_chr(&self, addr: u16) -> u8 {
        let off = self.chr[usize::from(addr >> 10) & 7] + usize::from(addr & 0x3FF);
        if self.chr_is_ram {
            self.chr_ram[off]
        } else {
            self.chr_rom[off]
        }
    }
    #[inline]
    pub fn write_chr(&mut self, addr: u16, value: u8) {
        if self.chr_is_ram {
            let off = self.chr[usize::from(addr >> 10) & 7] + usize::from(addr & 0x3FF);
            self.chr_ram.set(off, value);
        }
    }
    #[inline(always)]
    pub fn read_nt(&self, addr: u16) -> u8 {
        self.vram[self.nt[usize::from(addr >> 10) & 3] + usize::from(addr & 0x3FF)]
    }
    #[inline]
    pub fn write_nt(&mut self, addr: u16, value: u8) {
        if self.nt_read_only >> (addr >> 10 & 3) & 1 != 0 {
            return;
        }
        let off = self.nt[usize::from(addr >> 10) & 3] + usize::from(addr & 0x3FF);
        self.vram.set(off, value);
    }

    /// CPU read at $4020-$FFFF; `None` means open bus.
    #[inline(always)]
    pub fn read_prg(&self, addr: u16) -> Option<u8> {
        let page = self.rom_pages[usize::from(addr >> 13)];
        if page != NOT_ROM {
            return Some(self.prg_rom[page + usize::from(addr & 0x1FFF)]);
        }
        self.read_prg_slow(addr)
    }
    /// PRG RAM, open bus, and anything `rom_pages` leaves out.
    fn read_prg_slow(&self, addr: u16) -> Option<u8> {
        if addr < 0x6000 {
            return None;
        }
        let w = &self.cpu[usize::from(addr >> 13) - 3];
        let off = w.offset + usize::from(addr & 0x1FFF);
        match w.source {
            Source::Rom => Some(self.prg_rom[off]),
            Source::Ram => Some(self.prg_ram[off]),
            Source::OpenBus | Source::Latch => None,
        }
    }
    /// What a read `read_prg` left undriven gives: the bus's last value `open_bus`, with
    /// bit 0 from a 1-bit latch at $6000-$6FFF (`Source::Latch`).
    #[inline]
    pub fn read_undriven(&self, addr: u16, open_bus: u8) -> u8 {
        let w = &self.cpu[0];
        if w.source == Source::Latch && (0x6000..0x7000).contains(&addr) {
            open_bus & 0xFE | (w.offset & 1) as u8
        } else {
            open_bus
        }
    }
    /// A write to a discrete latch at $8000-$FFFF (with bus conflicts) that selects a
    /// 32 KiB PRG bank and an 8 KiB CHR bank; `banks` splits the latched value into the two.
    pub fn latch_prg32_chr8(&mut self, addr: u16, value: u8, banks: fn(u8) -> (u8, u8)) {
        if addr >= 0x8000 {
            let (prg, chr) = banks(self.latched(addr, value, true));
            self.map_prg32(usize::from(prg));
            self.map_chr8(usize::from(chr));
        }
    }
    /// The value a discrete-logic latch sees for a CPU write: with bus conflicts the ROM
    /// drives the data bus too, and the result is the AND of both.
    pub fn latched(&self, addr: u16, value: u8, bus_conflicts: bool) -> u8 {
        if bus_conflicts {
            value & self.read_prg(addr).unwrap_or(0xFF)
        } else {
            value
        }
    }
}

/// Behaviour a board adds on top of the shared windows.
trait Board {
    /// Sets the power-on bank layout; by default the first 32 KiB of PRG and the first
    /// 8 KiB of CHR.
    fn power_on(&mut self, core: &mut CartCore) {
        core.map_prg32(0);
        core.map_chr8(0);
    }
    /// CPU write at $4020-$FFFF (after any PRG RAM write has happened), on CPU cycle `cycle`.
    fn write(&mut self, core: &mut CartCore, addr: u16, value: u8, cycle: u64);
    /// Every PPU bus address the PPU drives, with the PPU dot count (boards that set `watch_ppu`).
    fn ppu_bus(&mut self, _core: &mut CartCore, _addr: u16, _ppu_cycle: u64) {}
    /// One CPU cycle (boards that set `watch_cpu`).
    fn cpu_cycle(&mut self, _core: &mut CartCore) {}
    /// What the board needs to see of the PPU bus (`ppu_bus` then sees every access the
    /// dot path makes, and what `PpuWatch` names of whole lines).
    fn ppu_watch(&self) -> PpuWatch {
        PpuWatch::None
    }
    /// Boards with an IRQ counter clocked by A12 rises: its state, or `None` when no IRQ
    /// can come without a CPU write (disabled, or already raised).
    fn a12_irq(&self, _core: &CartCore) -> Option<A12Irq> {
        None
    }
    /// The PPU has run every dot before dot count `dots` (boards that set `watches_ppu_time`):
    /// an IRQ that rises some dots after the fetch that caused it rises here.
    fn ppu_reached(&mut self, _core: &mut CartCore, _dots: u64) {}
    /// True for boards whose IRQ line rises some dots after an A12 rise (`ppu_reached`
    /// then runs after every PPU catch-up, and `a12_irq` names the delay).
    fn watches_ppu_time(&self) -> bool {
        false
    }
    /// True for boards with a CPU-cycle counter (`cpu_cycle` then runs every cycle).
    fn counts_cpu_cycles(&self) -> bool {
        false
    }
    /// True for boards that can disconnect CHR ROM (mapper 185's copy protection): their
    /// CHR ROM gets a page of $FF after it, which `CartCore::map_chr_cut` shows.
    fn cuts_chr(&self) -> bool {
        false
    }
    /// Bytes of nametable RAM the cart holds: the console's 2 KiB (4 KiB on four-screen
    /// carts), or more for a board that keeps nametables of its own there.
    fn nametable_ram(&self) -> usize {
        0x800
    }
    /// Registers the board decodes inside $6000-$7FFF, which otherwise only PRG RAM sees.
    fn low_registers(&self) -> Option<RangeInclusive<u16>> {
        None
    }
    /// Savestate check of the board's own registers: those used as indices must be in
    /// range (bank numbers need none: the windows wrap them to the ROM's size).
    fn check(&self) -> Result<(), crate::invalid::InvalidState> {
        Ok(())
    }
}

macro_rules! boards {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        #[derive(Clone, Serialize, Deserialize)]
        enum BoardKind { $($variant($ty)),* }
        impl BoardKind {
            fn as_board(&mut self) -> &mut dyn Board {
                match self { $(BoardKind::$variant(b) => b),* }
            }
            fn board(&self) -> &dyn Board {
                match self { $(BoardKind::$variant(b) => b),* }
            }
        }
    };
}

boards! {
    Nrom(nrom::Nrom),
    Mmc1(mmc1::Mmc1),
    Uxrom(uxrom::Uxrom),
    Cnrom(cnrom::Cnrom),
    Mmc3(mmc3::Mmc3),
    Axrom(axrom::Axrom),
    Mmc2(mmc2::Mmc2),
    ColorDreams(color_dreams::ColorDreams),
    Bnrom(bnrom::Bnrom),
    Gxrom(gxrom::Gxrom),
    Fme7(fme7::Fme7),
    Irem78(irem78::Irem78),
    Action53(action53::Action53),
    Unrom512(unrom512::Unrom512),
    Jaleco87(jaleco87::Jaleco87),
    Sunsoft1(sunsoft1::Sunsoft1),
    CnromProtect(cnrom_protect::CnromProtect),
    Jaleco140(jaleco140::Jaleco140),
    Namco108(namco108::Namco108),
    Vrc1(vrc1::Vrc1),
    IremG101(irem_g101::IremG101),
    IremH3001(irem_h3001::IremH3001),
    Sunsoft3(sunsoft3::Sunsoft3),
    Bf9093(camerica::Bf9093),
    Bf9096(camerica::Bf9096),
    Nina0306(nina0306::Nina0306),
    Ntdec2722(ntdec2722::Ntdec2722),
    Vrc2_4(vrc2_4::Vrc2_4),
    Tc0190(taito_tc0190::Tc0190),
    Tc0690(taito_tc0190::Tc0690),
    Ss88006(jaleco_ss88006::Ss88006),
    Sunsoft4(sunsoft4::Sunsoft4),
}

/// The board for `rom`'s mapper and submapper, and the name `nesmind info` shows for it.
fn board_for(rom: &Rom) -> Result<(BoardKind, &'static str), RomError> {
    let sub = rom.submapper;
    Ok(match rom.mapper {
        0 => (BoardKind::Nrom(nrom::Nrom), "NROM"),
        1 => (
            BoardKind::Mmc1(mmc1::Mmc1::new(rom)),
            "Nintendo MMC1 (SxROM)",
        ),
        2 => (
            BoardKind::Uxrom(uxrom::Uxrom::new(false, sub == 2)),
            "UxROM",
        ),
        180 => (
            BoardKind::Uxrom(uxrom::Uxrom::new(true, sub == 2)),
            "UNROM with a 74HC08 (Crazy Climber)",
        ),
        3 => (BoardKind::Cnrom(cnrom::Cnrom::new(sub == 2)), "CNROM"),
        4 => (
            BoardKind::Mmc3(mmc3::Mmc3::new(mmc3::Variant::Standard, sub)),
            "Nintendo MMC3 (TxROM)",
        ),
        118 => (
            BoardKind::Mmc3(mmc3::Mmc3::new(mmc3::Variant::TxSrom, sub)),
            "Nintendo MMC3 with CHR-wired mirroring (TxSROM)",
        ),
        7 => (BoardKind::Axrom(axrom::Axrom::new(sub == 2)), "AxROM"),
        9 => (
            BoardKind::Mmc2(mmc2::Mmc2::new(false)),
            "Nintendo MMC2 (PxROM)",
        ),
        10 => (
            BoardKind::Mmc2(mmc2::Mmc2::new(true)),
            "Nintendo MMC4 (FxROM)",
        ),
        11 => (
            BoardKind::ColorDreams(color_dreams::ColorDreams),
            "Color Dreams",
        ),
        28 => (
            BoardKind::Action53(action53::Action53::default()),
            "Action 53",
        ),
        30 => (
            BoardKind::Unrom512(unrom512::Unrom512::new(rom)),
            "UNROM 512",
        ),
        34 => (
            BoardKind::Bnrom(bnrom::Bnrom::new(rom)),
            "BNROM or NINA-001",
        ),
        66 => (BoardKind::Gxrom(gxrom::Gxrom), "GxROM"),
        69 => (BoardKind::Fme7(fme7::Fme7::default()), "Sunsoft FME-7"),
        78 => (
            BoardKind::Irem78(irem78::Irem78::new(rom)),
            "Irem Holy Diver / Jaleco JF-16",
        ),
        87 => (
            BoardKind::Jaleco87(jaleco87::Jaleco87),
            "Jaleco J87 (CHR latch at $6000)",
        ),
        184 => (BoardKind::Sunsoft1(sunsoft1::Sunsoft1), "Sunsoft-1"),
        185 => (
            BoardKind::CnromProtect(cnrom_protect::CnromProtect::new(sub)),
            "CNROM with CHR copy protection",
        ),
        140 => (
            BoardKind::Jaleco140(jaleco140::Jaleco140),
            "Jaleco JF-11/JF-14",
        ),
        206 => (
            BoardKind::Namco108(namco108::Namco108::default()),
            "Namco 108 (DxROM)",
        ),
        88 => (
            BoardKind::Namco108(namco108::Namco108::new(namco108::Wiring::ChrSplit)),
            "Namco 3433/3443 (Namco 108, CHR A16 from PPU A12)",
        ),
        154 => (
            BoardKind::Namco108(namco108::Namco108::new(namco108::Wiring::ChrSplitOneScreen)),
            "Namco 3453 (mapper 88 with one-screen mirroring)",
        ),
        76 => (
            BoardKind::Namco108(namco108::Namco108::new(namco108::Wiring::Chr2k)),
            "Namco 3446 (Namco 108, 2 KiB CHR banks)",
        ),
        75 => (BoardKind::Vrc1(vrc1::Vrc1::default()), "Konami VRC1"),
        32 => (
            BoardKind::IremG101(irem_g101::IremG101::new(sub)),
            "Irem G-101",
        ),
        65 => (
            BoardKind::IremH3001(irem_h3001::IremH3001::default()),
            "Irem H3001",
        ),
        67 => (
            BoardKind::Sunsoft3(sunsoft3::Sunsoft3::default()),
            "Sunsoft-3",
        ),
        71 => (
            BoardKind::Bf9093(camerica::Bf9093::new(sub)),
            "Camerica/Codemasters BF9093/BF9097",
        ),
        232 => (
            BoardKind::Bf9096(camerica::Bf9096::new(sub)),
            "Camerica BF9096 (Quattro multicarts)",
        ),
        79 => (
            BoardKind::Nina0306(nina0306::Nina0306::new(false)),
            "AVE NINA-03/NINA-06",
        ),
        113 => (
            BoardKind::Nina0306(nina0306::Nina0306::new(true)),
            "NINA-03/06 multicart (Sachen, HES)",
        ),
        40 if sub != 1 => (
            BoardKind::Ntdec2722(ntdec2722::Ntdec2722::default()),
            "NTDEC 2722 (Super Mario Bros. 2 FDS conversion)",
        ),
        21 | 22 | 23 | 25 => {
            let (wiring, name) = vrc2_4::wiring_for(rom.mapper, sub).expect("a VRC mapper");
            (BoardKind::Vrc2_4(vrc2_4::Vrc2_4::new(wiring)), name)
        }
        33 => (
            BoardKind::Tc0190(taito_tc0190::Tc0190::default()),
            "Taito TC0190",
        ),
        48 => (
            BoardKind::Tc0690(taito_tc0190::Tc0690::default()),
            "Taito TC0690",
        ),
        18 => (
            BoardKind::Ss88006(jaleco_ss88006::Ss88006::default()),
            "Jaleco SS88006",
        ),
        68 => (
            BoardKind::Sunsoft4(sunsoft4::Sunsoft4::default()),
            "Sunsoft-4",
        ),
        m => {
            return Err(RomError::UnsupportedMapper {
                mapper: m,
                submapper: sub,
            });
        }
    })
}

/// Rejects images whose mapper no board implements.
pub fn check_supported(rom: &Rom) -> Result<(), RomError> {
    board_for(rom).map(|_| ())
}

/// The name of the board (family) that runs `rom`, as `nesmind info` shows it.
pub fn board_name(rom: &Rom) -> Result<&'static str, RomError> {
    let (_, name) = board_for(rom)?;
    Ok(match (rom.mapper, rom.submapper) {
        (32, 1) => "Irem G-101 (Major League: one-screen, fixed PRG mode)",
        (185, 4..=7) => "CNROM with CHR copy protection (keyed by NES 2.0 submapper)",
        (71, 1) => "Camerica BF9097 (Fire Hawk: one-screen mirroring register)",
        (232, 1) => "Camerica BF9096 (Aladdin Deck Enhancer: block bits swapped)",
        _ => name,
    })
}

/// A cartridge plugged into the machine.
#[derive(Clone, Serialize, Deserialize)]
pub struct Cart {
    pub(crate) core: CartCore,
    board: BoardKind,
    // The board's facts, copied out of it for the hot paths (derived, not saved).
    /// Boards that snoop the PPU address bus (MMC2/4 latches, MMC3 A12), and how.
    #[serde(skip)]
    pub(crate) watch_ppu: bool,
    #[serde(skip, default = "no_ppu_watch")]
    pub(crate) ppu_watch: PpuWatch,
    /// Boards with a CPU-cycle counter (FME-7, Irem H3001, Sunsoft-3, NTDEC 2722 IRQs).
    #[serde(skip)]
    pub(crate) watch_cpu: bool,
    /// Boards whose A12 IRQ rises after a delay (TC0690): they see the PPU's progress.
    #[serde(skip)]
    pub(crate) watch_ppu_time: bool,
    /// The board's registers in $6000-$7FFF, if any (NINA-001).
    #[serde(skip, default = "no_low_registers")]
    low_registers: RangeInclusive<u16>,
}

fn no_ppu_watch() -> PpuWatch {
    PpuWatch::None
}

/// An empty range: writes to $6000-$7FFF reach only PRG RAM.
fn no_low_registers() -> RangeInclusive<u16> {
    #[allow(clippy::reversed_empty_ranges)]
    let empty = 1..=0;
    empty
}

impl Cart {
    pub fn new(rom: &Rom) -> Result<Cart, RomError> {
        let (board, _) = board_for(rom)?;
        let chr_is_ram = rom.chr_rom.is_empty();
        let chr_ram_size = if chr_is_ram {
            rom.chr_ram_size.max(8 * 1024)
        } else {
            0
        };
        // iNES 1 headers cannot say "no PRG RAM", and test ROMs expect RAM at $6000 even on
        // NROM/CNROM; NES 2.0 headers state the size exactly.
        let prg_ram_size = if rom.nes2 {
            rom.total_prg_ram()
        } else {
            rom.total_prg_ram().max(8 * 1024)
        };
        let four = rom.mirroring == Mirroring::FourScreen;
        let mut core = CartCore {
            prg_rom: rom.prg_rom.clone(),
            chr_rom: board_chr_rom(rom, board.board().cuts_chr()),
            chr_ram: SharedRam::zeroed(chr_ram_size),
            prg_ram: SharedRam::zeroed(prg_ram_size),
            vram: SharedRam::zeroed(
                if four { 4096 } else { 2048 }.max(board.board().nametable_ram()),
            ),
            cpu: [Window::OPEN; 5],
            rom_pages: no_rom_pages(),
            chr: [0; 8],
            chr_is_ram,
            nt: [0; 4],
            nt_read_only: 0,
            irq: false,
            header_mirroring: rom.mirroring,
            submapper: rom.submapper,
        };
        core.set_mirroring(rom.mirroring);
        core.map_prg_ram(0, true, true);
        core.map_prg32(0);
        core.map_chr8(0);
        let mut cart = Cart {
            core,
            board,
            watch_ppu: false,
            ppu_watch: PpuWatch::None,
            watch_cpu: false,
            watch_ppu_time: false,
            low_registers: no_low_registers(),
        };
        cart.copy_board_facts();
        let Cart { core, board, .. } = &mut cart;
        board.as_board().power_on(core);
        Ok(cart)
    }

    /// Re-attaches ROM data after a savestate was deserialised (ROM is not stored in
    /// states); `derive` rebuilds what follows from it once the state is checked.
    pub fn attach_rom(&mut self, rom: &Rom) {
        self.core.prg_rom = rom.prg_rom.clone();
        self.core.chr_rom = board_chr_rom(rom, self.board.board().cuts_chr());
    }

    /// What the cart derives from its state: the ROM pages of the CPU windows and the
    /// board's facts. After a savestate load only once the state has passed its checks.
    pub(crate) fn derive(&mut self) {
        self.core.rebuild_rom_pages();
        self.copy_board_facts();
    }

    fn copy_board_facts(&mut self) {
        let board = self.board.board();
        self.ppu_watch = board.ppu_watch();
        self.watch_ppu = self.ppu_watch != PpuWatch::None;
        self.watch_cpu = board.counts_cpu_cycles();
        self.watch_ppu_time = board.watches_ppu_time();
        self.low_registers = board.low_registers().unwrap_or_else(no_low_registers);
    }
    /// True when `other` has the same kind of board (savestate checks).
    pub(crate) fn same_board(&self, other: &Cart) -> bool {
        std::mem::discriminant(&self.board) == std::mem::discriminant(&other.board)
    }

    /// Savestate check of the board's own registers (see `Board::check`).
    pub(crate) fn check_board(&self) -> Result<(), crate::invalid::InvalidState> {
        self.board.board().check()
    }

    #[inline]
    pub fn cpu_write(&mut self, addr: u16, value: u8, cycle: u64) {
        if addr >= 0x6000 {
            let w = self.core.cpu[usize::from(addr >> 13) - 3];
            if w.writable && w.source == Source::Ram {
                self.core
                    .prg_ram
                    .set(w.offset + usize::from(addr & 0x1FFF), value);
            }
        }
        if addr >= 0x4020 {
            self.board
                .as_board()
                .write(&mut self.core, addr, value, cycle);
        }
    }

    /// False for writes that can only land in PRG RAM.
    #[inline]
    pub fn write_reaches_board(&self, addr: u16) -> bool {
        !(0x6000..0x8000).contains(&addr) || self.low_registers.contains(&addr)
    }

    #[inline(always)]
    pub fn ppu_bus(&mut self, addr: u16, ppu_cycle: u64) {
        if self.watch_ppu {
            self.board
                .as_board()
                .ppu_bus(&mut self.core, addr, ppu_cycle);
        }
    }

    /// The state of an IRQ counter clocked by A12 rises (see `Board::a12_irq`).
    pub(crate) fn a12_irq(&self) -> Option<A12Irq> {
        if self.ppu_watch != PpuWatch::A12 {
            return None;
        }
        self.board.board().a12_irq(&self.core)
    }

    /// The PPU has caught up to dot count `dots` (see `Board::ppu_reached`).
    #[inline(always)]
    pub(crate) fn ppu_reached(&mut self, dots: u64) {
        if self.watch_ppu_time {
            self.board.as_board().ppu_reached(&mut self.core, dots);
        }
    }

    #[inline(always)]
    pub fn cpu_cycle(&mut self) {
        if self.watch_cpu {
            self.board.as_board().cpu_cycle(&mut self.core);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapper_without_a_board_is_refused_by_name() {
        let rom = Rom::parse(&crate::rom::tests::image(1, 1, 0xF0, 0xF0), "x").unwrap();
        let err = check_supported(&rom).unwrap_err();
        assert_eq!(err.to_string(), "mapper 255 (submapper 0) is not supported");
        assert!(Cart::new(&rom).is_err());
    }
}
