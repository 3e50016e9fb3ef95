//! Experiments on forks as a person would make them at the pad: press a button, wait until
//! the picture stops moving, look. Every emulated frame is charged to a [`Meter`], so an
//! experiment run as a [`Job`](super::job::Job) costs the game a bounded slice of each
//! frame.

use super::job::Meter;
use super::picture::{Picture, PixelMask, Rect};
use crate::{Buttons, Fork, Frame};

/// Runs forks frame by frame, charging the meter.
pub struct Lab<'m> {
    meter: &'m mut Meter,
    /// Frames a press is held, and then released for as long (games read pads once a
    /// frame, some only every other frame, and act on new presses).
    pub hold: u64,
}

impl<'m> Lab<'m> {
    pub fn new(meter: &'m mut Meter, hold: u64) -> Lab<'m> {
        Lab {
            meter,
            hold: hold.max(1),
        }
    }

    /// Emulated frames run so far through this meter.
    pub fn frames(&self) -> u64 {
        self.meter.spent()
    }

    pub fn meter(&mut self) -> &mut Meter {
        self.meter
    }

    /// Runs `n` frames holding the fork's current buttons.
    pub fn run(&mut self, f: &mut Fork, n: u64) -> Result<(), String> {
        for _ in 0..n {
            self.meter.charge(1)?;
            f.run_frame()?;
        }
        Ok(())
    }

    /// One press: `b` held on `pad` for `hold` frames, then released for as long.
    pub fn tap(&mut self, f: &mut Fork, pad: usize, b: Buttons) -> Result<(), String> {
        f.set_buttons(pad, b);
        self.run(f, self.hold)?;
        f.set_buttons(pad, Buttons::NONE);
        self.run(f, self.hold)
    }

    /// Runs until the picture inside `region` has stayed the same for `still` frames in a
    /// row; the settled picture, or `None` if it still moved after `max` frames (an
    /// animation that never ends there, or a game that keeps scrolling).
    pub fn settle(
        &mut self,
        f: &mut Fork,
        region: Rect,
        still: u32,
        max: u64,
    ) -> Result<Option<Picture>, String> {
        self.settle_except(f, region, &PixelMask::new(), still, max)
    }

    /// As [`Lab::settle`], not counting changes of the pixels in `ignore` (things that
    /// animate by themselves).
    pub fn settle_except(
        &mut self,
        f: &mut Fork,
        region: Rect,
        ignore: &PixelMask,
        still: u32,
        max: u64,
    ) -> Result<Option<Picture>, String> {
        let Some(mut last) = Picture::take(f) else {
            return Ok(None);
        };
        let mut same = 0;
        for _ in 0..max {
            self.run(f, 1)?;
            let Some(now) = Picture::take(f) else {
                return Ok(None);
            };
            if now.same_except(&last, region, ignore) {
                same += 1;
                if same >= still {
                    return Ok(Some(now));
                }
            } else {
                same = 0;
            }
            last = now;
        }
        Ok(None)
    }

    /// A copy of `f` after one press of `b` on `pad`, settled (see [`Lab::settle`]).
    pub fn after_tap(
        &mut self,
        f: &Fork,
        pad: usize,
        b: Buttons,
        region: Rect,
        still: u32,
        max: u64,
    ) -> Result<(Fork, Option<Picture>), String> {
        let mut g = f.clone();
        self.tap(&mut g, pad, b)?;
        let pic = self.settle(&mut g, region, still, max)?;
        Ok((g, pic))
    }
}

/// Releases every pad of a fork taken from the running game (the real game's held buttons
/// come along in the copy).
pub fn release_all(f: &mut Fork) {
    for pad in 0..4 {
        f.set_buttons(pad, Buttons::NONE);
    }
}

/// Counts how long the real game's picture has been still, frame by frame.
#[derive(Clone, Debug, Default)]
pub struct Stillness {
    last: Option<Picture>,
    region: Option<Rect>,
    ignore: PixelMask,
    frames: u32,
}

impl Stillness {
    /// Watches `region` only (the board, the well), or the whole screen.
    pub fn new(region: Option<Rect>) -> Stillness {
        Stillness {
            last: None,
            region,
            ignore: PixelMask::new(),
            frames: 0,
        }
    }

    /// Not counting changes of the pixels in `ignore` (things that animate by themselves).
    pub fn ignoring(mut self, ignore: PixelMask) -> Stillness {
        self.ignore = ignore;
        self
    }

    pub fn set_region(&mut self, region: Option<Rect>) {
        if self.region != region {
            self.region = region;
            self.frames = 0;
        }
    }

    /// Takes this frame's picture; returns for how many frames before it the watched
    /// region has not changed (0: it just changed).
    pub fn observe(&mut self, pic: &Picture) -> u32 {
        let r = self.region.unwrap_or(Rect::SCREEN);
        self.frames = match &self.last {
            Some(l) if l.same_except(pic, r, &self.ignore) => self.frames.saturating_add(1),
            _ => 0,
        };
        self.last = Some(pic.clone());
        self.frames
    }

    pub fn still_for(&self) -> u32 {
        self.frames
    }

    /// The last picture observed.
    pub fn picture(&self) -> Option<&Picture> {
        self.last.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stillness_counts_frames_without_change_in_its_region() {
        let mut s = Stillness::new(Some(Rect::new(0, 0, 16, 16)));
        let a = Picture::filled(1);
        let mut b = a.clone();
        assert_eq!(s.observe(&a), 0);
        assert_eq!(s.observe(&a), 1);
        b.set(100, 100, 5); // outside the region
        assert_eq!(s.observe(&b), 2);
        b.set(3, 3, 5);
        assert_eq!(s.observe(&b), 0);
        assert_eq!(s.observe(&b), 1);
        s.set_region(None);
        assert_eq!(s.still_for(), 0);
    }
}
