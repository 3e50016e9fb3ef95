//! Which sprites' Y ranges cover each visible line, kept between lines for the whole-line
//! sprite evaluation (`fast_sprite_evaluation`), which would otherwise test all 64 Y bytes
//! on every line.
//!
//! The rows are a function of OAM and the sprite height only: they are rebuilt when either
//! differs from what they were built from (usually once a frame, after the OAM DMA), and
//! shared by clones of the machine until then.

use super::POST_RENDER_LINE;
use super::sprites::in_range;
use std::sync::Arc;

const LINES: usize = POST_RENDER_LINE as usize;

#[derive(Clone)]
pub(super) struct SpriteRows(Arc<Rows>);

#[derive(Clone)]
struct Rows {
    /// What the rows were built from; height 0 until they are.
    oam: [u8; 256],
    height: u16,
    /// Bit n of `rows[line]`: sprite n is in range on visible line `line`.
    rows: [u64; LINES],
}

impl Default for SpriteRows {
    fn default() -> Self {
        SpriteRows(Arc::new(Rows {
            oam: [0; 256],
            height: 0,
            rows: [0; LINES],
        }))
    }
}

impl SpriteRows {
    /// The sprites in range on visible line `line` (bit n: sprite n), as `in_range` finds
    /// them for `oam` and `height`.
    #[inline(always)]
    pub(super) fn on_line(&mut self, oam: &[u8; 256], height: u16, line: u16) -> u64 {
        if self.0.height != height || self.0.oam != *oam {
            self.rebuild(oam, height);
        }
        self.0.rows[usize::from(line)]
    }

    #[cold]
    fn rebuild(&mut self, oam: &[u8; 256], height: u16) {
        let rows = Arc::make_mut(&mut self.0);
        rows.oam = *oam;
        rows.height = height;
        rows.rows = [0; LINES];
        for (n, sprite) in oam.chunks_exact(4).enumerate() {
            // Lines y to y + height - 1, those of them that are visible.
            let top = usize::from(sprite[0]);
            for line in top..(top + usize::from(height)).min(LINES) {
                debug_assert!(in_range(line as u16, sprite[0], height));
                rows.rows[line] |= 1 << n;
            }
        }
    }
}
