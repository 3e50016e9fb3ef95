//! Audio output: determinism, pitch accuracy, WAV format.

mod common;

use nesmind::emu::{Machine, Rom, UnsupportedSampleRate};
use nesmind::frontend::wav::{WavWriter, write_wav};

/// A 16 KiB NROM image whose program sets pulse 1 to a constant-volume 50% square of
/// timer period `period`, then loops forever.
fn tone_rom(period: u16) -> Rom {
    let mut prg = vec![0xEAu8; 0x4000];
    let code = [
        0xA9,
        0x01,
        0x8D,
        0x15,
        0x40, // enable pulse 1 (before loading its length)
        0xA9,
        0xBF,
        0x8D,
        0x00,
        0x40, // LDA #$BF; STA $4000 (duty 2, halt, constant 15)
        0xA9,
        0x08,
        0x8D,
        0x01,
        0x40, // LDA #$08; STA $4001 (sweep off, negate: no mute)
        0xA9,
        period as u8,
        0x8D,
        0x02,
        0x40, // timer low
        0xA9,
        (period >> 8) as u8,
        0x8D,
        0x03,
        0x40, // timer high, length load
        0x4C,
        0x19,
        0xC0, // JMP *
    ];
    prg[..code.len()].copy_from_slice(&code);
    // Vectors: NMI, RESET, IRQ all at $C000 (NMI/IRQ never fire: NMI off, I flag set).
    for v in [0x3FFA, 0x3FFC, 0x3FFE] {
        prg[v] = 0x00;
        prg[v + 1] = 0xC0;
    }
    let mut image = b"NES\x1A\x01\x01\x00\x00".to_vec();
    image.resize(16, 0);
    image.extend_from_slice(&prg);
    image.extend_from_slice(&[0u8; 0x2000]);
    Rom::parse(&image, "tone.nes").unwrap()
}

fn render(m: &mut Machine, frames: u32) -> Vec<i16> {
    let mut out = Vec::new();
    for _ in 0..frames {
        m.run_frame().unwrap();
        m.take_audio(&mut out);
    }
    out
}

/// Frequency from rising edges: crossings of +peak/4 after the signal was below -peak/4
/// (the hysteresis ignores the ringing and the high-pass droop of a square wave),
/// interpolated between samples.
fn measure_hz(samples: &[i16], rate: u32) -> f64 {
    let peak = samples
        .iter()
        .map(|s| f64::from(s.unsigned_abs()))
        .fold(0.0, f64::max);
    let t = peak / 4.0;
    let mut armed = false;
    let mut crossings = Vec::new();
    for i in 1..samples.len() {
        let (a, b) = (f64::from(samples[i - 1]), f64::from(samples[i]));
        if b < -t {
            armed = true;
        } else if armed && a < t && b >= t {
            armed = false;
            crossings.push((i - 1) as f64 + (t - a) / (b - a));
        }
    }
    assert!(crossings.len() > 10, "no tone found");
    let (first, last) = (crossings[0], crossings[crossings.len() - 1]);
    (crossings.len() - 1) as f64 * f64::from(rate) / (last - first)
}

#[test]
fn pulse_pitch_is_exact() {
    for (rate, period) in [(48_000, 253u16), (44_100, 100)] {
        let mut m = Machine::new(&tone_rom(period)).unwrap();
        m.set_sample_rate(rate).unwrap();
        let samples = render(&mut m, 120);
        // Skip the first half second (filters settling).
        let hz = measure_hz(&samples[rate as usize / 2..], rate);
        let expected = nesmind::emu::apu::CPU_HZ / (16.0 * (f64::from(period) + 1.0));
        let err = (hz - expected).abs() / expected;
        println!("{rate} Hz output, period {period}: {hz:.3} Hz (expected {expected:.3})");
        assert!(
            err < 0.01,
            "{rate} Hz output: measured {hz:.2} Hz, expected {expected:.2}"
        );
        let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
        assert!(peak > 2000, "tone too quiet: peak {peak}");
    }
}

#[test]
fn audio_off_produces_nothing_and_keeps_timing() {
    let mut on = Machine::new(&tone_rom(253)).unwrap();
    let mut off = on.clone();
    off.set_audio_enabled(false);
    assert!(!render(&mut on, 30).is_empty());
    assert!(render(&mut off, 30).is_empty());
    assert_eq!(on.cpu_cycles(), off.cpu_cycles());
    assert_eq!(on.peek(0x4015), off.peek(0x4015));
}

#[test]
fn rejects_bad_sample_rate() {
    let mut m = Machine::new(&tone_rom(253)).unwrap();
    assert_eq!(m.set_sample_rate(0), Err(UnsupportedSampleRate(0)));
    let err = m.set_sample_rate(1_000_000).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unsupported sample rate 1000000 Hz (use 8000-192000, e.g. 48000 or 44100)"
    );
    assert_eq!(m.sample_rate(), 48_000);
}

/// A game's music rendered twice gives byte-identical WAV files.
#[test]
fn wav_render_is_deterministic() {
    let path = common::rom_dir().join("homebrew/lawn_mower/lawn_mower.nes");
    let rom = Rom::load(&path).unwrap();
    let dir = std::env::temp_dir().join(format!("nesmind-apu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for i in 0..2 {
        let mut m = Machine::new(&rom).unwrap();
        let samples = render(&mut m, 240);
        assert!(samples.len() > 4 * 47_000, "{} samples", samples.len());
        let distinct = samples
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len();
        assert!(
            distinct > 100,
            "silent or constant output ({distinct} levels)"
        );
        let f = dir.join(format!("run{i}.wav"));
        write_wav(&f, m.sample_rate(), &samples).unwrap();
        files.push(std::fs::read(&f).unwrap());
    }
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(&files[0][..4], b"RIFF");
    assert_eq!(files[0].len(), 44 + 2 * (files[0].len() - 44) / 2);
    assert!(files[0] == files[1], "two renders differ");
}

/// A WAV written frame by frame, to a file or through a pipe (whose header cannot be
/// filled in afterwards), is the file written in one piece: header sizes included.
#[test]
fn wav_streamed_in_pieces_is_the_whole_file() {
    use std::os::unix::fs::FileTypeExt;
    let samples: Vec<i16> = (0..10_000)
        .map(|i| (i * 37 % 65_536 - 32_768) as i16)
        .collect();
    let dir = std::env::temp_dir().join(format!("nesmind-wav-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.wav");
    write_wav(&whole, 44_100, &samples).unwrap();
    let whole = std::fs::read(&whole).unwrap();
    assert_eq!(whole.len(), 44 + 20_000);
    assert_eq!(&whole[4..8], &(36u32 + 20_000).to_le_bytes());
    assert_eq!(&whole[24..28], &44_100u32.to_le_bytes());
    assert_eq!(&whole[40..44], &20_000u32.to_le_bytes());
    assert_eq!(&whole[44..46], &samples[0].to_le_bytes());

    let pipe = dir.join("pipe.wav");
    let c_path = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let reader = {
        let pipe = pipe.clone();
        std::thread::spawn(move || std::fs::read(&pipe).unwrap())
    };
    for path in [dir.join("pieces.wav"), pipe.clone()] {
        let mut w = WavWriter::create(&path, 44_100).unwrap();
        for piece in samples.chunks(801) {
            w.write(piece).unwrap();
        }
        w.finish().unwrap();
    }
    assert!(std::fs::read(dir.join("pieces.wav")).unwrap() == whole);
    assert!(reader.join().unwrap() == whole, "through the pipe");
    assert!(
        std::fs::symlink_metadata(&pipe)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn wav_write_reports_bad_path() {
    let err = write_wav(
        std::path::Path::new("/nonexistent-dir/x.wav"),
        48_000,
        &[0; 10],
    );
    assert!(err.unwrap_err().contains("/nonexistent-dir/x.wav"));
}

/// Without a usable device (as on CI) opening gives `None` with a warning, never a panic;
/// with one, pushing frames yields a sane rate nudge.
#[cfg(feature = "audio")]
#[test]
fn audio_out_opens_or_warns() {
    if let Some(mut out) = nesmind::audio::AudioOut::open_or_warn(48_000) {
        assert!(out.sample_rate() >= 8_000);
        out.set_volume(0.0);
        out.push(&[0; 800]);
        let f = out.rate_adjust();
        assert!((0.99..=1.01).contains(&f), "{f}");
    }
}

/// Batched synthesis (jumping between audible changes) gives exactly the samples of
/// stepping every channel every cycle: lawn_mower plays the tonal channels, the MMC3
/// workload cart DMC drum samples as well (their level steps fall between APU events).
#[test]
fn batched_synthesis_matches_per_cycle() {
    let roms = [
        common::rom_dir().join("homebrew/lawn_mower/lawn_mower.nes"),
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("benches/carts/mmc3/mmc3-workload.nes"),
    ];
    for path in roms {
        let rom = Rom::load(&path).unwrap();
        let mut batched = Machine::new(&rom).unwrap();
        let mut stepped = batched.clone();
        stepped.set_speedups(nesmind::emu::Speedups {
            apu_events: false,
            ..nesmind::emu::Speedups::ALL
        });
        let a = render(&mut batched, 180);
        let b = render(&mut stepped, 180);
        assert!(a.len() > 100_000);
        let first_diff = a.iter().zip(&b).position(|(x, y)| x != y);
        assert_eq!(first_diff, None, "outputs differ on {}", path.display());
        assert_eq!(a.len(), b.len());
    }
}

/// Power at `hz`, Hann-windowed (Goertzel).
fn power_at(samples: &[i16], rate: u32, hz: f64) -> f64 {
    let n = samples.len();
    let w = 2.0 * std::f64::consts::PI * hz / f64::from(rate);
    let (mut s1, mut s2) = (0.0f64, 0.0f64);
    for (i, x) in samples.iter().enumerate() {
        let hann = 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / n as f64).cos();
        let s = f64::from(*x) * hann + 2.0 * w.cos() * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    s1 * s1 + s2 * s2 - 2.0 * w.cos() * s1 * s2
}

/// A 7 kHz square: its 5th and 7th harmonics (35 and 49 kHz) lie above Nyquist. Sampled
/// naively they fold back to 13.0 kHz and 937 Hz at -14/-17 dB; band-limited synthesis
/// must keep those folds 50 dB under the fundamental.
#[test]
fn high_notes_do_not_alias() {
    let rate = 48_000;
    let period = 15u16;
    let mut m = Machine::new(&tone_rom(period)).unwrap();
    let samples = render(&mut m, 90);
    let tail = &samples[samples.len() - rate as usize..];
    let f0 = nesmind::emu::apu::CPU_HZ / (16.0 * (f64::from(period) + 1.0));
    let fundamental = power_at(tail, rate, f0);
    for k in [5.0, 7.0] {
        let alias = (k * f0 - f64::from(rate)).abs();
        let db = 10.0 * (power_at(tail, rate, alias) / fundamental).log10();
        println!("harmonic {k} folds to {alias:.0} Hz at {db:.1} dB");
        assert!(db < -50.0, "alias at {alias:.0} Hz only {db:.1} dB down");
    }
}

/// A savestate holds no sound output: a state saved with sound off resumes with exactly
/// the sound of one saved with it on, and both match the uninterrupted run once the
/// output filters have settled (they restart at rest on load).
#[test]
fn savestate_resumes_same_audio() {
    use nesmind::host::savestate::{decode, encode};
    let path = common::rom_dir().join("homebrew/lawn_mower/lawn_mower.nes");
    let rom = Rom::load(&path).unwrap();
    let mut straight = Machine::new(&rom).unwrap();
    render(&mut straight, 100);
    let mut silent = Machine::new(&rom).unwrap();
    silent.set_audio_enabled(false);
    for _ in 0..100 {
        silent.run_frame().unwrap();
    }
    let from_sound = decode(&encode(&straight, &rom).unwrap(), &rom).unwrap();
    let from_silence = decode(&encode(&silent, &rom).unwrap(), &rom).unwrap();
    let want = render(&mut straight, 60);
    let (a, b) = (
        render(&mut { from_sound }, 60),
        render(&mut { from_silence }, 60),
    );
    assert!(want.iter().any(|s| *s != want[0]), "no sound to compare");
    assert!(a == b, "a state saved without sound resumes differently");
    // After 50 ms the restarted filters agree with the uninterrupted run to 1 LSB.
    let settled = 48_000 / 20;
    let worst = a[settled..]
        .iter()
        .zip(&want[settled..])
        .map(|(x, y)| (i32::from(*x) - i32::from(*y)).abs())
        .max()
        .unwrap();
    assert!(worst <= 1, "resumed sound differs by {worst} after 50 ms");
}

/// A console that makes no sound outputs silence from its first sample: the output starts
/// at the level the channels rest at (the triangle holds step 0's level at power-on), not
/// at 0, which made every WAV start with a click of about 0.19 of full scale.
#[test]
fn silence_starts_without_a_click() {
    let mut prg = vec![0xEAu8; 0x4000];
    prg[..3].copy_from_slice(&[0x4C, 0x00, 0xC0]); // JMP $C000
    for v in [0x3FFA, 0x3FFC, 0x3FFE] {
        prg[v + 1] = 0xC0;
    }
    let mut image = b"NES\x1A\x01\x01\x00\x00".to_vec();
    image.resize(16, 0);
    image.extend_from_slice(&prg);
    image.extend_from_slice(&[0u8; 0x2000]);
    let mut m = Machine::new(&Rom::parse(&image, "silent.nes").unwrap()).unwrap();
    let samples = render(&mut m, 30);
    let loudest = samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
    assert!(samples.len() > 20_000);
    assert!(loudest <= 1, "silence peaks at {loudest} (of 32768)");
}
