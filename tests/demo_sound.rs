//! The demo carts make sound (a newcomer without ROMs hears it with `nesmind demo spot` or
//! `nesmind demo hatris`): each committed cart plays its tune from the first seconds, and a
//! press in play is answered by a sound effect. The effect is told from the tune by running
//! one machine twice from the same moment, once with the press and once without: the tune
//! plays the same in both, so what differs is the effect, and only for a moment.

use nesmind::emu::{Buttons, Machine, Rom};
use std::path::Path;
use std::process::Command;

const DOTS: &str = "plugins/spot/cart/dots.nes";
const HATRIS: &str = "plugins/hatris/cart/hatris-like.nes";
/// Frames of tune checked from power-on (3 seconds), in half-second windows.
const TUNE_FRAMES: u32 = 180;
const WINDOW_FRAMES: u32 = 30;
/// Frames compared after a press: the effect's, then the tune's alone.
const EFFECT_FRAMES: u32 = 10;
const AFTER_FRAMES: u32 = 20;

fn machine(path: &str) -> Machine {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let image = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut m = Machine::new(&Rom::parse(&image, path).unwrap()).unwrap();
    m.set_four_score(true);
    m
}

/// Runs `frames` frames with pad 1 holding `pad(frame)`; the sound they made.
fn run(m: &mut Machine, frames: u32, pad: impl Fn(u32) -> Buttons) -> Vec<i16> {
    let mut out = Vec::new();
    for f in 0..frames {
        m.set_buttons(0, pad(f));
        m.run_frame().unwrap();
        m.take_audio(&mut out);
    }
    out
}

/// Root mean square about the mean: how loud a stretch is, a constant level counting as
/// silence.
fn loudness(samples: &[i16]) -> f64 {
    let n = samples.len().max(1) as f64;
    let mean = samples.iter().map(|&s| f64::from(s)).sum::<f64>() / n;
    (samples
        .iter()
        .map(|&s| (f64::from(s) - mean).powi(2))
        .sum::<f64>()
        / n)
        .sqrt()
}

/// A tune plays from power-on: every half second of the first three is loud enough to
/// hear and takes many levels (notes, not a click or a constant).
fn assert_tune(cart: &str, m: &mut Machine) {
    let rate = m.sample_rate() as usize;
    let samples = run(m, TUNE_FRAMES, |_| Buttons::NONE);
    let window = rate * WINDOW_FRAMES as usize / 60;
    for (k, w) in samples.chunks(window).enumerate() {
        if w.len() < window / 2 {
            continue;
        }
        let mut levels: Vec<i16> = w.to_vec();
        levels.sort_unstable();
        levels.dedup();
        let loud = loudness(w);
        assert!(
            loud > 100.0 && levels.len() > 50,
            "{cart}: no tune {:.1}-{:.1} s after power-on (loudness {loud:.0}, {} levels)",
            k as f64 * 0.5,
            (k + 1) as f64 * 0.5,
            levels.len()
        );
    }
}

/// From `m`, a press of `press` on pad 1 for two frames against no press: returns the
/// loudness of the difference while the effect plays and afterwards, and the two runs'
/// machines.
fn effect_of(m: &Machine, press: Buttons) -> (f64, f64, Machine, Machine) {
    let (mut pressed, mut still) = (m.clone(), m.clone());
    let frames = EFFECT_FRAMES + AFTER_FRAMES;
    let a = run(&mut pressed, frames, |f| {
        if f < 2 { press } else { Buttons::NONE }
    });
    let b = run(&mut still, frames, |_| Buttons::NONE);
    assert_eq!(a.len(), b.len());
    let diff: Vec<i16> = a.iter().zip(&b).map(|(x, y)| x.wrapping_sub(*y)).collect();
    let split = diff.len() * EFFECT_FRAMES as usize / frames as usize;
    assert!(loudness(&b) > 100.0, "the tune goes on in play");
    (
        loudness(&diff[..split]),
        loudness(&diff[split + diff.len() / 10..]),
        pressed,
        still,
    )
}

#[test]
fn dots_plays_a_tune_and_the_hand_blips() {
    let mut m = machine(DOTS);
    assert_tune(DOTS, &mut m);
    // The title starts a game by itself (slot 1 human on pad 1, slot 2 the cart's computer);
    // wait until slot 1 is to move and the game takes input (RAM map: cart/README.md).
    let (phase, current, animation, cursor) = (0x0700, 0x0042, 0x037F, 0x0029);
    let mut waited = 0;
    while !(m.peek(phase) == 1 && m.peek(current) == 0 && m.peek(animation) == 2) {
        run(&mut m, 1, |_| Buttons::NONE);
        waited += 1;
        assert!(waited < 3600, "slot 1 never got a turn");
    }
    m.take_audio(&mut Vec::new());
    let (during, after, pressed, still) = effect_of(&m, Buttons::RIGHT);
    assert_eq!(
        pressed.peek(cursor),
        still.peek(cursor).wrapping_add(1),
        "Right moves the hand a cell"
    );
    assert!(
        during > 20.0,
        "the hand moved without a sound (difference {during:.1})"
    );
    assert!(
        after < 1.0,
        "the blip is short and the tune is untouched by it (difference afterwards {after:.1})"
    );
}

#[test]
fn hatris_plays_a_tune_and_the_pair_ticks() {
    let mut m = machine(HATRIS);
    assert_tune(HATRIS, &mut m);
    // The title starts a game by itself; wait for the first pair to fall (cart/README.md).
    let (state, hat1_col) = (0x0313, 0x03D2);
    let mut waited = 0;
    while m.peek(state) != 1 {
        run(&mut m, 1, |_| Buttons::NONE);
        waited += 1;
        assert!(waited < 1200, "no pair ever fell");
    }
    run(&mut m, 10, |_| Buttons::NONE);
    m.take_audio(&mut Vec::new());
    let (during, after, pressed, still) = effect_of(&m, Buttons::RIGHT);
    assert_eq!(
        pressed.peek(hat1_col),
        still.peek(hat1_col) + 1,
        "Right moves the pair a column"
    );
    assert!(
        during > 20.0,
        "the pair moved without a sound (difference {during:.1})"
    );
    assert!(
        after < 1.0,
        "the tick is short and the tune is untouched by it (difference afterwards {after:.1})"
    );
}

/// What the issue saw: `nesmind run CART --headless --wav` wrote nothing but zeros. Now it
/// writes the tune, the same in every run.
#[test]
fn headless_runs_write_the_tunes_to_wav() {
    let dir = std::env::temp_dir().join(format!("nesmind-demo-sound-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let capture = |cart: &str, name: &str| {
        let wav = dir.join(name);
        let status = Command::new(env!("CARGO_BIN_EXE_nesmind"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["run", cart, "--headless", "--frames", "120", "--wav"])
            .arg(&wav)
            .output()
            .unwrap();
        assert!(status.status.success(), "{cart}: {status:?}");
        std::fs::read(&wav).unwrap()
    };
    for cart in [DOTS, HATRIS] {
        let bytes = capture(cart, "first.wav");
        assert!(
            bytes == capture(cart, "second.wav"),
            "{cart}: two runs wrote different sound"
        );
        let data = bytes
            .windows(4)
            .position(|w| w == b"data")
            .expect("a data chunk")
            + 8;
        let samples: Vec<i16> = bytes[data..]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert!(samples.len() > 48_000, "{cart}: two seconds of sound");
        let loud = loudness(&samples[samples.len() / 2..]);
        assert!(
            loud > 100.0,
            "{cart}: the WAV is silent (loudness {loud:.1})"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
