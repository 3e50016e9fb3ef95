//! A lock-free single-producer single-consumer ring of samples: the emulation thread
//! pushes, the audio callback pops, neither ever blocks or allocates.

use std::sync::Arc;
use std::sync::atomic::{AtomicI16, AtomicUsize, Ordering};

struct Shared {
    buf: Box<[AtomicI16]>,
    mask: usize,
    /// Total samples ever written / read; their difference is the fill level.
    head: AtomicUsize,
    tail: AtomicUsize,
}

/// The writing end (one owner).
pub struct Producer(Arc<Shared>);
/// The reading end (one owner).
pub struct Consumer(Arc<Shared>);

/// A ring holding at least `min_capacity` samples (rounded up to a power of two).
pub fn ring(min_capacity: usize) -> (Producer, Consumer) {
    let cap = min_capacity.max(2).next_power_of_two();
    let shared = Arc::new(Shared {
        buf: (0..cap).map(|_| AtomicI16::new(0)).collect(),
        mask: cap - 1,
        head: AtomicUsize::new(0),
        tail: AtomicUsize::new(0),
    });
    (Producer(shared.clone()), Consumer(shared))
}

impl Shared {
    fn fill(&self) -> usize {
        self.head
            .load(Ordering::Acquire)
            .wrapping_sub(self.tail.load(Ordering::Acquire))
    }
}

impl Producer {
    /// Appends as many of `samples` as fit; returns how many were taken.
    pub fn push(&mut self, samples: &[i16]) -> usize {
        let s = &*self.0;
        let head = s.head.load(Ordering::Relaxed);
        let tail = s.tail.load(Ordering::Acquire);
        let free = s.buf.len() - head.wrapping_sub(tail);
        let n = free.min(samples.len());
        for (i, v) in samples[..n].iter().enumerate() {
            s.buf[head.wrapping_add(i) & s.mask].store(*v, Ordering::Relaxed);
        }
        // Release: the samples are visible before the consumer sees the new head.
        s.head.store(head.wrapping_add(n), Ordering::Release);
        n
    }
    pub fn fill(&self) -> usize {
        self.0.fill()
    }
    pub fn capacity(&self) -> usize {
        self.0.buf.len()
    }
}

impl Consumer {
    /// Fills the front of `out` with the oldest samples; returns how many were available.
    pub fn pop(&mut self, out: &mut [i16]) -> usize {
        let s = &*self.0;
        let tail = s.tail.load(Ordering::Relaxed);
        let head = s.head.load(Ordering::Acquire);
        let n = head.wrapping_sub(tail).min(out.len());
        for (i, dst) in out[..n].iter_mut().enumerate() {
            *dst = s.buf[tail.wrapping_add(i) & s.mask].load(Ordering::Relaxed);
        }
        s.tail.store(tail.wrapping_add(n), Ordering::Release);
        n
    }
    pub fn fill(&self) -> usize {
        self.0.fill()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_order_wraparound_and_overflow() {
        let (mut p, mut c) = ring(5);
        assert_eq!(p.capacity(), 8);
        assert_eq!(p.push(&[1, 2, 3, 4, 5, 6]), 6);
        let mut out = [0; 4];
        assert_eq!(c.pop(&mut out), 4);
        assert_eq!(out, [1, 2, 3, 4]);
        // Wraps around the end; only 6 of 7 fit (2 still queued).
        assert_eq!(p.push(&[7, 8, 9, 10, 11, 12, 13]), 6);
        assert_eq!(p.fill(), 8);
        let mut out = [0; 10];
        assert_eq!(c.pop(&mut out), 8);
        assert_eq!(&out[..8], &[5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(c.pop(&mut out), 0);
    }

    #[test]
    fn threads_see_every_sample_once_in_order() {
        let (mut p, mut c) = ring(64);
        let writer = std::thread::spawn(move || {
            let mut next = 0i16;
            while next < 20_000 {
                let chunk: Vec<i16> = (next..next.saturating_add(37).min(20_000)).collect();
                next += p.push(&chunk) as i16;
            }
        });
        let mut expected = 0i16;
        let mut buf = [0i16; 29];
        while expected < 20_000 {
            let n = c.pop(&mut buf);
            for v in &buf[..n] {
                assert_eq!(*v, expected);
                expected += 1;
            }
        }
        writer.join().unwrap();
    }
}
