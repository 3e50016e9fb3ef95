//! Writing the host's state into the RAM image, and the `Frame` view the plug-in gets.

use super::{RamHost, State};
use crate::board::{CELLS, NO_SQUARE};
use crate::moves::Kind;
use crate::position::MAX_PLAYERS;
use nesmind_host::{Buttons, Frame};

/// Player-type bytes the cartridge uses (Data Crystal): 01 human, 05 computer.
const TYPE_HUMAN: u8 = 0x01;
const TYPE_CPU: u8 = 0x05;

impl RamHost {
    pub(super) fn write_ram(&mut self) {
        let m = &self.map;
        let ram = &mut self.ram;
        ram[m.mode as usize] = m.mode_playfield;
        let bonus = matches!(self.state, State::Bonus { .. });
        ram[m.playing as usize] = u8::from(!bonus && self.state != State::Over);
        for sq in 0..CELLS {
            ram[m.board as usize + sq] = if self.pos.blocked() >> sq & 1 == 1 {
                m.cell_blocked
            } else {
                match self.pos.owner(sq as u8) {
                    Some(p) => m.cell_players[self.slots[p]],
                    None => m.cell_empty,
                }
            };
        }
        ram[m.cursor as usize] = self.cursor;
        ram[m.current_player as usize] = self.slots[self.pos.to_move()] as u8;
        for slot in 0..MAX_PLAYERS {
            let setting = self.settings[slot];
            ram[m.player_settings as usize + slot] = setting;
            ram[m.player_types as usize + slot] = match setting {
                0 => m.type_none,
                s if s == m.setting_human => TYPE_HUMAN,
                _ => TYPE_CPU,
            };
            let count = self
                .slots
                .iter()
                .position(|&s| s == slot)
                .map_or(0, |p| self.pos.count(p));
            ram[m.piece_counts_low as usize + slot] = (count % 10) as u8;
            ram[m.piece_counts_high as usize + slot] = (count / 10) as u8;
        }
        let secret = self.pos.secret();
        ram[m.secret_square as usize] = if secret == NO_SQUARE {
            m.secret_used
        } else {
            secret
        };
        let animating = matches!(self.state, State::Animating { .. });
        ram[m.animation as usize] = if animating { 0x01 } else { m.animation_idle };
        ram[m.bonus_game as usize] = if bonus { m.bonus_game_active } else { 0 };
        ram[m.reels as usize..m.reels as usize + 3].copy_from_slice(&self.reels);
        ram[m.prize_mode as usize] = match self.state {
            State::Prize {
                kind: Kind::Cherry, ..
            } => m.prize_cherry,
            State::Prize {
                kind: Kind::Swap, ..
            } => m.prize_swap,
            _ => m.prize_none,
        };
    }
}

impl Frame for RamHost {
    fn frame_number(&self) -> u64 {
        self.frame
    }
    fn peek(&self, addr: u16) -> u8 {
        if addr < 0x2000 {
            self.ram[addr as usize & 0x7FF]
        } else {
            0
        }
    }
    fn ram(&self) -> &[u8] {
        &self.ram
    }
    fn poke(&mut self, addr: u16, value: u8) {
        if addr < 0x2000 {
            self.ram[addr as usize & 0x7FF] = value;
        }
    }
    fn picture(&self) -> &[u16] {
        &[]
    }
    fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        if pad < MAX_PLAYERS {
            self.pads[pad] = buttons;
        }
    }
    fn buttons(&self, pad: usize) -> Buttons {
        self.pads.get(pad).copied().unwrap_or(Buttons::NONE)
    }
}
