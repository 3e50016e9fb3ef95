//! The overlay's bitmap font: printable ASCII (0x20-0x7E), 5 pixels wide and 8 tall
//! (the last row holds descenders). The glyphs are drawn as text in `font.txt` and turned
//! into bit rows at compile time, so a malformed sheet is a build error, not a runtime one.

pub const GLYPH_W: usize = 5;
pub const GLYPH_H: usize = 8;
const FIRST: u8 = 0x20;
const COUNT: usize = 95;
const PER_BLOCK: usize = 16;

/// One byte per row; bit 4 is the leftmost pixel.
pub type Glyph = [u8; GLYPH_H];

static GLYPHS: [Glyph; COUNT] = parse_sheet(include_str!("font.txt"));

/// The glyph for `c`; characters outside printable ASCII show as '?'.
pub fn glyph(c: char) -> &'static Glyph {
    let code = u32::from(c);
    let index = if (0x20..0x7F).contains(&code) {
        code as usize - usize::from(FIRST)
    } else {
        usize::from(b'?' - FIRST)
    };
    &GLYPHS[index]
}

/// Whether pixel (x, y) of `g` is lit.
pub fn lit(g: &Glyph, x: usize, y: usize) -> bool {
    x < GLYPH_W && y < GLYPH_H && g[y] & (0x10 >> x) != 0
}

/// Reads the sheet: blocks of 8 pixel rows, each row holding up to 16 glyphs of 5 cells
/// separated by one space; lines that are empty or start with '/' are skipped.
const fn parse_sheet(text: &str) -> [Glyph; COUNT] {
    let bytes = text.as_bytes();
    let mut glyphs = [[0u8; GLYPH_H]; COUNT];
    let mut pixel_line = 0;
    let mut at = 0;
    while at < bytes.len() {
        let mut end = at;
        while end < bytes.len() && bytes[end] != b'\n' {
            end += 1;
        }
        if end > at && bytes[at] != b'/' {
            let (block, row) = (pixel_line / GLYPH_H, pixel_line % GLYPH_H);
            let mut col = 0;
            let mut i = at;
            while i < end {
                let n = block * PER_BLOCK + col / (GLYPH_W + 1);
                let x = col % (GLYPH_W + 1);
                assert!(n < COUNT, "font.txt: more than 95 glyphs");
                match (x, bytes[i]) {
                    (GLYPH_W, b' ') => {}
                    (GLYPH_W, _) => panic!("font.txt: glyphs must be 5 cells wide"),
                    (_, b'#') => glyphs[n][row] |= 0x10 >> x,
                    (_, b'.') => {}
                    _ => panic!("font.txt: pixels are '#' or '.'"),
                }
                col += 1;
                i += 1;
            }
            let expected = if block == COUNT / PER_BLOCK {
                COUNT % PER_BLOCK
            } else {
                PER_BLOCK
            };
            assert!(
                col == expected * (GLYPH_W + 1) - 1,
                "font.txt: a row has the wrong number of glyphs"
            );
            pixel_line += 1;
        }
        at = end + 1;
    }
    assert!(
        pixel_line == COUNT.div_ceil(PER_BLOCK) * GLYPH_H,
        "font.txt: wrong number of pixel rows"
    );
    glyphs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(c: char) -> Vec<String> {
        let g = glyph(c);
        (0..GLYPH_H)
            .map(|y| {
                (0..GLYPH_W)
                    .map(|x| if lit(g, x, y) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn sheet_order_and_shapes() {
        assert!(glyph(' ').iter().all(|&r| r == 0));
        assert_eq!(
            picture('A'),
            [
                ".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#", "....."
            ]
        );
        // The last glyph of the last (short) block, and a descender.
        assert_eq!(picture('~')[3], "#.#.#");
        assert_eq!(picture('g')[7], ".###.");
        assert_eq!(picture('\u{e9}'), picture('?'));
    }

    #[test]
    fn every_printable_glyph_is_distinct_and_visible() {
        let all: Vec<&Glyph> = (0x21u8..0x7F).map(|c| glyph(char::from(c))).collect();
        for (i, g) in all.iter().enumerate() {
            assert!(
                g.iter().any(|&r| r != 0),
                "{:?} is blank",
                (i + 0x21) as u8 as char
            );
            assert!(g.iter().all(|&r| r < 0x20));
            assert!(
                !all[..i].contains(g),
                "{:?} duplicates an earlier glyph",
                (i + 0x21) as u8 as char
            );
        }
    }
}
