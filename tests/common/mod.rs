//! Helpers shared by the top crate's integration tests (those that run the `nesmind` binary,
//! the window, or several players): running the binary, rebuilding carts, battery carts.
//! The corpus and the rule for checks that cannot run come from `nesmind-testroms`.
#![allow(dead_code)]

// The Hatris tests' spy, for hatris_calibration (which spans both players): one copy.
#[path = "../../plugins/hatris/tests/it/spy.rs"]
pub mod spy;
pub mod xvfb;

// Each test file uses some of them.
#[allow(unused_imports)]
pub use nesmind::conformance::support::{cannot_run, cc65_installed, python3};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The test-ROM corpus, found where every test and `nesmind test-roms` look
/// (`$NES_TEST_ROMS`, `test-roms/`, `../shared/test-roms`).
pub fn rom_dir() -> std::path::PathBuf {
    nesmind::conformance::support::corpus()
}

/// Runs the nesmind binary with `args` and waits for it.
pub fn nesmind(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(args)
        .output()
        .unwrap()
}

/// Sends `sig` to a child process.
#[cfg(unix)]
pub fn signal(child: &std::process::Child, sig: i32) {
    // SAFETY: kill(2) with a child's pid, which nothing has waited for yet.
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
}

/// Waits at most `limit` for the child, then kills it and fails; its output.
pub fn finish(mut child: std::process::Child, limit: Duration) -> std::process::Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            let (out, err) = text(&o);
            panic!("nesmind did not stop within {limit:?}:\n{out}{err}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// A finished command's stdout and stderr, as text.
pub fn text(o: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// Builds the cart in `dir` (relative to the project) with its `build.sh` into a temporary
/// file and returns the image; panics with the script's errors if it fails.
pub fn rebuild_cart(dir: &str) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let out = std::env::temp_dir().join(format!("nesmind-{name}-cart-{}.nes", std::process::id()));
    let o = Command::new("sh")
        .arg(dir.join("build.sh"))
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}/build.sh failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let image = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    image
}

/// An NROM image (16 KiB PRG, 8 KiB CHR) whose program `code` starts at $C000, where
/// every vector points; `flags6` is header byte 6 (0x02: battery).
pub fn nrom_image(code: &[u8], flags6: u8) -> Vec<u8> {
    let mut prg = vec![0xEAu8; 0x4000];
    prg[..code.len()].copy_from_slice(code);
    for v in [0x3FFA, 0x3FFC, 0x3FFE] {
        prg[v..v + 2].copy_from_slice(&[0x00, 0xC0]);
    }
    let mut image = vec![b'N', b'E', b'S', 0x1A, 1, 1, flags6, 0];
    image.resize(16, 0);
    image.extend_from_slice(&prg);
    image.extend_from_slice(&[0u8; 0x2000]);
    image
}

/// A battery-backed NROM cart that writes `x ^ $A5` to $6000+x and `x ^ $5A` to $7F00+x
/// (x = 0-255) in its first frame, then waits.
pub fn battery_writer() -> Vec<u8> {
    #[rustfmt::skip]
    let code = [
        0x78, 0xD8, 0xA2, 0x00, // SEI; CLD; LDX #0
        0x8A,                   // loop: TXA
        0x49, 0xA5,             // EOR #$A5
        0x9D, 0x00, 0x60,       // STA $6000,X
        0x49, 0xFF,             // EOR #$FF
        0x9D, 0x00, 0x7F,       // STA $7F00,X
        0xE8, 0xD0, 0xF2,       // INX; BNE loop
        0x4C, 0x12, 0xC0,       // JMP * (waits)
    ];
    nrom_image(&code, 0x02)
}

/// The battery RAM `battery_writer` leaves when it started from `before`.
pub fn battery_written(before: &[u8]) -> Vec<u8> {
    let mut after = before.to_vec();
    for x in 0..256 {
        after[x] = x as u8 ^ 0xA5;
        after[0x1F00 + x] = x as u8 ^ 0x5A;
    }
    after
}

/// Fails at the first byte that differs, naming it (not thousands of bytes).
pub fn assert_same_bytes(got: &[u8], want: &[u8]) {
    if let Some(i) = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)) {
        panic!(
            "byte {i} of {} is {:?}, expected {:?} (of {})",
            got.len(),
            got.get(i),
            want.get(i),
            want.len()
        );
    }
}
