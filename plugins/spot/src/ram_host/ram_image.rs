//! Writing the host's state into the RAM image the plug-in reads (`nesmind_host::kit::RamImage`).

use super::{RamHost, State};
use crate::board::NO_SQUARE;
use crate::moves::Kind;
use crate::position::MAX_PLAYERS;

/// Player-type bytes the cartridge uses (Data Crystal): 01 human, 05 computer.
const TYPE_HUMAN: u8 = 0x01;
const TYPE_CPU: u8 = 0x05;

impl RamHost {
    pub(super) fn write_ram(&mut self) {
        let m = &self.map;
        let (seats, screen, bonus) = (self.seats, self.screen, self.bonus);
        let ram = &mut self.image.ram;
        ram[screen.mode as usize] = screen.playfield;
        let in_bonus = matches!(self.state, State::Bonus { .. });
        ram[screen.playing as usize] = u8::from(!in_bonus && self.state != State::Over);
        let cells = m.encode_board(&self.pos, &self.slots);
        for (sq, &code) in cells.iter().enumerate() {
            ram[m.cell_addr(sq) as usize] = code;
        }
        for ((_, addr), value) in m
            .cursor
            .addresses()
            .into_iter()
            .zip(m.cursor.bytes(self.cursor))
        {
            ram[addr as usize] = value;
        }
        ram[m.turn.addr as usize] = m.turn.values[self.slots[self.pos.to_move()]];
        for slot in 0..MAX_PLAYERS {
            let setting = self.settings[slot];
            ram[seats.settings as usize + slot] = setting;
            ram[seats.types as usize + slot] = match setting {
                0 => seats.none,
                s if s == seats.human => TYPE_HUMAN,
                _ => TYPE_CPU,
            };
        }
        let secret = self.pos.secret();
        ram[bonus.secret_square as usize] = if secret == NO_SQUARE {
            bonus.secret_used
        } else {
            secret
        };
        let animating = matches!(self.state, State::Animating { .. });
        ram[screen.animation as usize] = if animating { 0x01 } else { screen.idle };
        ram[bonus.game as usize] = if in_bonus { bonus.game_active } else { 0 };
        ram[bonus.reels as usize..bonus.reels as usize + 3].copy_from_slice(&self.reels);
        ram[bonus.prize_mode as usize] = match self.state {
            State::Prize {
                kind: Kind::Cherry, ..
            } => bonus.prize_cherry,
            State::Prize {
                kind: Kind::Swap, ..
            } => bonus.prize_swap,
            _ => bonus.prize_none,
        };
    }
}
