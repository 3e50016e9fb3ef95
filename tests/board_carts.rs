//! The board test carts (`tests/carts/boards`, ca65): each checks from the 6502 side what
//! its board does (PRG and CHR bank switching, mirroring, register decoding, bus conflicts,
//! CHR disabling, the cycle an IRQ counter's IRQ arrives) and reports in CPU RAM at $0300 (see `harness.inc`). Each runs lazily and
//! in lockstep with identical frames, RAM and cycles, round-trips through a savestate, and
//! is named by `nesmind info`.

mod common;

use nesmind::emu::{Machine, Rom, Speedups};
use nesmind::host::savestate;
use std::path::PathBuf;
use std::process::Command;

/// (cart source, submapper, mapper). The status is 0 only once the whole script ran.
const CARTS: &[(&str, u8, u16)] = &[
    ("m087", 0, 87),
    ("m184", 0, 184),
    ("m185", 0, 185),
    ("m185", 4, 185),
    ("m185", 5, 185),
    ("m185", 6, 185),
    ("m185", 7, 185),
    ("m140", 0, 140),
    ("m206", 0, 206),
    ("m075", 0, 75),
    ("m032", 0, 32),
    ("m032", 1, 32),
    ("m065", 0, 65),
    ("m067", 0, 67),
    ("m071", 0, 71),
    ("m071", 1, 71),
    ("m232", 0, 232),
    ("m232", 1, 232),
    ("m079", 0, 79),
    ("m113", 0, 113),
    ("m088", 0, 88),
    ("m154", 0, 154),
    ("m076", 0, 76),
    ("m040", 0, 40),
    ("m021", 0, 21),
    ("m021", 1, 21),
    ("m021", 2, 21),
    ("m022", 0, 22),
    ("m023", 0, 23),
    ("m023", 1, 23),
    ("m023", 2, 23),
    ("m023", 3, 23),
    ("m025", 0, 25),
    ("m025", 1, 25),
    ("m025", 2, 25),
    ("m025", 3, 25),
    ("m033", 0, 33),
    ("m048", 0, 48),
    ("m018", 0, 18),
    ("m068", 0, 68),
];

/// Boards whose registers reach no PPU window (PRG banks only): their picture stands.
const PRG_ONLY: &[u16] = &[232, 40];

const FRAMES: usize = 30;

fn build(cart: &str, submapper: u8) -> (Rom, PathBuf) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/carts/boards");
    let out = std::env::temp_dir().join(format!(
        "nesmind-board-{cart}-{submapper}-{}.nes",
        std::process::id()
    ));
    let o = Command::new("sh")
        .arg(dir.join("build.sh"))
        .arg(cart)
        .arg(&out)
        .arg("-D")
        .arg(format!("SUBMAPPER={submapper}"))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{cart}: build.sh failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let image = std::fs::read(&out).unwrap();
    let rom = Rom::parse(&image, &format!("{cart}.nes")).unwrap_or_else(|e| panic!("{cart}: {e}"));
    (rom, out)
}

type Frame = (Vec<u16>, Vec<u8>, u64);

fn run(m: &mut Machine, frames: usize) -> Vec<Frame> {
    (0..frames)
        .map(|_| {
            m.run_frame().expect("the cart runs");
            (m.picture().to_vec(), m.ram().to_vec(), m.cpu_cycles())
        })
        .collect()
}

fn machine(rom: &Rom, speedups: Speedups) -> Machine {
    let mut m = Machine::new(rom).unwrap();
    m.set_audio_enabled(false);
    m.set_speedups(speedups);
    m
}

fn assert_same(name: &str, what: &str, a: &[Frame], b: &[Frame]) {
    assert_eq!(a.len(), b.len());
    for (f, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(x.0 == y.0, "{name}: frame {f}: picture differs ({what})");
        assert_eq!(x.1, y.1, "{name}: frame {f}: RAM differs ({what})");
        assert_eq!(x.2, y.2, "{name}: frame {f}: cycles differ ({what})");
    }
}

/// The cart's verdict from its RAM.
fn verdict(name: &str, ram: &[u8]) {
    let (status, at, got, want, passed) =
        (ram[0x300], ram[0x301], ram[0x302], ram[0x303], ram[0x304]);
    assert!(
        status == 0,
        "{name}: status {status:#04X}: the step at script offset {at} read {got:#04X}, expected {want:#04X} ({passed} checks passed before)"
    );
    assert!(passed > 0, "{name}: no check ran");
}

#[test]
fn board_carts_pass_in_both_modes() {
    if !common::cc65_installed() {
        return;
    }
    for &(cart, sub, mapper) in CARTS {
        let name = format!("{cart} (submapper {sub})");
        let (rom, path) = build(cart, sub);
        assert_eq!((rom.mapper, rom.submapper), (mapper, sub), "{name}: header");
        let lazy = run(&mut machine(&rom, Speedups::ALL), FRAMES);
        let lockstep = run(&mut machine(&rom, Speedups::NONE), FRAMES);
        verdict(&name, &lockstep[FRAMES - 1].1);
        assert_same(&name, "lazy against lockstep", &lazy, &lockstep);
        // The writes keep switching banks under the picture: frames move.
        assert!(
            PRG_ONLY.contains(&mapper)
                || lazy[FRAMES - 1].0 != lazy[FRAMES - 2].0
                || lazy[FRAMES - 1].0 != lazy[FRAMES - 3].0,
            "{name}: the picture stands still"
        );

        // A savestate taken mid-run resumes exactly.
        let mut m = machine(&rom, Speedups::ALL);
        run(&mut m, 7);
        for _ in 0..1234 {
            m.step().unwrap();
        }
        let text = savestate::encode(&m, &rom).unwrap();
        let mut back = savestate::decode(&text, &rom).unwrap_or_else(|e| panic!("{name}: {e}"));
        back.set_audio_enabled(false);
        // (A state holds no picture: the first frame's lines before it are drawn afresh.)
        let (resumed, went_on) = (run(&mut back, 5), run(&mut m, 5));
        assert_eq!(resumed[0].1, went_on[0].1, "{name}: RAM after a savestate");
        assert_same(&name, "after a savestate", &resumed[1..], &went_on[1..]);

        // `nesmind info` names the board.
        let o = common::nesmind(&["info", path.to_str().unwrap()]);
        let (out, err) = common::text(&o);
        assert!(o.status.success(), "{name}: info failed: {err}");
        let board = out
            .lines()
            .find(|l| l.starts_with("board "))
            .unwrap_or_default();
        assert!(
            !board.is_empty() && !board.contains("not supported"),
            "{name}: info names no board:\n{out}"
        );
        let _ = std::fs::remove_file(&path);
    }
}

/// A state file whose value after `prefix` (up to `,` or `)`) is `value`, with its checksum
/// made right again (a forgery, not a damaged file).
fn forged(text: &str, rom: &Rom, prefix: &str, value: &str) -> String {
    let body = text.splitn(4, '\n').nth(3).unwrap();
    let start = body.find(prefix).expect("the field is in the state") + prefix.len();
    let len = body[start..].find([',', ')']).unwrap();
    let body = format!("{}{value}{}", &body[..start], &body[start + len..]);
    format!(
        "{} {}\nrom-crc32 {:08X}\nbody-crc32 {:08X} len {}\n{body}",
        savestate::MAGIC,
        savestate::VERSION,
        rom.info.crc32,
        crc32fast::hash(body.as_bytes()),
        body.len()
    )
}

/// Board registers forged out of range in a savestate are refused by name, not run.
#[test]
fn forged_board_registers_are_refused() {
    if !common::cc65_installed() {
        return;
    }
    for (cart, sub, prefix, value, field) in [
        ("m206", 0, "Namco108((select:", "9", "bus.cart.board.select"),
        ("m185", 5, "key:Some(", "9", "bus.cart.board.key"),
        ("m032", 1, "swap:", "true", "bus.cart.board.swap"),
        ("m075", 0, "Vrc1((chr:(", "99", "bus.cart.board.chr"),
        ("m021", 1, "prescaler:", "0", "bus.cart.board.irq.prescaler"),
        (
            "m022",
            0,
            "source:Latch,offset:",
            "5",
            "bus.cart.core.cpu[0]",
        ),
    ] {
        let (rom, path) = build(cart, sub);
        let _ = std::fs::remove_file(&path);
        let mut m = machine(&rom, Speedups::ALL);
        run(&mut m, 3);
        let text = savestate::encode(&m, &rom).unwrap();
        let err = match savestate::decode(&forged(&text, &rom, prefix, value), &rom) {
            Ok(_) => panic!("{cart}: a state with {prefix}{value} was accepted"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(field), "{cart}: {err}");
    }
}
