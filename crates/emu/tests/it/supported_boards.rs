//! The README's list of supported boards is the emulator's: every mapper number a board
//! runs, with the name `nesmind info` shows. On a mismatch the test prints the
//! list to paste between the README's `boards:begin` and `boards:end` markers.

use nesmind_emu::Rom;

/// A minimal NES 2.0 image of `mapper` (32 KiB PRG, 32 KiB CHR).
fn image(mapper: u16) -> Vec<u8> {
    let mut data = vec![
        b'N',
        b'E',
        b'S',
        0x1A,
        2,
        4,
        ((mapper & 0x0F) << 4) as u8,
        (mapper & 0xF0) as u8 | 0x08,
        (mapper >> 8) as u8,
    ];
    data.resize(16, 0);
    data.resize(16 + 0x8000 + 0x8000, 0);
    data
}

fn generated() -> String {
    let mut out = String::from("| mapper | board |\n|---|---|\n");
    for mapper in 0..4096u16 {
        let rom = Rom::parse(&image(mapper), "probe.nes").expect("the probe image decodes");
        if let Ok(name) = nesmind_emu::cart::board_name(&rom) {
            out.push_str(&format!("| {mapper} | {name} |\n"));
        }
    }
    out
}

#[test]
fn readme_lists_the_supported_boards() {
    let readme =
        std::fs::read_to_string(nesmind_testroms::support::workspace_path("README.md")).unwrap();
    let begin = "<!-- boards:begin (checked by crates/emu/tests/it/supported_boards.rs) -->\n";
    let end = "<!-- boards:end -->";
    let want = generated();
    let got = readme
        .split_once(begin)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(list, _)| list);
    assert!(
        got == Some(want.as_str()),
        "README.md's supported boards differ from the emulator's; put this between the markers:\n{want}"
    );
}
