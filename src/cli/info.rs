//! `nesmind info ROM`: header fields, hashes, mapper, and which plug-ins know the game.

use crate::emu::Rom;
use crate::host::{AccessKind, Setup};
use std::ops::RangeInclusive;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// The iNES or NES 2.0 ROM file.
    pub rom: PathBuf,
}

/// A setup that accepts every request: `info` only asks whether a plug-in would attach.
struct Probe;
impl Setup for Probe {
    fn watch(&mut self, _kind: AccessKind, _range: RangeInclusive<u16>) -> usize {
        0
    }
    fn use_pads(&mut self, _count: usize) {}
}

fn size(bytes: usize) -> String {
    if bytes == 0 {
        "none".into()
    } else if bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

/// The report lines for one ROM.
pub fn describe(rom: &Rom) -> Vec<String> {
    let i = &rom.info;
    let mut out = vec![
        format!("file        {}", i.file_name),
        format!("format      {}", if rom.nes2 { "NES 2.0" } else { "iNES" }),
        format!("mapper      {} (submapper {})", rom.mapper, rom.submapper),
        format!(
            "board       {}",
            crate::emu::cart::board_name(rom).unwrap_or("not supported")
        ),
        format!("PRG ROM     {}", size(rom.prg_rom.len())),
        if rom.chr_rom.is_empty() {
            format!("CHR RAM     {}", size(rom.chr_ram_size))
        } else {
            format!("CHR ROM     {}", size(rom.chr_rom.len()))
        },
        format!(
            "PRG RAM     {}{}",
            size(rom.total_prg_ram()),
            if rom.battery { " (battery-backed)" } else { "" }
        ),
        format!("mirroring   {:?}", rom.mirroring),
        format!("timing      {}", rom.timing.name()),
        format!("console     {}", rom.console.name()),
        format!(
            "trainer     {}",
            if rom.trainer.is_some() { "yes" } else { "no" }
        ),
        format!("CRC32       {:08X} (PRG+CHR)", i.crc32),
        format!("PRG CRC32   {:08X}", i.prg_crc32),
        format!("SHA-1       {}", i.sha1_hex()),
    ];
    // "Known game" = an in-tree plug-in accepts this exact cartridge.
    let mut known = Vec::new();
    for entry in crate::plugins::registry() {
        if let Ok(mut p) = (entry.create)(&Default::default())
            && p.on_attach(i, &mut Probe).is_ok()
        {
            p.on_detach();
            known.push(format!("{} ({})", entry.name, entry.description));
        }
    }
    if let Some(warning) = rom.machine_warning() {
        out.push(format!("warning     {warning}"));
    }
    out.push(format!(
        "known game  {}",
        if known.is_empty() {
            "no in-tree plug-in knows this ROM".to_string()
        } else {
            format!("played by {}", known.join(", "))
        }
    ));
    out
}

pub fn info(args: InfoArgs) -> Result<(), String> {
    let rom = Rom::load(&args.rom)?;
    for line in describe(&rom) {
        println!("{line}");
    }
    Ok(())
}
