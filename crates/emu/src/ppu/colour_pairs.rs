//! Output colours two pixels at a time, for the whole-line path.
//!
//! A line's 256 palette indices become colours through a 32-entry table (`line_colours`);
//! looking up two adjacent index bytes at once halves the lookups. The pair table is only
//! a function of the 32 colours, so it is kept between lines and rebuilt when they change
//! (a palette or $2001 write), and shared between clones of the machine until then.

use std::sync::Arc;

/// Two index bytes of 0-31 read as one little-endian u16, masked: `a | b << 8`.
const PAIR_MASK: usize = 0x1F1F;

#[derive(Clone)]
pub(super) struct ColourPairs {
    /// The colours `table` was built from.
    colours: [u16; 32],
    /// `colours[a] | colours[b] << 16` at `a | b << 8`.
    table: Arc<[u32; PAIR_MASK + 1]>,
}

impl Default for ColourPairs {
    fn default() -> Self {
        ColourPairs {
            // No output colour is this, so the first line builds the table.
            colours: [u16::MAX; 32],
            table: Arc::new([0; PAIR_MASK + 1]),
        }
    }
}

impl ColourPairs {
    /// The pair table for `colours` (as `line_colours` gives them).
    #[inline(always)]
    pub(super) fn table(&mut self, colours: &[u16; 32]) -> &[u32; PAIR_MASK + 1] {
        if self.colours != *colours {
            self.rebuild(colours);
        }
        &self.table
    }

    #[cold]
    fn rebuild(&mut self, colours: &[u16; 32]) {
        let table = Arc::make_mut(&mut self.table);
        for (b, &right) in colours.iter().enumerate() {
            for (a, &left) in colours.iter().enumerate() {
                table[a | b << 8] = u32::from(left) | u32::from(right) << 16;
            }
        }
        self.colours = *colours;
    }
}

/// Writes the colours of eight index bytes (leftmost in the low byte) to `out`.
#[inline(always)]
pub(super) fn put_eight(out: &mut [u16], indices: u64, table: &[u32; PAIR_MASK + 1]) {
    for (k, two) in out.chunks_exact_mut(2).enumerate() {
        let pair = table[(indices >> (16 * k)) as usize & PAIR_MASK];
        two[0] = pair as u16;
        two[1] = (pair >> 16) as u16;
    }
}
