//! Cartridge RAM that clones of a machine share until one of them writes to it, so a clone
//! (lookahead, search, Python's `Machine.clone()`) does not copy kilobytes the game may
//! never change again. Savestates store it as the plain byte sequence it always was.

use serde::{Deserialize, Serialize};
use std::ops::Deref;
use std::sync::Arc;

#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SharedRam(Arc<Vec<u8>>);

impl SharedRam {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> SharedRam {
        SharedRam(Arc::new(vec![0; len]))
    }

    /// Writes one byte, first copying the RAM if another clone still shares it.
    #[inline]
    pub fn set(&mut self, index: usize, value: u8) {
        Arc::make_mut(&mut self.0)[index] = value;
    }

    /// Writes `bytes` at `at`; nothing (and no copy) when they are there already.
    pub fn copy_in(&mut self, at: usize, bytes: &[u8]) {
        if self.0[at..at + bytes.len()] != *bytes {
            Arc::make_mut(&mut self.0)[at..at + bytes.len()].copy_from_slice(bytes);
        }
    }
}

impl Deref for SharedRam {
    type Target = [u8];
    #[inline(always)]
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_leaves_the_other_clones_bytes_alone() {
        let mut a = SharedRam::zeroed(4);
        a.set(1, 7);
        let mut b = a.clone();
        b.set(2, 9);
        assert_eq!((&a[..], &b[..]), (&[0, 7, 0, 0][..], &[0, 7, 9, 0][..]));
        // Stored as the Vec<u8> it replaced, so older savestates still load.
        let text = ron::to_string(&b).unwrap();
        assert_eq!(text, ron::to_string(&vec![0u8, 7, 9, 0]).unwrap());
        let back: SharedRam = ron::from_str(&text).unwrap();
        assert_eq!(&back[..], &b[..]);
    }
}
