//! Reading a game through its RAM map: the board as a position, the cursor cell, whose turn
//! it is, and the optional seat, screen and bonus bytes.

use super::board::{CELLS, NO_SQUARE};
use super::position::{MAX_PLAYERS, Position};
use super::ram_map::SpotMap;
pub use nesmind_host::kit::Memory;

impl SpotMap {
    /// The 49 cell bytes, in cell order.
    pub fn board_bytes<M: Memory + ?Sized>(&self, mem: &M) -> [u8; CELLS] {
        std::array::from_fn(|c| mem.byte(self.cell_addr(c)))
    }

    /// The slot whose code this is.
    pub fn slot_of_code(&self, code: u8) -> Option<usize> {
        self.cells.players.iter().position(|&c| c == code)
    }

    /// The slot to move, if the turn byte holds a known value.
    pub fn slot_to_move<M: Memory + ?Sized>(&self, mem: &M) -> Option<usize> {
        let v = mem.byte(self.turn.addr);
        self.turn.values.iter().position(|&t| t == v)
    }

    /// The cell under the hand, if the cursor bytes name one.
    pub fn cursor_cell<M: Memory + ?Sized>(&self, mem: &M) -> Option<u8> {
        let now: Vec<u8> = self
            .cursor
            .addresses()
            .iter()
            .map(|&(_, a)| mem.byte(a))
            .collect();
        (0..CELLS as u8).find(|&c| self.cursor.bytes(c) == now)
    }

    /// Slots in the game, in turn order: from the seat bytes if the map has them, else
    /// every slot the map has a code for.
    pub fn active_slots<M: Memory + ?Sized>(&self, mem: &M) -> Vec<usize> {
        match &self.seats {
            Some(s) => (0..self.players())
                .filter(|&k| mem.byte(s.types + k as u16) != s.none)
                .collect(),
            None => (0..self.players()).collect(),
        }
    }

    /// Whether the seat bytes say a pad plays `slot` (`None` without seat bytes).
    pub fn is_human<M: Memory + ?Sized>(&self, mem: &M, slot: usize) -> Option<bool> {
        let s = self.seats.as_ref()?;
        Some(mem.byte(s.settings + slot as u16) == s.human)
    }

    /// Whether the screen bytes say a game is in play and idle (`None` without them).
    pub fn screen_idle<M: Memory + ?Sized>(&self, mem: &M) -> Option<bool> {
        let s = self.screen.as_ref()?;
        Some(mem.byte(s.animation) == s.idle)
    }

    /// Whether the bonus game is on screen (`false` on a map without one).
    pub fn in_bonus_game<M: Memory + ?Sized>(&self, mem: &M) -> bool {
        self.bonus
            .as_ref()
            .is_some_and(|b| mem.byte(b.game) == b.game_active)
    }

    /// Reads the position; model player k is the k-th active slot. `bonus` marks the player
    /// to move as having won the bonus game (prize moves pending).
    pub fn decode<M: Memory + ?Sized>(
        &self,
        mem: &M,
        bonus: bool,
    ) -> Result<(Position, Vec<usize>), String> {
        let slots = self.active_slots(mem);
        if !(2..=MAX_PLAYERS).contains(&slots.len()) {
            return Err(format!("{} active players in RAM (need 2-4)", slots.len()));
        }
        let mut pieces = [0u64; MAX_PLAYERS];
        let mut blocked = 0u64;
        for (sq, code) in self.board_bytes(mem).into_iter().enumerate() {
            let bit = 1u64 << sq;
            if code == self.cells.empty {
                continue;
            }
            if Some(code) == self.cells.blocked {
                blocked |= bit;
                continue;
            }
            let slot = self
                .slot_of_code(code)
                .ok_or_else(|| format!("unknown board cell code {code:02X} at cell {sq}"))?;
            let player = slots.iter().position(|&s| s == slot).ok_or_else(|| {
                format!(
                    "cell {sq} belongs to slot {} which is not playing",
                    slot + 1
                )
            })?;
            pieces[player] |= bit;
        }
        let current = self.slot_to_move(mem).ok_or_else(|| {
            format!(
                "turn byte holds {:02X}, no slot's value",
                mem.byte(self.turn.addr)
            )
        })?;
        let to_move = slots
            .iter()
            .position(|&s| s == current)
            .ok_or_else(|| format!("slot {} to move is not playing", current + 1))?;
        let mut pos = Position::new(slots.len(), blocked, pieces, to_move)?;
        let secret = match &self.bonus {
            Some(b) => {
                let s = mem.byte(b.secret_square);
                if (s as usize) < CELLS && s != b.secret_used {
                    s
                } else {
                    NO_SQUARE
                }
            }
            None => NO_SQUARE,
        };
        pos.set_secret(secret);
        pos.set_bonus_pending(bonus);
        Ok((pos, slots))
    }

    /// The bytes a board with `pos` on it holds (the slots in `slots` order), for test hosts.
    pub fn encode_board(&self, pos: &Position, slots: &[usize]) -> [u8; CELLS] {
        std::array::from_fn(|sq| {
            if pos.blocked() >> sq & 1 == 1 {
                self.cells.blocked.unwrap_or(self.cells.empty)
            } else {
                match pos.owner(sq as u8) {
                    Some(p) => self.cells.players[slots[p]],
                    None => self.cells.empty,
                }
            }
        })
    }
}
