//! Names the board of an FCEUmm state from its board section. FCEUmm writes no mapper
//! number; each board file registers its own entry names, so the names and sizes, in
//! order, identify the family (the mapper numbers given are those that board file serves).
//! The table covers the layouts of stable-retro 1.0.1's 438 NES states, learnt from
//! FCEUmm's board sources and the games that use each layout. `WRAM` (work RAM) and `CHRR`
//! (CHR RAM) belong to the cartridge, not the board logic, so they are left out first.

/// A board family recognised from its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// A short name, e.g. "MMC1".
    pub board: &'static str,
    /// iNES mapper numbers that use this layout.
    pub mappers: &'static [u16],
}

/// (entries as `NAME:bytes` after WRAM/CHRR are removed, board, mappers)
const LAYOUTS: &[(&str, &str, &[u16])] = &[
    ("", "NROM (no board registers)", &[0]),
    ("DREG:4 LRST:8 BFFR:1 BFRS:1", "MMC1", &[1]),
    (
        "KTEX:1 REGS:8 CMD:1 A000:1 A001:1 IRQR:1 IRQC:1 IRQL:1 IRQA:1",
        "MMC3",
        &[4],
    ),
    (
        "KTEX:1 REGS:8 CMD:1 A000:1 A001:1 IRQR:1 IRQC:1 IRQL:1 IRQA:1 PPUC:1",
        "MMC3 TxSROM (CHR banks pick the nametables; PPUC: the CHR slot last fetched)",
        &[118],
    ),
    (
        "LATC:1 BUSC:1",
        "discrete latch (UxROM, CNROM, AxROM, GxROM, ...)",
        &[2, 3, 7, 66],
    ),
    (
        "IRQC:4 IRQA:4 REG:1",
        "NTDEC 2722 (SMB2J conversion)",
        &[40],
    ),
    ("DREG:1", "CNROM with copy protection", &[185]),
    (
        "PREG:2 CREG:8 CRGH:16 CMDR:1 CMDI:1 MIRR:1 BIGB:1 IRQC:2 IRQL:1 IRQA:1",
        "Konami VRC2/VRC4",
        &[21, 22, 23, 25],
    ),
    (
        "PREG:8 MIRR:1 IRQA:1 IRQC:2 IRQL:2",
        "Taito TC0190/TC0690",
        &[33, 48],
    ),
    (
        "PREG:3 CREG:8 MIRR:1 IRQA:1 IRQC:2 IRQL:2",
        "Irem H3001",
        &[65],
    ),
    (
        "PREG:4 CREG:8 MIRR:1 IRQA:1 IRQC:4 IRQL:4",
        "Jaleco SS88006",
        &[18],
    ),
    ("PREG:4 CREG:8 MIRR:1", "Irem G-101", &[32]),
    (
        "PREG:1 STOG:1 CREG:4 MIRR:1 IRQA:1 IRQC:2 IRQL:2",
        "Sunsoft-3",
        &[67],
    ),
    ("CREG:4 PREG:1 MIRR:1 LAT0:1 LAT1:1", "MMC2/MMC4", &[9, 10]),
    ("MODE:1 CREG:2 PREG:3", "Konami VRC1", &[75]),
    (
        "SCMD:1 SREG:14 CMDR:1 PREG:4 CREG:8 MIRR:1 IRQA:1 IRQC:4 SCMD:1 SREG:14",
        "Sunsoft FME-7/5B",
        &[69],
    ),
    ("IRAM:128 PRG:3 CHR:8 NTA:4", "Namco 163", &[19]),
];

/// The board family of a state's board entries, or `None` for a layout not in the table.
pub fn identify(entries: &[(String, usize)]) -> Option<Layout> {
    let key: Vec<String> = entries
        .iter()
        .filter(|(n, _)| n != "WRAM" && n != "CHRR")
        .map(|(n, len)| format!("{n}:{len}"))
        .collect();
    let key = key.join(" ");
    // MMC5 registers dozens of entries; its 1 KiB of expansion RAM is unique to it.
    if entries.iter().any(|(n, len)| n == "ERAM" && *len == 1024) {
        return Some(Layout {
            board: "MMC5",
            mappers: &[5],
        });
    }
    LAYOUTS
        .iter()
        .find(|(want, _, _)| *want == key)
        .map(|&(_, board, mappers)| Layout { board, mappers })
}

/// A readable name for any layout: the family, or the entry names when unknown.
pub fn describe(entries: &[(String, usize)]) -> String {
    match identify(entries) {
        Some(l) => l.board.to_string(),
        None => {
            let names: Vec<String> = entries.iter().map(|(n, l)| format!("{n}:{l}")).collect();
            format!("unrecognised board layout [{}]", names.join(" "))
        }
    }
}
