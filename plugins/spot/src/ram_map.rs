//! The cartridge RAM map, loaded from RON so it can be corrected without recompiling, and the
//! decoder that turns a RAM image into a game position.

use super::board::{CELLS, NO_SQUARE};
use super::position::{MAX_PLAYERS, Position};
use nesmind_host::RomInfo;
use serde::Deserialize;

/// The maps shipped with the plug-in.
pub const BUILTIN_RAM_MAPS: &str = include_str!("../ram_maps.ron");

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RamMap {
    pub name: String,
    pub crc32: Vec<u32>,
    pub board: u16,
    pub cursor: u16,
    pub current_player: u16,
    pub player_settings: u16,
    pub setting_human: u8,
    pub player_types: u16,
    pub type_none: u8,
    pub piece_counts_low: u16,
    pub piece_counts_high: u16,
    pub secret_square: u16,
    pub secret_used: u8,
    pub mode: u16,
    pub mode_playfield: u8,
    pub playing: u16,
    pub animation: u16,
    pub animation_idle: u8,
    pub bonus_game: u16,
    pub bonus_game_active: u8,
    pub reels: u16,
    pub reel_positions: u8,
    pub reel_spot: u8,
    pub reel_cherry: u8,
    pub reel_arcadia: u8,
    pub reel_seven_up: u8,
    pub cell_empty: u8,
    pub cell_blocked: u8,
    pub cell_players: Vec<u8>,
    pub prize_mode: u16,
    pub prize_none: u8,
    pub prize_cherry: u8,
    pub prize_swap: u8,
    pub reel_stop_lead: u8,
    pub pad_of_player: Vec<usize>,
}

/// Parses a list of maps and checks each one.
pub fn parse_ram_maps(text: &str, origin: &str) -> Result<Vec<RamMap>, String> {
    let maps: Vec<RamMap> =
        ron::from_str(text).map_err(|e| format!("{origin}: bad RAM map: {e}"))?;
    if maps.is_empty() {
        return Err(format!("{origin}: no RAM maps in the file"));
    }
    for m in &maps {
        m.validate()
            .map_err(|e| format!("{origin}: RAM map '{}': {e}", m.name))?;
    }
    Ok(maps)
}

pub fn load_ram_maps(path: &str) -> Result<Vec<RamMap>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read RAM map '{path}': {e}"))?;
    parse_ram_maps(&text, path)
}

/// The map for a cartridge, or an error naming its CRC and the known ones.
pub fn find_ram_map<'a>(maps: &'a [RamMap], rom: &RomInfo) -> Result<&'a RamMap, String> {
    maps.iter()
        .find(|m| m.crc32.iter().any(|&c| rom.matches_crc(c)))
        .ok_or_else(|| {
            let known: Vec<String> = maps
                .iter()
                .map(|m| format!("{} ({:08X?})", m.name, m.crc32))
                .collect();
            format!(
                "no Spot RAM map for '{}' (CRC32 {:08X}, PRG CRC32 {:08X}); known: {}",
                rom.file_name,
                rom.crc32,
                rom.prg_crc32,
                known.join(", ")
            )
        })
}

impl RamMap {
    fn validate(&self) -> Result<(), String> {
        let ram = |name: &str, addr: u16, len: u16| {
            if addr as u32 + len as u32 > 0x800 {
                Err(format!(
                    "{name} ${addr:04X} (+{len}) is outside work RAM $0000-$07FF"
                ))
            } else {
                Ok(())
            }
        };
        ram("board", self.board, CELLS as u16)?;
        ram("cursor", self.cursor, 1)?;
        ram("current_player", self.current_player, 1)?;
        ram("player_settings", self.player_settings, 4)?;
        ram("player_types", self.player_types, 4)?;
        ram("piece_counts_low", self.piece_counts_low, 4)?;
        ram("piece_counts_high", self.piece_counts_high, 4)?;
        ram("secret_square", self.secret_square, 1)?;
        ram("mode", self.mode, 1)?;
        ram("playing", self.playing, 1)?;
        ram("animation", self.animation, 1)?;
        ram("bonus_game", self.bonus_game, 1)?;
        ram("reels", self.reels, 3)?;
        ram("prize_mode", self.prize_mode, 1)?;
        if self.cell_players.len() != MAX_PLAYERS || self.pad_of_player.len() != MAX_PLAYERS {
            return Err(format!(
                "cell_players and pad_of_player need {MAX_PLAYERS} entries (one per player slot)"
            ));
        }
        let mut codes = vec![self.cell_empty, self.cell_blocked];
        codes.extend(&self.cell_players);
        let mut sorted = codes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != codes.len() {
            return Err(format!("cell codes must differ: {codes:02X?}"));
        }
        if self.reel_positions == 0 {
            return Err("reel_positions must be positive".into());
        }
        if let Some(p) = self.pad_of_player.iter().find(|&&p| p >= MAX_PLAYERS) {
            return Err(format!("pad_of_player: pad {p} does not exist (0-3)"));
        }
        if self.crc32.is_empty() {
            return Err("crc32 list is empty".into());
        }
        Ok(())
    }

    /// RAM player slots in the game (type not "none"), in turn order.
    pub fn active_slots(&self, ram: &[u8]) -> Vec<usize> {
        (0..MAX_PLAYERS)
            .filter(|&s| ram[self.player_types as usize + s] != self.type_none)
            .collect()
    }

    pub fn is_human(&self, ram: &[u8], slot: usize) -> bool {
        ram[self.player_settings as usize + slot] == self.setting_human
    }

    /// Raw board bytes (to notice changes).
    pub fn board_bytes<'a>(&self, ram: &'a [u8]) -> &'a [u8] {
        &ram[self.board as usize..self.board as usize + CELLS]
    }

    /// Reads the position; model player k is the k-th active slot. `bonus` marks the player
    /// to move as having won the bonus game (prize moves pending).
    pub fn decode(&self, ram: &[u8], bonus: bool) -> Result<(Position, Vec<usize>), String> {
        let slots = self.active_slots(ram);
        if !(2..=MAX_PLAYERS).contains(&slots.len()) {
            return Err(format!("{} active players in RAM (need 2-4)", slots.len()));
        }
        let mut pieces = [0u64; MAX_PLAYERS];
        let mut blocked = 0u64;
        for (sq, &code) in self.board_bytes(ram).iter().enumerate() {
            let bit = 1u64 << sq;
            if code == self.cell_empty {
                continue;
            }
            if code == self.cell_blocked {
                blocked |= bit;
                continue;
            }
            let slot = self
                .cell_players
                .iter()
                .position(|&c| c == code)
                .ok_or_else(|| format!("unknown board cell code {code:02X} at cell {sq}"))?;
            let player = slots.iter().position(|&s| s == slot).ok_or_else(|| {
                format!(
                    "cell {sq} belongs to slot {} which is not playing",
                    slot + 1
                )
            })?;
            pieces[player] |= bit;
        }
        let current = ram[self.current_player as usize] as usize;
        let to_move = slots
            .iter()
            .position(|&s| s == current)
            .ok_or_else(|| format!("current player slot {current} is not playing"))?;
        let mut pos = Position::new(slots.len(), blocked, pieces, to_move)?;
        let secret = ram[self.secret_square as usize];
        pos.set_secret(if (secret as usize) < CELLS && secret != self.secret_used {
            secret
        } else {
            NO_SQUARE
        });
        pos.set_bonus_pending(bonus);
        Ok((pos, slots))
    }

    /// The cell code written for a model player.
    pub fn player_code(&self, slot: usize) -> u8 {
        self.cell_players[slot]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_map_loads_and_bad_maps_are_named() {
        let maps = parse_ram_maps(BUILTIN_RAM_MAPS, "builtin").unwrap();
        assert!(maps[0].crc32.contains(&0xCFAE9DFA));
        assert_eq!(maps[0].board, 0x0380);
        let bad = BUILTIN_RAM_MAPS.replace("board: 0x0380", "board: 0x07F0");
        assert!(
            parse_ram_maps(&bad, "x.ron")
                .unwrap_err()
                .contains("board $07F0")
        );
        let typo = BUILTIN_RAM_MAPS.replace("cursor:", "cursr:");
        let e = parse_ram_maps(&typo, "y.ron").unwrap_err();
        assert!(
            e.starts_with("y.ron: bad RAM map") && e.contains("cursr"),
            "{e}"
        );
        let same = BUILTIN_RAM_MAPS.replace("cell_blocked: 0x05", "cell_blocked: 0x00");
        assert!(
            parse_ram_maps(&same, "z")
                .unwrap_err()
                .contains("cell codes")
        );
    }
}
