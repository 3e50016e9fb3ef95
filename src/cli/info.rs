//! `nesmind info ROM`: header fields, hashes, mapper, and which plug-ins know the game.

use crate::emu::Rom;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// The iNES or NES 2.0 ROM file.
    pub rom: PathBuf,
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
    // "Known game" = a plug-in's catalogue lists this exact dump. Every player attaches to
    // any cartridge (it reads an unknown one from the picture), so attaching proves nothing.
    let known: Vec<String> = crate::plugins::registry()
        .into_iter()
        .filter_map(|e| (e.knows)(i).map(|game| format!("{} (as {game})", e.name)))
        .collect();
    if let Some(warning) = rom.machine_warning() {
        out.push(format!("warning     {warning}"));
    }
    out.push(format!(
        "known game  {}",
        if known.is_empty() {
            "no in-tree plug-in's catalogue lists this dump".to_string()
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
