//! ROM matching on made-up files: an integration folder naming a synthetic ROM by the
//! SHA-1 of its PRG+CHR is matched through any file name, copied into the library, and
//! listed as usable; a ROM for a mapper nesmind lacks is matched but reported unusable.

use nesmind_retro::Integration;
use nesmind_retro::library::{self, Usability};
use std::path::Path;

fn rom(mapper: u8, fill: u8) -> Vec<u8> {
    let mut r = vec![b'N', b'E', b'S', 0x1A, 1, 1, mapper << 4, mapper & 0xF0];
    r.resize(16, 0);
    r.extend((0..0x4000 + 0x2000).map(|i| (i as u8) ^ fill));
    r
}

fn integration(root: &Path, name: &str, rom: &[u8]) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let sha = library::rom_hashes(rom).pop().unwrap();
    std::fs::write(dir.join("rom.sha"), format!("{sha}\n")).unwrap();
    std::fs::write(
        dir.join("data.json"),
        r#"{"info": {"score": {"address": 16, "type": ">d2"}}}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("scenario.json"),
        r#"{"reward": {"variables": {"score": {"reward": 1}}}, "done": {}}"#,
    )
    .unwrap();
}

#[test]
fn import_matches_by_sha_and_list_checks_the_mapper() {
    let tmp = std::env::temp_dir().join(format!("nesmind-retro-lib-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let (data, user, lib) = (tmp.join("data"), tmp.join("user"), tmp.join("lib"));
    let nrom = rom(0, 0x11);
    let odd = rom(250, 0x22);
    integration(&data, "Made-Nes-v0", &nrom);
    integration(&data, "Odd-Nes-v0", &odd);
    integration(&data, "Absent-Nes-v0", &rom(0, 0x33));
    std::fs::create_dir_all(user.join("deep")).unwrap();
    std::fs::write(user.join("deep/whatever.bin"), &nrom).unwrap();
    std::fs::write(user.join("odd.nes"), &odd).unwrap();
    std::fs::write(user.join("notes.txt"), b"not a rom").unwrap();

    let games: Vec<Integration> = nesmind_retro::nes_integrations(&data, &["stable"])
        .unwrap()
        .iter()
        .map(|d| Integration::load(d).unwrap())
        .collect();
    assert_eq!(games.len(), 3);
    let report = library::import(&user, &games, &lib).unwrap();
    let mut got: Vec<&str> = report.imported.iter().map(|(g, _)| g.as_str()).collect();
    got.sort();
    assert_eq!(got, ["Made-Nes-v0", "Odd-Nes-v0"]);
    assert_eq!(report.unmatched, 1);
    let status = |name: &str| {
        let g = games.iter().find(|g| g.name == name).unwrap();
        library::usability(&lib, g)
    };
    assert_eq!(status("Made-Nes-v0"), Usability::Usable);
    assert_eq!(status("Absent-Nes-v0"), Usability::NoRom);
    match status("Odd-Nes-v0") {
        Usability::RomUnusable(why) => assert!(why.contains("250"), "{why}"),
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}
