//! The DOTS cart's test port: reports for harnesses (never for players) that every build of
//! the cart writes as a byte stream to an address the board decodes to nothing (`PORT`,
//! `$5000`; format in `cart/README.md`). A harness watches CPU writes there
//! (`Setup::watch`) and feeds the values it sees, in order, to a [`PortReader`].

use crate::position::{MAX_PLAYERS, Position};

/// Tags of the reports (`cart/src/port.s`).
const GAME: u8 = 0x01;
const BOARD: u8 = 0x02;
const OVER: u8 = 0x03;
const FAIL: u8 = 0x04;

/// One report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortReport {
    /// A game started: its built-in layout, the slot that moves first and each slot's menu
    /// setting (0 off, 1-5 computer level, 6 human).
    Game {
        layout: u16,
        first: u8,
        settings: [u8; 4],
    },
    /// A turn begins (a move or a pass is next) or the game ended: the 49 cells in canonical
    /// codes (0 empty, 1-4 slot 1-4, 5 blocked; cell = row * 7 + column) and the slot to move.
    Board { cells: [u8; 49], to_move: u8 },
    /// The game is over: the winning slot (`None` for a draw) and the piece counts.
    Over { winner: Option<u8>, counts: [u8; 4] },
    /// A CHECK build found its storage disagreeing with its shadow copy and stopped:
    /// `screen` when it was the copy of what is drawn.
    Fail {
        screen: bool,
        cell: u8,
        stored: u8,
        shadow: u8,
    },
}

/// Splits the port's byte stream into reports.
#[derive(Clone, Debug, Default)]
pub struct PortReader {
    pending: Vec<u8>,
}

impl PortReader {
    /// Takes the next byte written to the port; returns a report once its last byte came.
    pub fn feed(&mut self, byte: u8) -> Option<Result<PortReport, String>> {
        self.pending.push(byte);
        let need = match self.pending[0] {
            GAME => 8,
            BOARD => 51,
            OVER => 6,
            FAIL => 5,
            tag => {
                self.pending.clear();
                return Some(Err(format!("test port: unknown report tag ${tag:02X}")));
            }
        };
        if self.pending.len() < need {
            return None;
        }
        let b = std::mem::take(&mut self.pending);
        Some(Ok(match b[0] {
            GAME => PortReport::Game {
                layout: u16::from_le_bytes([b[1], b[2]]),
                first: b[3],
                settings: [b[4], b[5], b[6], b[7]],
            },
            BOARD => {
                let mut cells = [0; 49];
                cells.copy_from_slice(&b[1..50]);
                PortReport::Board {
                    cells,
                    to_move: b[50],
                }
            }
            OVER => PortReport::Over {
                winner: (b[1] != 0xFF).then_some(b[1]),
                counts: [b[2], b[3], b[4], b[5]],
            },
            _ => PortReport::Fail {
                screen: b[1] != 0,
                cell: b[2],
                stored: b[3],
                shadow: b[4],
            },
        }))
    }
}

/// A board report as a rules position: the players are the slots in play (`slots`, in slot
/// order), `to_move` a slot among them.
pub fn position(cells: &[u8; 49], to_move: u8, slots: &[usize]) -> Result<Position, String> {
    let mut pieces = [0u64; MAX_PLAYERS];
    let mut blocked = 0u64;
    for (sq, &code) in cells.iter().enumerate() {
        match code {
            0 => {}
            1..=4 => {
                let slot = usize::from(code - 1);
                let player = slots
                    .iter()
                    .position(|&s| s == slot)
                    .ok_or_else(|| format!("cell {sq} holds slot {} not in play", slot + 1))?;
                pieces[player] |= 1 << sq;
            }
            5 => blocked |= 1 << sq,
            _ => return Err(format!("cell {sq} reported as code {code}")),
        }
    }
    let mover = slots
        .iter()
        .position(|&s| s == usize::from(to_move))
        .ok_or_else(|| format!("slot {} to move is not in play", usize::from(to_move) + 1))?;
    Position::new(slots.len(), blocked, pieces, mover)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_come_out_whole_and_bad_tags_are_named() {
        let mut r = PortReader::default();
        let game = [1, 0x04, 0x01, 2, 6, 5, 0, 0];
        let out: Vec<_> = game.iter().filter_map(|&b| r.feed(b)).collect();
        assert_eq!(
            out,
            [Ok(PortReport::Game {
                layout: 260,
                first: 2,
                settings: [6, 5, 0, 0]
            })]
        );
        // An over report has six bytes.
        for b in [3, 0xFF, 1, 2, 3] {
            assert_eq!(r.feed(b), None);
        }
        assert_eq!(
            r.feed(4),
            Some(Ok(PortReport::Over {
                winner: None,
                counts: [1, 2, 3, 4]
            }))
        );
        assert!(r.feed(0x77).unwrap().unwrap_err().contains("$77"));
    }

    #[test]
    fn board_reports_become_positions_of_the_slots_in_play() {
        let mut cells = [0u8; 49];
        cells[0] = 2; // slot 2
        cells[48] = 4; // slot 4
        cells[24] = 5;
        let pos = position(&cells, 3, &[1, 3]).unwrap();
        assert_eq!(pos.players(), 2);
        assert_eq!(pos.to_move(), 1);
        assert_eq!(pos.pieces(0), 1);
        assert_eq!(pos.blocked(), 1 << 24);
        assert!(position(&cells, 0, &[1, 3]).is_err());
        cells[5] = 1;
        assert!(position(&cells, 1, &[1, 3]).unwrap_err().contains("slot 1"));
    }
}
