//! Experiments on forks as a person would make them at the pad: press a button, run some
//! frames, then look at the picture (wait until it stops moving) or at memory (what the
//! press changed against a copy left alone). Every emulated frame is counted and charged to
//! a [`Meter`] (or to the job the thread runs), so an experiment run as a
//! [`Job`](super::job::Job) costs the game a bounded slice of each frame.

use super::job::{Meter, charge_current};
use super::picture::{Picture, PixelMask, Rect};
use crate::ramsearch::Snapshot;
use crate::{Buttons, Fork, Frame};

/// Runs forks frame by frame, counting the frames and charging them.
pub struct Lab<'m> {
    /// `None`: charge the job this thread runs, if any ([`charge_current`]).
    meter: Option<&'m mut Meter>,
    frames: u64,
    /// Frames a press is held, and then released for as long (games read pads once a
    /// frame, some only every other frame, and act on new presses).
    pub hold: u64,
}

/// What a press did to memory, per byte: the pressed fork's value minus the untouched one's.
pub type Effect = Vec<(u16, u8)>;

impl<'m> Lab<'m> {
    /// A lab charging `meter`.
    pub fn new(meter: &'m mut Meter, hold: u64) -> Lab<'m> {
        Lab {
            meter: Some(meter),
            frames: 0,
            hold: hold.max(1),
        }
    }

    /// A lab charging the job this thread runs, if any.
    pub fn on_job(hold: u64) -> Lab<'static> {
        Lab {
            meter: None,
            frames: 0,
            hold: hold.max(1),
        }
    }

    /// Emulated frames run so far through this lab.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Runs `n` frames holding the fork's current buttons.
    pub fn run(&mut self, f: &mut Fork, n: u64) -> Result<(), String> {
        for _ in 0..n {
            match self.meter.as_deref_mut() {
                Some(m) => m.charge(1)?,
                None => charge_current(1)?,
            }
            f.run_frame()?;
            self.frames += 1;
        }
        Ok(())
    }

    /// Holds `b` on `pad` for `n` frames (and leaves it held).
    pub fn hold_for(&mut self, f: &mut Fork, pad: usize, b: Buttons, n: u64) -> Result<(), String> {
        f.set_buttons(pad, b);
        self.run(f, n)
    }

    /// One press: `b` held on `pad` for `hold` frames, then released for as long.
    pub fn tap(&mut self, f: &mut Fork, pad: usize, b: Buttons) -> Result<(), String> {
        self.tap_then(f, pad, b, self.hold)
    }

    /// `b` held on `pad` for `hold` frames, then released for `settle` frames.
    pub fn tap_then(
        &mut self,
        f: &mut Fork,
        pad: usize,
        b: Buttons,
        settle: u64,
    ) -> Result<(), String> {
        self.hold_for(f, pad, b, self.hold)?;
        self.hold_for(f, pad, Buttons::NONE, settle)
    }

    /// A copy of `f` after `presses` presses of `b` on `pad`, then left alone until
    /// `frames` frames have passed in all.
    pub fn after(
        &mut self,
        f: &Fork,
        pad: usize,
        b: Buttons,
        presses: u64,
        frames: u64,
    ) -> Result<Fork, String> {
        let mut g = f.clone();
        for _ in 0..presses {
            self.tap(&mut g, pad, b)?;
        }
        let spent = presses * 2 * self.hold;
        self.hold_for(&mut g, pad, Buttons::NONE, frames.saturating_sub(spent))?;
        Ok(g)
    }

    /// Memory of a copy of `base` left alone for as long as a press and `settle` frames.
    pub fn control(&mut self, base: &Fork, settle: u64) -> Result<Snapshot, String> {
        let mut f = base.clone();
        self.run(&mut f, self.hold + settle)?;
        Ok(Snapshot::take(&f, true))
    }

    /// The bytes a press of `b` on `pad` (then `settle` frames) changed on a copy of
    /// `base`, against `control` (see [`Lab::control`], with the same `settle`).
    pub fn effect(
        &mut self,
        base: &Fork,
        control: &Snapshot,
        pad: usize,
        b: Buttons,
        settle: u64,
    ) -> Result<Effect, String> {
        let mut f = base.clone();
        self.tap_then(&mut f, pad, b, settle)?;
        let pressed = Snapshot::take(&f, true);
        let at = |s: &Snapshot, a: u16| s.byte(a).unwrap_or(0);
        Ok(control
            .differing(&pressed)
            .into_iter()
            .map(|a| (a, at(&pressed, a).wrapping_sub(at(control, a))))
            .collect())
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

/// A copy of the machine behind `frame`, or why there is none (a RAM-image host).
pub fn fork_of(frame: &dyn Frame) -> Result<Fork, String> {
    frame
        .fork()
        .ok_or_else(|| "this host cannot fork the machine, so nothing can be tried out".into())
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
