//! Every NES integration and savestate that stable-retro 1.0.1 ships: all `data.json` and
//! scenario files parse, every scenario without Lua evaluates over a synthetic RAM
//! trajectory, all 438 FCEUmm states parse with a named board, and those on the boards
//! nesmind loads decode into machine parts and build a machine (on a made-up ROM of the
//! board's mapper: the wheel ships no ROMs). `common` finds the data.

mod common;

use common::data_root;
use nesmind_retro::integration::{self, Integration};
use nesmind_retro::parts::MachineParts;
use nesmind_retro::{FceuState, GameData, Scenario, layout};

const STABLE_INTEGRATIONS: usize = 298;
const ALL_STATES: usize = 438;
/// Mappers whose states `parts` decodes: NROM, MMC1, the discrete latches, MMC3, VRC2/VRC4,
/// the Taito TC0190/TC0690, the Jaleco SS88006, and the boards set through their registers.
const LOADED: [u16; 24] = [
    0, 1, 2, 3, 4, 7, 66, 118, 21, 22, 23, 25, 33, 48, 18, 185, 32, 65, 75, 9, 10, 69, 67, 40,
];
/// How many of the 438 states are on those boards.
const DECODED: usize = 436;

/// A RAM trajectory that moves every byte in ways scores and counters move: small steps,
/// wraps, jumps and resets, from a fixed seed.
fn trajectory(steps: usize) -> Vec<Vec<u8>> {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut ram = vec![0u8; nesmind_retro::RAM_SIZE];
    let mut out = Vec::new();
    for _ in 0..steps {
        for b in ram.iter_mut() {
            let r = next();
            *b = match r % 8 {
                0 => b.wrapping_add(1),
                1 => b.wrapping_sub(1),
                2 => (r >> 8) as u8,
                3 => 0,
                _ => *b,
            };
        }
        out.push(ram.clone());
    }
    out
}

#[test]
fn every_integration_parses_and_evaluates() {
    let Some(root) = data_root() else { return };
    let dirs = integration::nes_integrations(&root, &["stable"]).unwrap();
    let ram = trajectory(300);
    let (mut parsed, mut evaluated, mut lua, mut failures) = (0, 0, Vec::new(), Vec::new());
    for dir in &dirs {
        let game = match Integration::load(dir) {
            Ok(g) => g,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        // Other scenario files beside scenario.json must parse too.
        for file in std::fs::read_dir(dir).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            if name.ends_with(".json") && !["data.json", "metadata.json"].contains(&name.as_str()) {
                let text = std::fs::read_to_string(file.path()).unwrap();
                if let Err(e) = Scenario::parse(&text) {
                    failures.push(format!("{}: {name}: {e}", game.name));
                }
            }
        }
        parsed += 1;
        if !game.scenario.needs_lua().is_empty() {
            lua.push(game.name.clone());
        }
        let result: Result<(), String> = game.evaluator().and_then(|mut eval| {
            ram.iter().try_for_each(|r| eval.update(r).map(|_| ()))?;
            // A new episode runs the scripts afresh and evaluates again.
            eval.restart()?;
            ram.iter().try_for_each(|r| eval.update(r).map(|_| ()))
        });
        match result {
            Ok(()) => evaluated += 1,
            Err(e) => failures.push(format!("{}: {e}", game.name)),
        }
    }
    println!("{parsed} of {STABLE_INTEGRATIONS} integrations parsed");
    println!(
        "{evaluated} of {STABLE_INTEGRATIONS} integrations parsed and evaluated, {} of them \
         through their script.lua",
        lua.len()
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert_eq!(dirs.len(), STABLE_INTEGRATIONS);
    assert_eq!(evaluated, STABLE_INTEGRATIONS);
    // The wheel's 22 scripted integrations (6 distinct scripts) are all among them.
    assert_eq!(lua.len(), 22, "{lua:?}");
}

/// An iNES image of `mapper` with 128 KiB of PRG ROM (all BRK) and 128 KiB of CHR ROM, or
/// CHR RAM.
fn synthetic_rom(mapper: u16, chr_ram: bool) -> nesmind_emu::Rom {
    let m = mapper as u8;
    let chr_banks = if chr_ram { 0 } else { 16 };
    let mut img = vec![
        b'N',
        b'E',
        b'S',
        0x1A,
        8,
        chr_banks,
        (m & 0x0F) << 4,
        m & 0xF0,
    ];
    img.resize(16 + 8 * 0x4000 + usize::from(chr_banks) * 0x2000, 0);
    nesmind_emu::Rom::parse(&img, "synthetic.nes").unwrap()
}

#[test]
fn every_state_parses_and_names_its_board() {
    let Some(root) = data_root() else { return };
    let dirs = integration::nes_integrations(&root, &integration::SETS).unwrap();
    let (mut total, mut parsed, mut failures) = (0, 0, Vec::new());
    let mut boards = std::collections::BTreeMap::<String, usize>::new();
    let (mut decoded, mut decoded_boards) = (0, std::collections::BTreeMap::<String, usize>::new());
    for dir in &dirs {
        for file in std::fs::read_dir(dir).unwrap().flatten() {
            let path = file.path();
            if path.extension().is_none_or(|e| e != "state") {
                continue;
            }
            total += 1;
            let bytes = std::fs::read(&path).unwrap();
            let checked = FceuState::parse(&bytes)
                .map_err(|e| e.to_string())
                .and_then(|s| {
                    s.cpu().map_err(|e| e.to_string())?;
                    s.ram().map_err(|e| e.to_string())?;
                    layout::identify(&s.board_entries())
                        .ok_or_else(|| layout::describe(&s.board_entries()))
                });
            if let Ok(l) = &checked
                && l.mappers.iter().any(|m| LOADED.contains(m))
            {
                // A board nesmind loads: every piece a machine needs decodes, and goes
                // through the import's own checks (on the same kind of cart, built here).
                let s = FceuState::parse(&bytes).unwrap();
                match MachineParts::from_state(&s) {
                    Ok(p) => {
                        // A machine builds from it, on a made-up ROM of its mapper.
                        let rom = synthetic_rom(l.mappers[0], p.chr_ram.is_some());
                        match p.to_machine(&rom) {
                            Ok(_) => {
                                decoded += 1;
                                *decoded_boards.entry(l.board.to_string()).or_default() += 1;
                            }
                            Err(e) => failures.push(format!("{}: machine {e}", path.display())),
                        }
                    }
                    Err(e) => failures.push(format!("{}: parts {e}", path.display())),
                }
            }
            match checked {
                Ok(l) => {
                    parsed += 1;
                    *boards.entry(l.board.to_string()).or_default() += 1;
                }
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
    }
    println!("{parsed} of {total} states parsed, each with a named board");
    for (b, n) in &boards {
        println!("  {n:4} {b}");
    }
    println!("{decoded} of {total} states decode into machine parts and build a machine:");
    for (b, n) in &decoded_boards {
        println!("  {n:4} {b}");
    }
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert_eq!(total, ALL_STATES);
    assert_eq!(decoded, DECODED, "states decoded into machine parts");
}

#[test]
fn every_variable_lies_in_ram() {
    let Some(root) = data_root() else { return };
    let mut count = 0;
    for dir in integration::nes_integrations(&root, &["stable"]).unwrap() {
        let text = std::fs::read_to_string(dir.join("data.json")).unwrap();
        count += GameData::parse(&text).unwrap().vars.len();
    }
    println!("{count} data.json variables, all within the 2 KiB of RAM");
    assert!(count > 0);
}
