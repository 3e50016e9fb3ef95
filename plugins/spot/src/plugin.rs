//! The Spot plug-in: reads the game from RAM through the cartridge's RAM map and plays its
//! seats by pressing pad buttons like a person would.

use super::board::{ADJACENT, Bits};
use super::moves::{Kind, Move};
use super::pad_plan::{Plan, Step, direction, move_steps};
use super::players::{Seat, SeatKind, default_algorithm};
use super::position::{MAX_PLAYERS, Outcome, Position};
use super::ram_map::{BUILTIN_RAM_MAPS, RamMap, find_ram_map, load_ram_maps, parse_ram_maps};
use nesmind_host::{Buttons, Frame, Plugin, PluginOptions, RomInfo, Setup};
use nesmind_search::Algorithm;
use std::time::Duration;

/// Frames to wait for the game to react to a committed move before planning again.
const REACTION_FRAMES: u32 = 240;

pub struct SpotPlugin {
    maps: Vec<RamMap>,
    map: Option<RamMap>,
    /// RAM player slots to play (0-based); `None` plays every human slot.
    seats: Option<Vec<usize>>,
    algorithm: Option<Algorithm>,
    /// Expect the other seats to play like the cartridge's AI model.
    model: bool,
    move_time: Duration,
    /// `move_nodes` / `depth`: a reproducible budget per move instead of `move_time`.
    move_nodes: Option<u64>,
    depth: Option<u32>,
    players: Vec<Option<Seat>>,
    plan: Option<Plan>,
    /// Pad whose buttons must be released this frame.
    release: Option<usize>,
    /// The prize move won in the bonus game, entered once the game asks for it.
    pending_prize: Option<Move>,
    last_position: Option<(Position, Vec<usize>)>,
    was_playing: bool,
    pub moves_entered: u64,
    pub games: u32,
    pub wins: u32,
    pub errors: Vec<String>,
}

impl SpotPlugin {
    pub fn from_options(opts: &PluginOptions) -> Result<SpotPlugin, String> {
        let mut plugin = SpotPlugin {
            maps: parse_ram_maps(BUILTIN_RAM_MAPS, "built-in RAM maps")?,
            map: None,
            seats: None,
            algorithm: None,
            model: true,
            move_time: Duration::from_millis(200),
            move_nodes: None,
            depth: None,
            players: (0..MAX_PLAYERS).map(|_| None).collect(),
            plan: None,
            release: None,
            pending_prize: None,
            last_position: None,
            was_playing: false,
            moves_entered: 0,
            games: 0,
            wins: 0,
            errors: Vec::new(),
        };
        for (key, value) in opts {
            match key.as_str() {
                "ram_map" => plugin.maps = load_ram_maps(value)?,
                "seats" => plugin.seats = Some(parse_slots(value)?),
                "search" => plugin.algorithm = Some(Algorithm::parse(value)?),
                "model" => {
                    plugin.model = match value.as_str() {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(format!("model: '{value}' is not on/off")),
                    }
                }
                "move_ms" => {
                    let ms: u64 = value.parse().map_err(|_| {
                        format!("move_ms: '{value}' is not a number of milliseconds")
                    })?;
                    plugin.move_time = Duration::from_millis(ms.max(1));
                }
                "move_nodes" => {
                    plugin.move_nodes =
                        Some(value.parse().map_err(|_| {
                            format!("move_nodes: '{value}' is not a number of nodes")
                        })?);
                }
                "depth" => {
                    plugin.depth = Some(
                        value
                            .parse()
                            .map_err(|_| format!("depth: '{value}' is not a number of plies"))?,
                    );
                }
                _ => {
                    return Err(format!(
                        "unknown spot option '{key}' (ram_map, seats, search, model, move_ms, move_nodes, depth)"
                    ));
                }
            }
        }
        Ok(plugin)
    }

    fn plays(&self, map: &RamMap, ram: &[u8], slot: usize) -> bool {
        match &self.seats {
            Some(s) => s.contains(&slot),
            None => map.is_human(ram, slot),
        }
    }

    fn seat(&mut self, slot: usize, players: usize) -> &mut Seat {
        let algorithm = self.algorithm.unwrap_or_else(|| default_algorithm(players));
        let kind = if self.model {
            SeatKind::Modeled(algorithm)
        } else {
            SeatKind::Search(algorithm)
        };
        let (move_time, nodes, depth) = (self.move_time, self.move_nodes, self.depth);
        self.players[slot].get_or_insert_with(|| {
            let mut seat = Seat::new(kind, players, move_time, 0x5EED + slot as u64);
            if nodes.is_some() || depth.is_some() {
                seat.set_fixed_budget(nodes, depth);
            }
            seat
        })
    }

    /// Starts a plan for the current situation, or leaves none when nothing is to be done.
    fn make_plan(
        &mut self,
        map: &RamMap,
        ram: &[u8],
        slot: usize,
        bonus: bool,
    ) -> Result<Option<Plan>, String> {
        let pad = map.pad_of_player[slot];
        let mode = ram[map.prize_mode as usize];
        let prize_input = !bonus && (mode == map.prize_cherry || mode == map.prize_swap);
        let (pos, slots) = map.decode(ram, bonus || prize_input)?;
        if pos.is_over() {
            return Ok(None);
        }
        let mut legal = Vec::new();
        pos.generate(&mut legal);
        let (mv, steps) = if bonus {
            let mv = self.seat(slot, pos.players()).choose(&pos);
            self.pending_prize = Some(mv);
            let symbol = match mv.kind {
                Kind::ExtraTurn => map.reel_spot,
                Kind::Cherry => map.reel_cherry,
                Kind::Swap => map.reel_arcadia,
                _ => map.reel_seven_up,
            };
            let lead = map.reel_stop_lead % map.reel_positions;
            let position = (symbol + map.reel_positions - lead) % map.reel_positions;
            (
                mv,
                (0..3)
                    .map(|reel| Step::StopReel { reel, position })
                    .collect(),
            )
        } else if prize_input {
            let kind = if mode == map.prize_cherry {
                Kind::Cherry
            } else {
                Kind::Swap
            };
            let mv = match self
                .pending_prize
                .take()
                .filter(|m| m.kind == kind && legal.contains(m))
            {
                Some(m) => m,
                None => best_prize_of_kind(&pos, &legal, kind)
                    .ok_or("the game asks for a prize move that has no legal choice")?,
            };
            let steps = if kind == Kind::Cherry {
                move_steps(mv.from, mv.to)
            } else {
                let cell = Bits(pos.pieces(mv.to as usize))
                    .next()
                    .ok_or("swap partner has no pieces")?;
                vec![Step::Cursor(cell), Step::PressA { cell, last: true }]
            };
            (mv, steps)
        } else {
            if legal == [Move::PASS] {
                return Ok(None); // the game passes by itself
            }
            let mv = self.seat(slot, pos.players()).choose(&pos);
            if !legal.contains(&mv) || mv.kind != Kind::Step {
                return Err(format!("search returned {mv}, not a legal step"));
            }
            let me = pos.pieces(pos.to_move());
            let source = if mv.is_clone() {
                Bits(ADJACENT[mv.to as usize] & me)
                    .next()
                    .ok_or("clone without a source")?
            } else {
                mv.from
            };
            (mv, move_steps(source, mv.to))
        };
        self.last_position = Some((pos, slots));
        Ok(Some(Plan {
            slot,
            phase: if bonus {
                1
            } else if prize_input {
                2
            } else {
                0
            },
            pad,
            steps,
            next: 0,
            board: map.board_bytes(ram).to_vec(),
            mv,
            idle: 0,
        }))
    }

    /// Advances the plan by at most one button press.
    fn drive(&mut self, map: &RamMap, frame: &mut dyn Frame) {
        let Some(plan) = self.plan.as_mut() else {
            return;
        };
        let ram = frame.ram();
        if map.board_bytes(ram) != plan.board.as_slice() {
            // The board moved under us (our move landed, or a plan went stale): plan afresh.
            self.plan = None;
            return;
        }
        let cursor = ram[map.cursor as usize];
        while let Some(&step) = plan.steps.get(plan.next) {
            match step {
                Step::Cursor(cell) if cursor == cell => plan.next += 1,
                Step::Cursor(cell) => {
                    press(frame, plan.pad, direction(cursor, cell), &mut self.release);
                    return;
                }
                Step::PressA { cell, last } => {
                    if cursor != cell {
                        plan.steps.insert(plan.next, Step::Cursor(cell));
                        continue;
                    }
                    if last && !still_legal(map, frame.ram(), plan.mv) {
                        self.errors
                            .push(format!("{} no longer legal; not entered", plan.mv));
                        self.plan = None;
                        return;
                    }
                    press(frame, plan.pad, Buttons::A, &mut self.release);
                    plan.next += 1;
                    if last {
                        self.moves_entered += 1;
                        frame.set_status(&format!(
                            "spot: slot {} plays {}",
                            plan.slot + 1,
                            plan.mv
                        ));
                    }
                    return;
                }
                Step::StopReel { reel, position } => {
                    if ram[map.reels as usize + reel] == position {
                        press(frame, plan.pad, Buttons::A, &mut self.release);
                        plan.next += 1;
                    }
                    return;
                }
            }
        }
        plan.idle += 1;
        if plan.idle > REACTION_FRAMES {
            self.plan = None;
        }
    }

    fn note_game_end(&mut self, map: &RamMap, ram: &[u8]) {
        self.games += 1;
        if let Ok((pos, slots)) = map.decode(ram, false)
            && let Outcome::Win(p) = pos.ranking_outcome()
            && self.plays(map, ram, slots[p])
        {
            self.wins += 1;
        }
        self.players.iter_mut().for_each(|s| *s = None);
    }
}

fn press(frame: &mut dyn Frame, pad: usize, buttons: Buttons, release: &mut Option<usize>) {
    frame.set_buttons(pad, buttons);
    *release = Some(pad);
}

/// Re-reads the position and checks that `mv` is still among its legal moves.
fn still_legal(map: &RamMap, ram: &[u8], mv: Move) -> bool {
    let prize = matches!(mv.kind, Kind::Cherry | Kind::Swap);
    let Ok((pos, _)) = map.decode(ram, prize) else {
        return false;
    };
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    legal.contains(&mv)
}

/// The prize move of `kind` with the best immediate heuristic (used when the game asks for a
/// prize the search did not plan, e.g. after a missed reel).
fn best_prize_of_kind(pos: &Position, legal: &[Move], kind: Kind) -> Option<Move> {
    let me = pos.to_move();
    legal
        .iter()
        .filter(|m| m.kind == kind)
        .max_by_key(|&&m| {
            let next = pos.play(m);
            nesmind_search::zero_sum(&super::eval::heuristic(&next), pos.players())[me]
        })
        .copied()
}

fn parse_slots(text: &str) -> Result<Vec<usize>, String> {
    text.split(',')
        .map(|s| match s.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_PLAYERS).contains(&n) => Ok(n - 1),
            _ => Err(format!("seats: '{s}' is not a player slot 1-4")),
        })
        .collect()
}

impl Plugin for SpotPlugin {
    fn name(&self) -> &str {
        "spot"
    }
    fn description(&self) -> &str {
        "Plays Spot seats with an N-player search, through the pads"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        let map = find_ram_map(&self.maps, rom)?.clone();
        let pads = match &self.seats {
            Some(s) => s
                .iter()
                .map(|&slot| map.pad_of_player[slot] + 1)
                .max()
                .unwrap_or(1),
            None => MAX_PLAYERS,
        };
        setup.use_pads(pads);
        self.map = Some(map);
        Ok(())
    }

    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let Some(map) = self.map.clone() else { return };
        if let Some(pad) = self.release.take() {
            frame.set_buttons(pad, Buttons::NONE);
            return;
        }
        let ram = frame.ram();
        let bonus = ram[map.bonus_game as usize] == map.bonus_game_active;
        let playing = ram[map.mode as usize] == map.mode_playfield
            && (bonus || ram[map.playing as usize] != 0);
        if !playing {
            if self.was_playing {
                let ram = ram.to_vec();
                self.note_game_end(&map, &ram);
            }
            self.was_playing = false;
            self.plan = None;
            return;
        }
        self.was_playing = true;
        if !bonus && ram[map.animation as usize] != map.animation_idle {
            return;
        }
        let slot = ram[map.current_player as usize] as usize;
        if slot >= MAX_PLAYERS || !self.plays(&map, ram, slot) {
            self.plan = None;
            return;
        }
        // A plan belongs to one player and one phase (turn, reels, prize move).
        let phase = if bonus {
            1
        } else if ram[map.prize_mode as usize] != map.prize_none {
            2
        } else {
            0
        };
        if self
            .plan
            .as_ref()
            .is_some_and(|p| p.slot != slot || p.phase != phase)
        {
            self.plan = None;
        }
        if self.plan.is_none() {
            let ram = ram.to_vec();
            match self.make_plan(&map, &ram, slot, bonus) {
                Ok(p) => self.plan = p,
                Err(e) => {
                    log::warn!("spot: {e}");
                    self.errors.push(e);
                    return;
                }
            }
        }
        self.drive(&map, frame);
    }

    fn result(&self) -> Option<String> {
        Some(format!(
            "spot: {} moves entered, {} games, {} won",
            self.moves_entered, self.games, self.wins
        ))
    }
}
