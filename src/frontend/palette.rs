//! Palette-index to RGB conversion. The colours are synthesised from the 2C02's NTSC
//! signal levels (hue phase, luma levels, emphasis attenuation) rather than taken from a
//! captured palette file.

use std::f64::consts::PI;

/// Signal voltages of the four luma levels, low and high halves of the square wave.
const LOW: [f64; 4] = [0.228, 0.312, 0.552, 0.880];
const HIGH: [f64; 4] = [0.616, 0.840, 1.100, 1.100];
const BLACK: f64 = 0.312;
const WHITE: f64 = 1.100;
/// Emphasis dims the affected phases to about 75%.
const EMPHASIS_ATTENUATION: f64 = 0.746;

/// 512 entries: 64 colours for each of the 8 emphasis combinations, as 0xRRGGBB.
pub fn build_palette() -> Vec<u32> {
    (0..512u16).map(rgb_for).collect()
}

fn in_phase(hue: i32, phase: i32) -> bool {
    (hue + phase).rem_euclid(12) < 6
}

/// Decodes one colour by averaging its 12-sample composite wave into Y, I and Q.
fn rgb_for(index: u16) -> u32 {
    let hue = i32::from(index & 0x0F);
    let level = usize::from((index >> 4) & 3);
    let emphasis = (index >> 6) & 7;
    let (lo, hi) = match hue {
        0 => (HIGH[level], HIGH[level]),
        13 => (LOW[level], LOW[level]),
        14 | 15 => (BLACK, BLACK),
        _ => (LOW[level], HIGH[level]),
    };
    let (mut y, mut i, mut q) = (0.0, 0.0, 0.0);
    for phase in 0..12 {
        let mut v = if in_phase(hue, phase) { hi } else { lo };
        // Each emphasis bit darkens the samples in the phase of its colour (R, G, B).
        let dims = [(0x1, 0), (0x2, 4), (0x4, 8)]
            .iter()
            .any(|&(bit, p)| emphasis & bit != 0 && in_phase(p, phase) && hue < 14);
        if dims {
            v *= EMPHASIS_ATTENUATION;
        }
        let v = (v - BLACK) / (WHITE - BLACK);
        // The colour burst sits four phases from sample 0; the half step centres the sample.
        let angle = PI * (f64::from(phase) + 4.5) / 6.0;
        y += v;
        i += v * angle.cos();
        q += v * angle.sin();
    }
    let (y, i, q) = (y / 12.0, i / 12.0 * 2.0, q / 12.0 * 2.0);
    let to8 = |c: f64| (c.clamp(0.0, 1.0) * 255.0).round() as u32;
    let r = y + 0.956 * i + 0.621 * q;
    let g = y - 0.272 * i - 0.647 * q;
    let b = y - 1.106 * i + 1.703 * q;
    to8(r) << 16 | to8(g) << 8 | to8(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greys_are_grey_and_black_is_black() {
        let p = build_palette();
        for idx in [0x00usize, 0x10, 0x20, 0x30] {
            let c = p[idx];
            let (r, g, b) = (c >> 16, (c >> 8) & 0xFF, c & 0xFF);
            assert!(
                r.abs_diff(g) < 3 && g.abs_diff(b) < 3,
                "{idx:02X} = {c:06X}"
            );
        }
        assert_eq!(p[0x0F], 0);
        assert!(p[0x30] > p[0x00], "white brighter than grey");
        let dominant = |c: u32| {
            let (r, g, b) = (c >> 16, (c >> 8) & 0xFF, c & 0xFF);
            if r > g && r > b {
                'r'
            } else if g > b {
                'g'
            } else {
                'b'
            }
        };
        assert_eq!(
            (dominant(p[0x16]), dominant(p[0x2A]), dominant(p[0x12])),
            ('r', 'g', 'b')
        );
        // Red emphasis dims a blue colour more than it dims red.
        assert!(p[0x40 | 0x21] & 0xFF < p[0x21] & 0xFF);
    }
}
