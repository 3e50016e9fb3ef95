//! Where the picture goes in the window: integer vertical scale, square or 8:7 pixels.
//!
//! With 8:7 pixels (an NTSC television's pixel aspect) a picture row is widened by a
//! non-integer factor. Each output column takes the colours of the picture pixels it
//! covers, weighted by coverage, so a column inside one pixel is that pixel's exact
//! colour and only columns straddling a pixel edge mix two neighbours: no smear across
//! the picture and no uneven nearest-neighbour column widths.

/// Picture size in NES pixels.
pub const PIC_W: usize = 256;
pub const PIC_H: usize = 240;
/// Rows below the picture for the status strip: two overlay lines (the plug-in's status and
/// a message), so the game's own bottom rows stay visible.
pub const STRIP_H: usize = 2 * super::overlay::LINE_H + 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aspect {
    Square,
    /// 8:7 pixels, as an NTSC television draws the NES picture.
    Ntsc,
}

impl std::str::FromStr for Aspect {
    type Err = String;
    fn from_str(s: &str) -> Result<Aspect, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "8:7" | "ntsc" => Ok(Aspect::Ntsc),
            "square" | "1:1" => Ok(Aspect::Square),
            _ => Err(format!("'{s}' is not an aspect: use 8:7 or square")),
        }
    }
}

impl Aspect {
    /// Width on screen of the picture at vertical scale `scale`.
    pub fn picture_width(self, scale: u32) -> u32 {
        match self {
            Aspect::Square => PIC_W as u32 * scale,
            // 256 * scale * 8 / 7, rounded to the nearest pixel.
            Aspect::Ntsc => (2 * 2048 * scale + 7) / 14,
        }
    }
    /// The window size that shows the picture and the status strip at `scale`.
    pub fn window_size(self, scale: u32) -> (u32, u32) {
        (self.picture_width(scale), (PIC_H + STRIP_H) as u32 * scale)
    }
}

/// The picture's rectangle in a window of a given size (the status strip lies below it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    pub scale: u32,
}

impl Layout {
    /// The largest integer scale at which picture and strip fit `out_w` x `out_h` (at
    /// least 1), centred.
    pub fn fit(out_w: u32, out_h: u32, aspect: Aspect) -> Layout {
        let mut scale = (out_h / (PIC_H + STRIP_H) as u32).max(1);
        while scale > 1 && aspect.picture_width(scale) > out_w {
            scale -= 1;
        }
        let (width, total) = aspect.window_size(scale);
        Layout {
            x: (out_w as i32 - width as i32) / 2,
            y: (out_h as i32 - total as i32) / 2,
            width,
            height: PIC_H as u32 * scale,
            scale,
        }
    }

    /// Where a strip of `rows` overlay rows goes: just below the picture, moved up over the
    /// picture's bottom only by what does not fit in the strip.
    pub fn strip_top(&self, rows: usize) -> i32 {
        let over = rows.saturating_sub(STRIP_H) as i32;
        self.y + self.height as i32 - over * self.scale as i32
    }

    /// Output column that best shows picture column `x`: the one covering most of it.
    /// With at least two output columns per picture column that one lies wholly inside,
    /// so it carries the pixel's exact colour.
    pub fn column_of(&self, x: usize) -> usize {
        let w = self.width as usize;
        // Picture pixel x spans [x*w, (x+1)*w) in units of 1/256 output column.
        let (start, end) = (x * w, (x + 1) * w);
        let first = start / PIC_W;
        let last = (end - 1) / PIC_W;
        (first..=last)
            .max_by_key(|&c| end.min((c + 1) * PIC_W) - start.max(c * PIC_W))
            .unwrap_or(first)
    }

    /// Whether every picture pixel has an output column of its exact colour, so the
    /// picture can be read back from the window unchanged.
    pub fn exact_read_back(&self) -> bool {
        (self.width as usize).is_multiple_of(PIC_W) || self.width as usize >= 2 * PIC_W
    }
}

/// Widens picture rows to `width` output columns by coverage weighting.
pub struct Resampler {
    /// Per output column: the left picture column and its weight out of 256 (the rest
    /// goes to the next column).
    taps: Vec<(u16, u16)>,
}

impl Resampler {
    pub fn new(width: usize) -> Resampler {
        let width = width.max(PIC_W);
        let taps = (0..width)
            .map(|c| {
                // Output column c spans [c*256, (c+1)*256) in units of 1/width picture pixel.
                let (start, end) = (c * PIC_W, (c + 1) * PIC_W);
                let left = start / width;
                let boundary = (left + 1) * width;
                let weight = if end <= boundary {
                    256
                } else {
                    boundary - start
                };
                (left as u16, weight as u16)
            })
            .collect();
        Resampler { taps }
    }

    pub fn width(&self) -> usize {
        self.taps.len()
    }

    /// One row: `src` holds 256 0xRRGGBB pixels, `dst` receives `width()` of them.
    pub fn row(&self, src: &[u32], dst: &mut [u32]) {
        for (out, &(left, weight)) in dst.iter_mut().zip(&self.taps) {
            let a = src[usize::from(left)];
            *out = if weight == 256 {
                a
            } else {
                mix(a, src[usize::from(left) + 1], u32::from(weight))
            };
        }
    }
}

/// `a * w/256 + b * (256-w)/256` per channel.
fn mix(a: u32, b: u32, w: u32) -> u32 {
    let channel = |shift: u32| {
        let (ca, cb) = ((a >> shift) & 0xFF, (b >> shift) & 0xFF);
        ((ca * w + cb * (256 - w)) >> 8) << shift
    };
    channel(16) | channel(8) | channel(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aspect_parses_and_sizes() {
        assert_eq!("8:7".parse::<Aspect>(), Ok(Aspect::Ntsc));
        assert_eq!("Square".parse::<Aspect>(), Ok(Aspect::Square));
        assert!("4:3".parse::<Aspect>().unwrap_err().contains("'4:3'"));
        assert_eq!(STRIP_H, 22);
        assert_eq!(Aspect::Ntsc.window_size(3), (878, 786));
        assert_eq!(Aspect::Ntsc.picture_width(1), 293);
        assert_eq!(Aspect::Square.window_size(2), (512, 524));
    }

    #[test]
    fn fit_keeps_integer_vertical_scale_and_centres() {
        // 1920x1080 fullscreen: 4x vertically (960 picture lines and 88 of strip), 8:7
        // width 1170.
        let l = Layout::fit(1920, 1080, Aspect::Ntsc);
        assert_eq!((l.scale, l.width, l.height), (4, 1170, 960));
        assert_eq!((l.x, l.y), (375, 16));
        // The strip starts where the picture ends; only rows beyond it cover the picture.
        assert_eq!(l.strip_top(12), 16 + 960);
        assert_eq!(l.strip_top(STRIP_H + 10), 16 + 960 - 40);
        // A narrow window limits the scale by its width.
        let l = Layout::fit(900, 1080, Aspect::Ntsc);
        assert_eq!((l.scale, l.width), (3, 878));
        // Smaller than 1x: still 1x (clipped), never 0.
        assert_eq!(Layout::fit(100, 100, Aspect::Square).scale, 1);
    }

    #[test]
    fn resampling_keeps_interior_columns_exact_and_mixes_only_edges() {
        // Scattered colours, so a mix of two neighbours never equals a picture colour.
        let src: Vec<u32> = (0..256u32)
            .map(|i| i.wrapping_mul(0x9E37_79B9) >> 8)
            .collect();
        for scale in 1..=5 {
            let width = Aspect::Ntsc.picture_width(scale) as usize;
            let r = Resampler::new(width);
            let mut dst = vec![0; width];
            r.row(&src, &mut dst);
            let exact = dst.iter().filter(|p| src.contains(p)).count();
            // Only the 255 edges between picture columns can produce a mixed column.
            assert!(
                width - exact <= 255,
                "scale {scale}: {} mixed",
                width - exact
            );
            let layout = Layout::fit(width as u32, 262 * scale, Aspect::Ntsc);
            if layout.exact_read_back() {
                for x in 0..256 {
                    assert_eq!(dst[layout.column_of(x)], src[x], "scale {scale} x {x}");
                }
            }
        }
        // Square pixels are plain repetition.
        let r = Resampler::new(512);
        let mut dst = vec![0; 512];
        r.row(&src, &mut dst);
        assert!((0..512).all(|c| dst[c] == src[c / 2]));
        assert_eq!(mix(0xFF0000, 0x0000FF, 64), 0x3F00BF);
    }
}
