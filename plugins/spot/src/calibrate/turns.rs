//! Whose turn it is: play rounds on a fork (two, and more until every player has moved),
//! note the memory just before each player's piece appears, and keep the byte whose value is
//! the same before every move of one player and different between players. The rounds also
//! confirm the board: every other player's move must read as a legal move of the rules model.

use super::first_move::{Oriented, read_board};
use super::lab::{CursorProbes, Lab, release_all, separating_bytes};
use crate::moves::Move;
use crate::position::{MAX_PLAYERS, Position};
use crate::ram_map::Cursor;
use nesmind_host::ramsearch::Snapshot;
use nesmind_host::{Buttons, Fork, Frame};

/// Frames to wait for a pad-played turn after a move.
const TURN_WAIT: u64 = 1800;
/// Frames without a board change after which every pad is tried.
const STALL: u64 = 90;

/// What the rounds showed.
#[derive(Clone, Debug)]
pub struct Turns {
    pub addr: u16,
    /// (cell code, turn value, the pad that plays it if one does), in turn order from the
    /// player the probed pad plays.
    pub order: Vec<(u8, u8, Option<usize>)>,
}

/// A position from a screen board, the players being `codes` in turn order.
pub fn position_of(
    board: &[u8; 49],
    o: &Oriented,
    codes: &[u8],
    to_move: usize,
) -> Option<Position> {
    let mut pieces = [0u64; MAX_PLAYERS];
    let mut blocked = 0u64;
    for (sq, &v) in board.iter().enumerate() {
        if v == o.empty {
            continue;
        }
        if Some(v) == o.blocked {
            blocked |= 1 << sq;
            continue;
        }
        pieces[codes.iter().position(|&c| c == v)?] |= 1 << sq;
    }
    Position::new(codes.len(), blocked, pieces, to_move).ok()
}

/// Makes a move for the player with `code` on `pad` (a clone if it has one): returns false
/// if no attempt changed the board.
fn move_for(
    lab: &mut Lab,
    f: &mut Fork,
    pad: usize,
    cursor: &Cursor,
    o: &Oriented,
    code: u8,
) -> Result<bool, String> {
    let board = read_board(&o.shape, f);
    let mine: Vec<u8> = (0..49).filter(|&c| board[c as usize] == code).collect();
    let empty: Vec<u8> = (0..49).filter(|&c| board[c as usize] == o.empty).collect();
    let near = |a: u8, b: u8| (a / 7).abs_diff(b / 7).max((a % 7).abs_diff(b % 7)) == 1;
    for &to in empty
        .iter()
        .filter(|&&t| mine.iter().any(|&m| near(m, t)))
        .take(3)
    {
        let from = *mine.iter().find(|&&m| near(m, to)).expect("filtered");
        let mut g = f.clone();
        if !(lab.drive(&mut g, pad, cursor, from)? && {
            lab.tap_then(&mut g, pad, Buttons::A, 3)?;
            lab.drive(&mut g, pad, cursor, to)?
        }) {
            continue;
        }
        lab.tap_then(&mut g, pad, Buttons::A, 1)?;
        if read_board(&o.shape, &g)[usize::from(to)] == code {
            *f = g;
            return Ok(true);
        }
    }
    Ok(false)
}

/// Plays rounds from `base` (the probed pad's player to move, `o.mine`) and reads the turn
/// byte. `codes` are the piece codes the start position showed.
pub fn learn_turns(
    lab: &mut Lab,
    base: &Fork,
    pad: usize,
    cursor: &Cursor,
    o: &Oriented,
    codes: &[u8],
    expected: Option<u16>,
) -> Result<Turns, String> {
    let mut f = base.clone();
    release_all(&mut f);
    let mut samples: Vec<(u8, Snapshot)> = Vec::new();
    let mut timeline: Vec<Snapshot> = Vec::new();
    let mut movers: Vec<u8> = Vec::new();
    let mut pads: Vec<(u8, usize)> = vec![(o.mine, pad)];
    let (mut who, mut code) = (pad, o.mine);
    // Two rounds, and more until every player has moved once: with three or four
    // pad-played seats a round reaches only the next of them.
    for round in 0..2 * MAX_PLAYERS {
        if round >= 2 && codes.iter().all(|c| movers.contains(c)) {
            break;
        }
        // A few idle frames first: the game may have been caught half way through its
        // bookkeeping (board written, turn not yet passed) when its pad first answered.
        lab.run(&mut f, 4)?;
        samples.push((code, Snapshot::take(&f, true)));
        // Still this player's turn with a direction held (on a copy): pad bytes drop out.
        let mut held = f.clone();
        held.set_buttons(who, Buttons::RIGHT | Buttons::UP);
        lab.run(&mut held, 2)?;
        samples.push((code, Snapshot::take(&held, true)));
        movers.push(code);
        let moved = if round == 0 && code == o.mine {
            lab.drive(&mut f, pad, cursor, o.from)?
                && {
                    lab.tap_then(&mut f, pad, Buttons::A, 3)?;
                    lab.drive(&mut f, pad, cursor, o.to)?
                }
                && {
                    lab.tap_then(&mut f, pad, Buttons::A, 1)?;
                    true
                }
        } else {
            move_for(lab, &mut f, who, cursor, o, code)?
        };
        if !moved {
            return Err(format!(
                "turn: the pad {} player could not make a move",
                who + 1
            ));
        }
        let seen = Seen {
            samples: &mut samples,
            movers: &mut movers,
            timeline: &mut timeline,
        };
        let (answered, known) = watch(lab, &mut f, o, codes, seen, &pads)?;
        who = answered;
        code = match known {
            Some(c) => c,
            None => whose_pad(lab, &f, who, cursor, o, codes, &pads)?,
        };
        if pads.iter().all(|&(c, _)| c != code) {
            pads.push((code, who));
        }
    }
    let order = turn_order(&movers, codes.len())?;
    let groups: Vec<Vec<&Snapshot>> = order
        .iter()
        .map(|c| {
            samples
                .iter()
                .filter(|(m, _)| m == c)
                .map(|(_, s)| s)
                .collect()
        })
        .collect();
    let found = separating_bytes(&groups);
    log::debug!(
        "spot: calibration: movers {movers:02X?}, samples per player {:?}, {} turn byte(s)",
        groups.iter().map(Vec::len).collect::<Vec<_>>(),
        found.len()
    );
    let value = |a: u16, c: u8| {
        samples
            .iter()
            .find(|(m, _)| *m == c)
            .and_then(|(_, s)| s.byte(a))
            .unwrap_or(0)
    };
    // Of the bytes that tell the turns apart: one holding the mover's own cell code is
    // plainly about whose turn it is; then the one that takes the fewest values and changes
    // least over the rounds (a state-machine byte, human turn / computer turn, passes
    // through more).
    let codes_held = |a: u16| order.iter().all(|&c| value(a, c) == c);
    let calm = |a: u16| {
        let v: Vec<u8> = timeline.iter().map(|s| s.byte(a).unwrap_or(0)).collect();
        let mut kinds = v.clone();
        kinds.sort_unstable();
        kinds.dedup();
        (kinds.len(), v.windows(2).filter(|w| w[0] != w[1]).count())
    };
    let addr = found
        .iter()
        .copied()
        .min_by_key(|&a| (Some(a) != expected, !codes_held(a), calm(a), a))
        .ok_or("turn: no byte tells the players' turns apart")?;
    Ok(Turns {
        addr,
        order: order
            .iter()
            .map(|&c| {
                let p = pads.iter().find(|&&(k, _)| k == c).map(|&(_, p)| p);
                (c, value(addr, c), p)
            })
            .collect(),
    })
}

/// Runs the fork until a pad-played turn comes, noting every other player's move (the
/// memory just before its piece appears) and checking it against the rules. Returns the pad
/// to move and its code if that pad was seen before.
fn watch(
    lab: &mut Lab,
    f: &mut Fork,
    o: &Oriented,
    codes: &[u8],
    seen: Seen,
    pads: &[(u8, usize)],
) -> Result<(usize, Option<u8>), String> {
    let Seen {
        samples,
        movers,
        timeline,
    } = seen;
    let mut before = Snapshot::take(f, true);
    let mut board = read_board(&o.shape, f);
    // The board when the last event began, to check the move once the board settles.
    let mut pending: Option<([u8; 49], u8)> = None;
    let mut still = 0u64;
    let mut events = 0;
    let mut last = *movers.last().expect("a mover");
    for _ in 0..TURN_WAIT {
        lab.run(f, 1)?;
        let now = read_board(&o.shape, f);
        let appeared: Vec<u8> = (0..49)
            .filter(|&c| board[c] == o.empty && now[c] != o.empty)
            .map(|c| now[c])
            .collect();
        if let Some(&x) = appeared.first()
            && x != last
        {
            if !codes.contains(&x) {
                return Err(format!("board: a piece with unknown code {x:02X} appeared"));
            }
            samples.push((x, before.clone()));
            movers.push(x);
            pending = Some((board, x));
            last = x;
            events += 1;
        }
        still = if now == board { still + 1 } else { 0 };
        board = now;
        before = Snapshot::take(f, true);
        timeline.push(before.clone());
        if still == 6
            && let Some((start, x)) = pending.take()
        {
            check_move(&start, &board, o, codes, x)?;
        }
        if still >= 6 && (events > 0 || still >= STALL) && still.is_multiple_of(6) {
            let order: Vec<usize> = pads.iter().map(|&(_, p)| p).chain(0..4).collect();
            for p in order {
                if lab.responds(f, p)? {
                    let code = pads.iter().find(|&&(_, q)| q == p).map(|&(c, _)| c);
                    return Ok((p, code));
                }
            }
        }
    }
    Err(format!(
        "turn: no pad-played turn came within {} s after a move",
        TURN_WAIT / 60
    ))
}

/// What the rounds record: memory before each move with the mover's code, the movers in
/// order, and memory every frame.
struct Seen<'a> {
    samples: &'a mut Vec<(u8, Snapshot)>,
    movers: &'a mut Vec<u8>,
    timeline: &'a mut Vec<Snapshot>,
}

/// Whose turn a pad not seen before plays: the player (of those no known pad plays) whose
/// move it can make, tried on copies. Turn order is not code order: when the first mover is
/// a second pad-played seat, the next pad-played seat can be any of the others.
fn whose_pad(
    lab: &mut Lab,
    f: &Fork,
    pad: usize,
    cursor: &Cursor,
    o: &Oriented,
    codes: &[u8],
    pads: &[(u8, usize)],
) -> Result<u8, String> {
    for &c in codes.iter().filter(|&&c| pads.iter().all(|&(k, _)| k != c)) {
        if move_for(lab, &mut f.clone(), pad, cursor, o, c)? {
            return Ok(c);
        }
    }
    Err(format!(
        "turn: pad {} answers, but it moves none of the players no other pad plays",
        pad + 1
    ))
}

/// The cyclic order the players moved in, from the first mover.
fn turn_order(movers: &[u8], players: usize) -> Result<Vec<u8>, String> {
    let mut order: Vec<u8> = Vec::new();
    for &m in movers {
        if order.contains(&m) {
            break;
        }
        order.push(m);
    }
    if order.len() != players {
        return Err(format!(
            "turn: saw {} of the {players} players move in a round",
            order.len()
        ));
    }
    Ok(order)
}

/// A move by the player with code `x` from `start` must lead to `end` under the rules.
fn check_move(
    start: &[u8; 49],
    end: &[u8; 49],
    o: &Oriented,
    codes: &[u8],
    x: u8,
) -> Result<(), String> {
    let mover = codes.iter().position(|&c| c == x).expect("known code");
    let (Some(pos), Some(now)) = (
        position_of(start, o, codes, mover),
        position_of(end, o, codes, mover),
    ) else {
        return Err("board: a cell holds a code that is no piece, empty or blocked".into());
    };
    let mut legal = Vec::new();
    pos.generate(&mut legal);
    if legal
        .iter()
        .any(|&m: &Move| pos.play(m).all_pieces() == now.all_pieces())
    {
        Ok(())
    } else {
        Err(format!(
            "board: the move of the player with code {x:02X} does not read as a legal move"
        ))
    }
}
