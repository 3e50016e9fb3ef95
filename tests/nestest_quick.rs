use nesmind::conformance::nestest;
use nesmind::emu::Rom;
#[test]
fn nestest() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/test-roms/nestest");
    let rom = Rom::load(&dir.join("nestest.nes")).unwrap();
    let log = std::fs::read_to_string(dir.join("nestest.log")).unwrap();
    match nestest::run(&rom, &log) {
        Ok(n) => println!("{n} lines"),
        Err(e) => panic!("{e}"),
    }
}
