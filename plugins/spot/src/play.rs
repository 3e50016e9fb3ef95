//! Turning a decision into button presses: the plan for a turn (a move, the bonus reels or
//! a prize move) and the next press it needs, read back from RAM each frame. The same code
//! drives the real game and the forks a plan is tried on first.

use super::board::{ADJACENT, Bits};
use super::map_read::Memory;
use super::moves::{Kind, Move};
use super::pad_plan::{Plan, Step, direction, move_steps};
use super::position::Position;
use super::ram_map::RamMap;
use nesmind_host::Buttons;

/// What a plan wants this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Press these buttons on the plan's pad (the move is committed if `commits`).
    Press { buttons: Buttons, commits: bool },
    /// Nothing to press yet (a reel still turning, the game still reacting).
    Wait,
    /// The board changed under the plan: it is done or stale.
    BoardChanged,
    /// The cursor cannot be read.
    Lost,
    /// The committing press would enter a move that is no longer legal.
    NoLongerLegal,
}

/// The phase a plan belongs to: 0 a turn, 1 the bonus reels, 2 a prize move.
pub fn phase<M: Memory + ?Sized>(map: &RamMap, mem: &M) -> u8 {
    match &map.bonus {
        Some(b) if mem.byte(b.game) == b.game_active => 1,
        Some(b) if mem.byte(b.prize_mode) != b.prize_none => 2,
        _ => 0,
    }
}

/// The presses for `mv` (chosen for `pos`, the player to move on `pad`).
pub fn plan_for(
    map: &RamMap,
    board: [u8; 49],
    pos: &Position,
    mv: Move,
    slot: usize,
    phase: u8,
) -> Result<Plan, String> {
    let steps = match phase {
        1 => {
            let b = map
                .bonus
                .as_ref()
                .ok_or("a bonus game on a map without one")?;
            let symbol = match mv.kind {
                Kind::ExtraTurn => b.reel_spot,
                Kind::Cherry => b.reel_cherry,
                Kind::Swap => b.reel_arcadia,
                _ => b.reel_seven_up,
            };
            let lead = b.reel_stop_lead % b.reel_positions;
            let position = (symbol + b.reel_positions - lead) % b.reel_positions;
            (0..3)
                .map(|reel| Step::StopReel { reel, position })
                .collect()
        }
        2 if mv.kind == Kind::Swap => {
            let cell = Bits(pos.pieces(mv.to as usize))
                .next()
                .ok_or("swap partner has no pieces")?;
            vec![Step::Cursor(cell), Step::PressA { cell, last: true }]
        }
        2 => move_steps(mv.from, mv.to),
        _ => {
            let source = if mv.is_clone() {
                Bits(ADJACENT[mv.to as usize] & pos.pieces(pos.to_move()))
                    .next()
                    .ok_or("clone without a source")?
            } else {
                mv.from
            };
            move_steps(source, mv.to)
        }
    };
    Ok(Plan {
        slot,
        phase,
        pad: map.pad_of_player[slot],
        steps,
        next: 0,
        board: board.to_vec(),
        mv,
        idle: 0,
    })
}

/// The next press of `plan`, reading the game through `map`; advances the plan past it.
pub fn next_press<M: Memory + ?Sized>(plan: &mut Plan, map: &RamMap, mem: &M) -> Next {
    if map.board_bytes(mem)[..] != plan.board[..] {
        return Next::BoardChanged;
    }
    let Some(cursor) = map.cursor_cell(mem) else {
        return Next::Lost;
    };
    while let Some(&step) = plan.steps.get(plan.next) {
        match step {
            Step::Cursor(cell) if cursor == cell => plan.next += 1,
            Step::Cursor(cell) => {
                return Next::Press {
                    buttons: direction(cursor, cell),
                    commits: false,
                };
            }
            Step::PressA { cell, last } => {
                if cursor != cell {
                    plan.steps.insert(plan.next, Step::Cursor(cell));
                    continue;
                }
                if last && !still_legal(map, mem, plan.mv) {
                    return Next::NoLongerLegal;
                }
                plan.next += 1;
                return Next::Press {
                    buttons: Buttons::A,
                    commits: last,
                };
            }
            Step::StopReel { reel, position } => {
                let Some(b) = &map.bonus else {
                    return Next::Lost;
                };
                if mem.byte(b.reels + reel as u16) == position {
                    plan.next += 1;
                    return Next::Press {
                        buttons: Buttons::A,
                        commits: false,
                    };
                }
                return Next::Wait;
            }
        }
    }
    Next::Wait
}

/// Re-reads the position and checks that `mv` is still among its legal moves.
fn still_legal<M: Memory + ?Sized>(map: &RamMap, mem: &M, mv: Move) -> bool {
    let prize = matches!(mv.kind, Kind::Cherry | Kind::Swap);
    let Ok((pos, _)) = map.decode(mem, prize) else {
        return false;
    };
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    legal.contains(&mv)
}

/// The prize move of `kind` with the best immediate heuristic (used when the game asks for a
/// prize the search did not plan, e.g. after a missed reel).
pub fn best_prize_of_kind(pos: &Position, legal: &[Move], kind: Kind) -> Option<Move> {
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
