//! Paints a plug-in's shapes (`nesmind_host::Shape`, e.g. Lua's `gui.box`) over the
//! picture, for the window and for screenshots.

use super::font::{GLYPH_H, GLYPH_W, glyph, lit};
use crate::host::Shape;

const W: i32 = 256;
const H: i32 = 240;

/// The picture in 0xRRGGBB with `shapes` painted over it, in order.
pub fn compose(picture: &[u16], palette: &[u32], shapes: &[Shape]) -> Vec<u32> {
    let mut rgb: Vec<u32> = picture
        .iter()
        .map(|&i| palette[usize::from(i & 0x1FF)])
        .collect();
    rgb.resize((W * H) as usize, 0);
    for shape in shapes {
        paint(&mut rgb, shape);
    }
    rgb
}

/// `color` (0xAARRGGBB) over the pixel at (x, y), if it is on the picture.
fn plot(rgb: &mut [u32], x: i32, y: i32, color: u32) {
    if !(0..W).contains(&x) || !(0..H).contains(&y) {
        return;
    }
    let alpha = color >> 24;
    let px = &mut rgb[(y * W + x) as usize];
    let mix = |shift: u32| {
        let (a, b) = ((color >> shift) & 0xFF, (*px >> shift) & 0xFF);
        ((a * alpha + b * (255 - alpha) + 127) / 255) << shift
    };
    *px = mix(16) | mix(8) | mix(0);
}

fn paint(rgb: &mut [u32], shape: &Shape) {
    match shape {
        Shape::Pixel { x, y, color } => plot(rgb, *x, *y, *color),
        Shape::Line { from, to, color } => line(rgb, *from, *to, *color),
        Shape::Box {
            from,
            to,
            fill,
            outline,
        } => {
            let (x0, x1) = (from.0.min(to.0), from.0.max(to.0));
            let (y0, y1) = (from.1.min(to.1), from.1.max(to.1));
            // Clipped first, so a huge box costs no more than the picture.
            for y in y0.max(0)..=y1.min(H - 1) {
                for x in x0.max(0)..=x1.min(W - 1) {
                    let edge = x == x0 || x == x1 || y == y0 || y == y1;
                    plot(rgb, x, y, if edge { *outline } else { *fill });
                }
            }
        }
        Shape::Text {
            x,
            y,
            text,
            color,
            background,
        } => {
            let step = GLYPH_W as i32 + 1;
            for (i, c) in text.chars().take(W as usize).enumerate() {
                let gx = x + i as i32 * step;
                let g = glyph(c);
                for dy in 0..GLYPH_H as i32 + 1 {
                    for dx in 0..step {
                        let on = lit(g, dx as usize, dy as usize);
                        plot(rgb, gx + dx, y + dy, if on { *color } else { *background });
                    }
                }
            }
        }
    }
}

/// Bresenham's line, ends included, clipped pixel by pixel (at most a few hundred).
fn line(rgb: &mut [u32], (x, y): (i32, i32), (x1, y1): (i32, i32), color: u32) {
    let clamp = |v: i32| v.clamp(-4 * W, 4 * W);
    let (mut x, mut y, x1, y1) = (clamp(x), clamp(y), clamp(x1), clamp(y1));
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    loop {
        plot(rgb, x, y, color);
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_land_where_asked() {
        let picture = vec![0u16; (W * H) as usize];
        let palette = vec![0x000000u32; 512];
        let shapes = [
            Shape::Box {
                from: (10, 10),
                to: (12, 12),
                fill: 0xFF00FF00,
                outline: 0xFFFF0000,
            },
            Shape::Line {
                from: (0, 100),
                to: (255, 100),
                color: 0x800000FF,
            },
            Shape::Pixel {
                x: 300,
                y: -5,
                color: 0xFFFFFFFF,
            },
        ];
        let rgb = compose(&picture, &palette, &shapes);
        let at = |x: i32, y: i32| rgb[(y * W + x) as usize];
        assert_eq!(at(10, 10), 0xFF0000);
        assert_eq!(at(11, 11), 0x00FF00);
        assert_eq!(at(13, 13), 0);
        assert_eq!(at(128, 100), 0x000080);
    }
}
