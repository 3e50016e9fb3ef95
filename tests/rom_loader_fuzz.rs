//! Thousands of random and mutated images: the loader must return a clear error or a ROM,
//! and a machine built from any accepted ROM must run without panicking.

use nesmind::emu::{Machine, Rom};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn valid_image(rng: &mut StdRng) -> Vec<u8> {
    let mappers = [
        0u8, 1, 2, 3, 4, 7, 9, 10, 11, 28, 30, 34, 66, 69, 78, 118, 180,
    ];
    let mapper = mappers[rng.gen_range(0..mappers.len())];
    let prg = rng.gen_range(1..=8u8);
    let chr = rng.gen_range(0..=4u8);
    let mut v = vec![
        b'N',
        b'E',
        b'S',
        0x1A,
        prg,
        chr,
        (mapper << 4) | rng.gen_range(0..16),
        mapper & 0xF0,
    ];
    v.resize(16, 0);
    let body = usize::from(prg) * 16384 + usize::from(chr) * 8192;
    v.extend((0..body).map(|_| rng.r#gen::<u8>()));
    v
}

fn mutate(rng: &mut StdRng, mut v: Vec<u8>) -> Vec<u8> {
    match rng.gen_range(0..4) {
        0 => {
            let i = rng.gen_range(0..16);
            v[i] = rng.r#gen();
        }
        1 => {
            let len = rng.gen_range(0..v.len());
            v.truncate(len);
        }
        2 => {
            for _ in 0..rng.gen_range(1..6) {
                let i = rng.gen_range(0..16);
                v[i] ^= 1 << rng.gen_range(0..8);
            }
        }
        _ => v.extend((0..rng.gen_range(1..5000)).map(|_| rng.r#gen::<u8>())),
    }
    v
}

#[test]
fn random_and_mutated_images_never_panic() {
    let mut rng = StdRng::seed_from_u64(0x4E45531A);
    let (mut accepted, mut rejected) = (0, 0);
    for case in 0..3000 {
        let image = match case % 3 {
            0 => (0..rng.gen_range(0..40_000))
                .map(|_| rng.r#gen::<u8>())
                .collect(),
            1 => {
                let v = valid_image(&mut rng);
                mutate(&mut rng, v)
            }
            _ => {
                let mut v = b"NES\x1A".to_vec();
                v.extend((0..rng.gen_range(0..300_000)).map(|_| rng.r#gen::<u8>()));
                v
            }
        };
        match Rom::parse(&image, "fuzz.nes") {
            Ok(rom) => {
                accepted += 1;
                let mut m = Machine::new(&rom).expect("a parsed ROM builds a machine");
                for _ in 0..2 {
                    // Random code may jam the CPU: that is a reported error, not a panic.
                    let _ = m.run_frame();
                }
            }
            Err(e) => {
                rejected += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(
        accepted > 300 && rejected > 300,
        "accepted {accepted}, rejected {rejected}"
    );
}
