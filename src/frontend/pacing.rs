//! Emulation speed: `max`, or a multiple of the NTSC frame rate, paced without drift.

use std::time::{Duration, Instant};

/// NTSC frames per second: 21.477272 MHz master clock / (4 * 341 * 262 - 2 dots).
pub const NTSC_FPS: f64 = 60.0988;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Speed {
    Max,
    /// A multiple of real time (1 = 60.0988 frames per second).
    Times(f64),
}

impl std::str::FromStr for Speed {
    type Err = String;
    fn from_str(s: &str) -> Result<Speed, String> {
        if s.eq_ignore_ascii_case("max") {
            return Ok(Speed::Max);
        }
        match s.parse::<f64>() {
            Ok(x) if x > 0.0 && x.is_finite() => Ok(Speed::Times(x)),
            _ => Err(format!(
                "'{s}' is not a speed: use max, 1 (real time) or a multiple such as 0.5 or 4"
            )),
        }
    }
}

/// Sleeps to deadlines computed from the start time, so rounding never accumulates.
pub struct Pacer {
    speed: Speed,
    start: Instant,
    frames: u64,
}

impl Pacer {
    pub fn new(speed: Speed) -> Pacer {
        Pacer {
            speed,
            start: Instant::now(),
            frames: 0,
        }
    }
    pub fn speed(&self) -> Speed {
        self.speed
    }
    /// Changes speed from now on (the deadline schedule restarts).
    pub fn set_speed(&mut self, speed: Speed) {
        *self = Pacer::new(speed);
    }
    /// Call once per emulated frame; returns after that frame's deadline.
    pub fn wait(&mut self) {
        self.frames += 1;
        let Speed::Times(x) = self.speed else { return };
        let due = self.start + Duration::from_secs_f64(self.frames as f64 / (NTSC_FPS * x));
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        } else if now - due > Duration::from_millis(250) {
            // Far behind (a stall, a debugger): restart the schedule instead of racing.
            self.start = now;
            self.frames = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn speed_parses_and_refuses() {
        assert_eq!("max".parse::<Speed>(), Ok(Speed::Max));
        assert_eq!("2".parse::<Speed>(), Ok(Speed::Times(2.0)));
        assert!("0".parse::<Speed>().unwrap_err().contains("'0'"));
        assert!("fast".parse::<Speed>().is_err());
    }
}
