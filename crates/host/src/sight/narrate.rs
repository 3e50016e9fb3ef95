//! What a player tells the person watching. The status line always says what the player is
//! doing or waiting for; a player that should be acting and is not says why on the status
//! line at once and, after a few seconds, as a warning in the log, so no stall is silent.
//! Both players use these conventions: lines start with the player's name, problems that
//! change what the player does are `info`, waits past patience are `warn`, refusals `error`.

use crate::Frame;

/// Frames (3 s) a player may wait, where it should be acting, before it warns.
pub const PATIENCE: u64 = 180;

#[derive(Clone, Debug)]
struct Wait {
    since: u64,
    why: String,
    warnings: u32,
}

/// The status line and the wait clock of one player.
#[derive(Clone, Debug)]
pub struct Narrator {
    who: &'static str,
    line: String,
    wait: Option<Wait>,
    patience: u64,
}

impl Narrator {
    pub fn new(who: &'static str) -> Narrator {
        Narrator {
            who,
            line: String::new(),
            wait: None,
            patience: PATIENCE,
        }
    }

    pub fn who(&self) -> &'static str {
        self.who
    }

    /// The status line last shown.
    pub fn line(&self) -> &str {
        &self.line
    }

    /// Shows `text` (prefixed with the player's name) on the status line. Hosts drop a
    /// line that is not repeated for a few seconds, so it is set again every call.
    pub fn say(&mut self, frame: &mut dyn Frame, text: &str) {
        let line = format!("{}: {text}", self.who);
        frame.set_status(&line);
        self.line = line;
    }

    /// Shows the last line again (call once a frame: hosts drop a line not repeated).
    pub fn refresh(&self, frame: &mut dyn Frame) {
        if !self.line.is_empty() {
            frame.set_status(&self.line);
        }
    }

    /// The player should act now but cannot, because `why`: shown at once, warned about
    /// after [`PATIENCE`] frames (and again after ten times as long if it goes on).
    pub fn waiting(&mut self, frame: &mut dyn Frame, why: &str) {
        let now = frame.frame_number();
        let w = self.wait.get_or_insert_with(|| Wait {
            since: now,
            why: String::new(),
            warnings: 0,
        });
        w.why = why.to_string();
        let waited = now.saturating_sub(w.since);
        let due = match w.warnings {
            0 => self.patience,
            n => self.patience * 10 * u64::from(n),
        };
        if waited >= due {
            w.warnings += 1;
            log::warn!(
                "{}: waiting for {:.1} s where it should act: {why}",
                self.who,
                waited as f64 / 60.0
            );
        }
        self.say(frame, why);
    }

    /// The wait (if any) is over: the player acted, or it is not its turn.
    pub fn acted(&mut self) {
        self.wait = None;
    }

    /// Frames the current wait has lasted, if the player is waiting.
    pub fn waited(&self, now: u64) -> Option<u64> {
        self.wait.as_ref().map(|w| now.saturating_sub(w.since))
    }

    /// Why the player is waiting, if it is.
    pub fn waiting_for(&self) -> Option<&str> {
        self.wait.as_ref().map(|w| w.why.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Buttons, Frame};

    struct Clock {
        n: u64,
        status: String,
    }
    impl Frame for Clock {
        fn frame_number(&self) -> u64 {
            self.n
        }
        fn peek(&self, _: u16) -> u8 {
            0
        }
        fn ram(&self) -> &[u8] {
            &[]
        }
        fn poke(&mut self, _: u16, _: u8) {}
        fn picture(&self) -> &[u16] {
            &[]
        }
        fn set_buttons(&mut self, _: usize, _: Buttons) {}
        fn buttons(&self, _: usize) -> Buttons {
            Buttons::NONE
        }
        fn set_status(&mut self, line: &str) {
            self.status = line.to_string();
        }
    }

    #[test]
    fn a_wait_shows_at_once_and_counts_until_acted() {
        let mut f = Clock {
            n: 100,
            status: String::new(),
        };
        let mut n = Narrator::new("spot");
        n.waiting(
            &mut f,
            "cell code $41 at c4 not understood: pressing nothing",
        );
        assert_eq!(
            f.status,
            "spot: cell code $41 at c4 not understood: pressing nothing"
        );
        f.n = 400;
        n.waiting(&mut f, "still");
        assert_eq!(n.waited(400), Some(300));
        assert_eq!(n.waiting_for(), Some("still"));
        n.acted();
        assert_eq!(n.waited(400), None);
    }
}
