//! Presses proven on a fork, then given to the real game. A player works out on a fork what
//! to press, frame by frame, and checks there (from the picture) that it does what it
//! should; the frames make a [`Tape`]. Replayed from the same state, the real game does
//! the same, so [`TapeRun`] hands the tape's buttons to the real game one frame at a time
//! and compares the real picture with the fork's at checkpoints: a difference (a person at
//! another pad, a game that is not deterministic) stops the tape at once.

use super::lab::Lab;
use super::picture::{Picture, PixelMask, Rect, Shot};
use crate::{Buttons, Fork, Frame};

/// The presses of a plan, and what the real game must show on the way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tape {
    pub pad: usize,
    /// Buttons for each frame from the fork's start.
    pub frames: Vec<Buttons>,
    /// (frame index, hash of `region`) the picture must show before that frame's buttons.
    pub checks: Vec<(usize, u64)>,
    /// The region the checks hash.
    pub region: Rect,
    /// The fork's pictures at the checks (to say what differed).
    pub pictures: Vec<Picture>,
    /// Frames up to the press that commits the plan; the rest only waits for it to show.
    pub committed: usize,
}

impl Tape {
    pub fn new(pad: usize, region: Rect) -> Tape {
        Tape {
            pad,
            region,
            ..Tape::default()
        }
    }
}

/// A fork that writes down every frame it runs onto a tape.
pub struct Taped<'a> {
    pub fork: Fork,
    pub tape: &'a mut Tape,
}

impl Taped<'_> {
    /// Runs `n` frames holding `b` on the tape's pad.
    pub fn run(&mut self, lab: &mut Lab, b: Buttons, n: u64) -> Result<(), String> {
        self.fork.set_buttons(self.tape.pad, b);
        lab.run(&mut self.fork, n)?;
        self.tape.frames.extend((0..n).map(|_| b));
        Ok(())
    }

    /// One press: held for the lab's hold, released as long.
    pub fn tap(&mut self, lab: &mut Lab, b: Buttons) -> Result<(), String> {
        let hold = lab.hold;
        self.run(lab, b, hold)?;
        self.run(lab, Buttons::NONE, hold)
    }

    /// Runs released until `region` has been still for `still` frames (not counting `live`
    /// pixels), at most `max` frames.
    pub fn settle(
        &mut self,
        lab: &mut Lab,
        region: Rect,
        live: &PixelMask,
        still: u32,
        max: u64,
    ) -> Result<Shot, String> {
        let start = self.fork.frame_number();
        self.fork.set_buttons(self.tape.pad, Buttons::NONE);
        let settled = lab.settle_except(&mut self.fork, region, live, still, max)?;
        let n = self.fork.frame_number() - start;
        self.tape.frames.extend((0..n).map(|_| Buttons::NONE));
        if settled.is_none() {
            return Err(format!("the picture did not settle within {max} frames"));
        }
        Shot::take(&self.fork).ok_or_else(|| "this host has no picture".to_string())
    }

    /// The real picture must look like this fork's now.
    pub fn checkpoint(&mut self) -> Result<(), String> {
        let pic = Picture::take(&self.fork).ok_or("no picture")?;
        self.tape
            .checks
            .push((self.tape.frames.len(), pic.hash_rect(self.tape.region)));
        self.tape.pictures.push(pic);
        Ok(())
    }

    /// Marks the plan committed here: what follows only waits for it to show.
    pub fn commit(&mut self) {
        self.tape.committed = self.tape.frames.len();
    }

    pub fn shot(&self) -> Result<Shot, String> {
        Shot::take(&self.fork).ok_or_else(|| "this host has no picture".to_string())
    }
}

/// What a tape did this frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TapeStep {
    /// Its buttons for this frame are set.
    Pressed,
    /// It is over (every press made, every check passed).
    Done,
    /// The real picture differed from the fork's: the tape stopped. `after_commit` says
    /// whether the plan's committing press had already been made (then only the waiting
    /// was cut short, usually because something else moved the game on).
    Diverged { what: String, after_commit: bool },
}

/// A tape being played into the real game.
#[derive(Clone, Debug)]
pub struct TapeRun {
    pub tape: Tape,
    at: usize,
}

impl TapeRun {
    pub fn new(tape: Tape) -> TapeRun {
        TapeRun { tape, at: 0 }
    }

    /// Frames played so far.
    pub fn at(&self) -> usize {
        self.at
    }

    /// Checks this frame's picture if a checkpoint falls here, then sets the next buttons.
    pub fn step(&mut self, frame: &mut dyn Frame) -> TapeStep {
        let pad = self.tape.pad;
        if let Some(k) = self.tape.checks.iter().position(|(i, _)| *i == self.at) {
            let want = self.tape.checks[k].1;
            let real = Picture::take(frame);
            if real
                .as_ref()
                .is_none_or(|p| p.hash_rect(self.tape.region) != want)
            {
                let diff = real.map(|p| self.tape.pictures[k].changes_in(&p, self.tape.region));
                frame.set_buttons(pad, Buttons::NONE);
                return TapeStep::Diverged {
                    what: format!(
                        "the game did not look as the fork did {} frames in ({} pixels differ in {:?})",
                        self.at,
                        diff.as_ref().map_or(0, |d| d.count()),
                        diff.and_then(|d| d.bounds)
                    ),
                    after_commit: self.at > self.tape.committed,
                };
            }
        }
        match self.tape.frames.get(self.at) {
            Some(&b) => {
                frame.set_buttons(pad, b);
                self.at += 1;
                TapeStep::Pressed
            }
            None => {
                frame.set_buttons(pad, Buttons::NONE);
                TapeStep::Done
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame whose picture is one colour, recording the buttons set.
    struct Still {
        px: Vec<u16>,
        pressed: Vec<Buttons>,
    }
    impl Frame for Still {
        fn frame_number(&self) -> u64 {
            0
        }
        fn peek(&self, _: u16) -> u8 {
            0
        }
        fn ram(&self) -> &[u8] {
            &[]
        }
        fn poke(&mut self, _: u16, _: u8) {}
        fn picture(&self) -> &[u16] {
            &self.px
        }
        fn set_buttons(&mut self, _: usize, b: Buttons) {
            self.pressed.push(b);
        }
        fn buttons(&self, _: usize) -> Buttons {
            Buttons::NONE
        }
    }

    fn tape_checking_at(i: usize, colour: u8) -> Tape {
        let mut t = Tape::new(1, Rect::SCREEN);
        t.frames = vec![Buttons::A, Buttons::NONE, Buttons::LEFT];
        let pic = Picture::filled(colour);
        t.checks = vec![(i, pic.hash_rect(Rect::SCREEN))];
        t.pictures = vec![pic];
        t.committed = 1;
        t
    }

    #[test]
    fn a_tape_plays_its_frames_while_the_picture_matches() {
        let mut f = Still {
            px: vec![5; 256 * 240],
            pressed: Vec::new(),
        };
        let mut run = TapeRun::new(tape_checking_at(2, 5));
        for _ in 0..3 {
            assert_eq!(run.step(&mut f), TapeStep::Pressed);
        }
        assert_eq!(run.step(&mut f), TapeStep::Done);
        assert_eq!(
            f.pressed,
            vec![Buttons::A, Buttons::NONE, Buttons::LEFT, Buttons::NONE]
        );
    }

    #[test]
    fn a_different_picture_stops_the_tape_and_says_whether_it_was_committed() {
        let mut f = Still {
            px: vec![5; 256 * 240],
            pressed: Vec::new(),
        };
        let mut run = TapeRun::new(tape_checking_at(1, 6));
        assert_eq!(run.step(&mut f), TapeStep::Pressed);
        match run.step(&mut f) {
            TapeStep::Diverged { what, after_commit } => {
                assert!(!after_commit);
                assert!(what.contains("61440 pixels differ"), "{what}");
            }
            s => panic!("{s:?}"),
        }
        let mut run = TapeRun::new(tape_checking_at(2, 6));
        run.step(&mut f);
        run.step(&mut f);
        assert!(matches!(
            run.step(&mut f),
            TapeStep::Diverged {
                after_commit: true,
                ..
            }
        ));
        assert_eq!(*f.pressed.last().unwrap(), Buttons::NONE);
    }
}
