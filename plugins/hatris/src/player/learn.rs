//! Learning the cartridge: waiting for a pair and calibrating, the level digits, the helper
//! screen, and comparing findings with the shipped map.

use super::{HatrisPlayer, PATIENCE, PROBE_EVERY, Phase};

/// Fork frames of RAM calibration run per game frame.
const CAL_GRANT: u64 = 40;
use crate::calib::{self, pair};
use crate::game::Game;
use crate::ram_map::{self, HelperMap, RamMap};
use nesmind_host::Frame;

impl HatrisPlayer {
    /// Looks for a falling pair; once one is there, calibrates on forks of this frame.
    pub(super) fn wait(&mut self, frame: &mut dyn Frame, next_probe: u64, warned: bool) {
        let n = frame.frame_number();
        if n < next_probe {
            return;
        }
        if frame.fork().is_none() {
            // Nothing can be tried out (an offline RAM-image host): a shipped map for this
            // very cartridge is the only way to play.
            let shipped = ram_map::shipped();
            let known = self
                .rom
                .as_ref()
                .and_then(|rom| ram_map::find(&shipped, rom))
                .filter(|m| m.piles != ram_map::PileLayout::Unknown)
                .cloned();
            return match known {
                Some(map) => {
                    log::info!(
                        "hatris: this host cannot fork; using the shipped map '{}'",
                        map.name
                    );
                    self.use_map(map);
                }
                None => self.fail(
                    frame,
                    "a way to try things out (this host cannot fork the machine) or a map for \
                     this cartridge"
                        .into(),
                ),
            };
        }
        let mut lab = calib::lab::new();
        let probe = pair::probe(&mut lab, &*frame);
        self.fork_frames += lab.frames();
        let found = match probe {
            Ok(found) => found,
            Err(e) => return self.fail(frame, format!("a way to try things out ({e})")),
        };
        let Some(pair) = found else {
            let warned = warned || n >= PATIENCE;
            if warned && n < PATIENCE + PROBE_EVERY && self.sight.is_none() {
                log::warn!(
                    "hatris: no falling pair after {} s; is this Hatris, and has a game started?",
                    PATIENCE / 60
                );
            }
            if self.sight.is_none() {
                frame.set_status(if warned {
                    "hatris: still no falling pair (not Hatris, or no game started?); pressing nothing"
                } else {
                    "hatris: waiting for a falling pair"
                });
            }
            self.phase = Phase::Waiting {
                next_probe: n + PROBE_EVERY,
                warned,
            };
            return;
        };
        let (file, crc32) = self
            .rom
            .as_ref()
            .map_or(("?".to_string(), 0), |r| (r.file_name.clone(), r.crc32));
        let name = format!("{file} (calibrated)");
        let Some(base) = frame.fork() else { return };
        // The experiments run a slice per frame on their own thread.
        let job = nesmind_host::sight::Job::start("hatris-ram-calibration", move |_m| {
            calib::calibrate(&base, &pair, &name, crc32)
        });
        self.phase = Phase::Calibrating(Box::new(job));
        if self.sight.is_none() {
            frame.set_status("hatris: calibrating on copies of the game");
        }
    }

    /// Advances RAM calibration by one frame's share; takes the map when it is done.
    pub(super) fn poll_calibration(&mut self, frame: &mut dyn Frame) {
        let Phase::Calibrating(job) = &mut self.phase else {
            return;
        };
        let Some(result) = job.step(CAL_GRANT) else {
            return;
        };
        let n = frame.frame_number();
        match result.and_then(|r| r) {
            Ok(c) => {
                self.fork_frames += c.fork_frames;
                if self.calibrated_at.is_none() {
                    self.calibrated_at = Some(n);
                }
                let line = format!(
                    "hatris: calibrated at frame {n} ({} frames on forks): {}; the game ended \
                     at {} px",
                    self.fork_frames,
                    calib::describe(&c.map),
                    c.ended_at
                );
                log::info!("{line}");
                self.compare_with_shipped(&c.map);
                if self.sight.is_none() {
                    frame.set_status(&line);
                }
                self.use_map(c.map);
            }
            Err(why) => self.fail(frame, why),
        }
    }

    /// With the picture player: RAM calibration runs beside it, and its map is only a
    /// shortcut the picture player checks; a failure costs the shortcut alone.
    pub(super) fn ram_beside(&mut self, frame: &mut dyn Frame) {
        match &self.phase {
            Phase::Waiting { next_probe, warned } => {
                let (n, w) = (*next_probe, *warned);
                self.wait(frame, n, w);
            }
            Phase::Calibrating(_) => self.poll_calibration(frame),
            Phase::Failed(_)
                if self.ram_failures < super::RAM_TRIES
                    && frame.frame_number() >= self.ram_retry_at =>
            {
                self.phase = Phase::Waiting {
                    next_probe: frame.frame_number(),
                    warned: true,
                };
            }
            Phase::Playing if self.map.is_none() => {
                // The map was dropped: calibrate again.
                self.phase = Phase::Waiting {
                    next_probe: frame.frame_number() + PROBE_EVERY,
                    warned: true,
                };
            }
            _ => {}
        }
    }

    /// Says where calibration agrees with the shipped map for this cartridge, if any.
    pub(super) fn compare_with_shipped(&self, found: &RamMap) {
        let shipped = ram_map::shipped();
        let Some(rom) = &self.rom else { return };
        let Some(known) = ram_map::find(&shipped, rom) else {
            return;
        };
        let mut differ = Vec::new();
        if known.falling != found.falling {
            differ.push("falling types");
        }
        if known.next != found.next {
            differ.push("next pair");
        }
        if known.column != found.column {
            differ.push("columns");
        }
        if known.y != found.y {
            differ.push("heights");
        }
        if known.piles != ram_map::PileLayout::Unknown && known.piles != found.piles {
            differ.push("piles");
        }
        if differ.is_empty() {
            log::info!(
                "hatris: calibration confirms the shipped map '{}'",
                known.name
            );
        } else {
            log::warn!(
                "hatris: calibration differs from the shipped map '{}' in: {}",
                known.name,
                differ.join(", ")
            );
        }
    }

    /// Follows the level digits' search and records them in the map once found.
    pub(super) fn find_level(
        &mut self,
        frame: &dyn Frame,
        map: &mut RamMap,
        cleared: u32,
        known: bool,
    ) {
        if map.shop.is_some() && map.stage.is_some() {
            return;
        }
        let now = nesmind_host::ramsearch::Snapshot::take(frame, true);
        self.level.spawn(now, cleared, known);
        if let (Some(stage), Some(shop)) = (self.level.found_stage, self.level.found_shop) {
            log::info!("hatris: the level digits are shop ${shop:04X}, stage ${stage:04X}");
            map.stage = Some(stage);
            map.shop = Some(shop);
            self.map = Some(map.clone());
            self.save();
        }
    }

    /// Tries B on a fork to learn the helper screen, now that a helper should be in the pool.
    pub(super) fn learn_helpers(&mut self, frame: &mut dyn Frame, map: &mut RamMap) {
        match calib::helpers::probe(&*frame, map) {
            Ok((screen, spent)) => {
                self.fork_frames += spent;
                self.tracker.seen(screen.as_ref().map(|s| s.helper));
                if let Some(s) = screen {
                    map.helpers = Some(HelperMap {
                        cursor: s.cursor,
                        cursor_code: s.cursor_code,
                        awards: self.tracker.awards(),
                        pool_count: None,
                        pool: None,
                    });
                    log::info!(
                        "hatris: helpers worked out ({} frames on forks): B calls {:?}; the \
                         cursor is ${:04X} (column = (byte - {}) / {})",
                        spent,
                        s.helper,
                        s.cursor,
                        s.cursor_code.offset,
                        s.cursor_code.step
                    );
                    self.map = Some(map.clone());
                    self.save();
                }
            }
            Err(why) => {
                log::warn!("hatris: could not find {why}; playing on without helpers");
                self.no_helpers = true;
            }
        }
    }

    /// Checks on a fork that B brings the helper the pool's count says; if not, corrects
    /// the count and `game`'s pool and returns false.
    pub(super) fn confirm_helper(
        &mut self,
        frame: &dyn Frame,
        map: &RamMap,
        game: &mut Game,
    ) -> bool {
        let expected = game.pool.last().copied();
        let seen = match calib::helpers::probe(frame, map) {
            Ok((screen, spent)) => {
                self.fork_frames += spent;
                screen.map(|s| s.helper)
            }
            Err(_) => None,
        };
        if seen == expected {
            return true;
        }
        log::debug!("hatris: expected helper {expected:?}, B brings {seen:?}");
        self.tracker.seen(seen);
        game.pool = self.tracker.pool().to_vec();
        false
    }
}
