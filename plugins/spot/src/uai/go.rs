//! `go`: its limits, the time to spend, and the search thread that prints `info` lines and
//! the `bestmove`.

use super::game::{Game, move_text};
use super::{Output, say};
use crate::duel::{Duel, DuelSearcher, Limits, Report};
use nesmind_search::WIN;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// Deepest iteration when `go` sets no depth.
const MAX_DEPTH: u32 = 64;
/// Time kept back from every clock-based budget for process and pipe latency.
const SAFETY_MS: u64 = 20;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    pub movetime: Option<u64>,
    /// Clocks and increments in milliseconds; `b` is `x`, who moves first.
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub movestogo: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

impl GoLimits {
    pub fn parse(args: &[&str]) -> Result<GoLimits, String> {
        let mut g = GoLimits::default();
        let mut words = args.iter();
        while let Some(&word) = words.next() {
            if word == "infinite" {
                g.infinite = true;
                continue;
            }
            let mut number = || -> Result<u64, String> {
                let v = words
                    .next()
                    .ok_or_else(|| format!("go: '{word}' needs a number"))?;
                v.parse::<u64>()
                    .map_err(|_| format!("go: '{word} {v}': not a whole number"))
            };
            match word {
                "movetime" => g.movetime = Some(number()?),
                "wtime" => g.wtime = Some(number()?),
                "btime" => g.btime = Some(number()?),
                "winc" => g.winc = Some(number()?),
                "binc" => g.binc = Some(number()?),
                "movestogo" => g.movestogo = Some(number()?.max(1)),
                "depth" => {
                    let d = number()?;
                    if !(1..=u64::from(MAX_DEPTH)).contains(&d) {
                        return Err(format!("go: depth {d} is outside 1-{MAX_DEPTH}"));
                    }
                    g.depth = Some(d as u32);
                }
                "nodes" => g.nodes = Some(number()?.max(1)),
                // python-ataxx sends `nodes N simulations N` (a playout count for MCTS engines).
                "simulations" => {
                    let n = number()?.max(1);
                    g.nodes.get_or_insert(n);
                }
                _ => {
                    return Err(format!(
                        "go: unknown parameter '{word}' (movetime, wtime, btime, winc, binc, movestogo, depth, nodes, infinite)"
                    ));
                }
            }
        }
        Ok(g)
    }

    /// Whether the `bestmove` waits for `stop`: `infinite`, or a bare `go` as in UCI.
    pub fn waits_for_stop(&self) -> bool {
        self.infinite
            || (self.movetime.is_none()
                && self.btime.is_none()
                && self.wtime.is_none()
                && self.depth.is_none()
                && self.nodes.is_none())
    }

    /// Time budget for the side to move (0 = `x`): `soft` ends the deepening between
    /// iterations, `hard` stops it anywhere. A fixed `movetime` is used in full.
    pub fn time_limits(&self, to_move: usize) -> (Option<Duration>, Option<Duration>) {
        if self.infinite {
            return (None, None);
        }
        if let Some(ms) = self.movetime {
            let ms = ms.saturating_sub(SAFETY_MS / 2).max(1);
            return (None, Some(Duration::from_millis(ms)));
        }
        // With only the other side's clock given, that one stands for both.
        let clock = if to_move == 0 {
            self.btime
                .or(self.wtime)
                .map(|t| (t, self.binc.or(self.winc)))
        } else {
            self.wtime
                .or(self.btime)
                .map(|t| (t, self.winc.or(self.binc)))
        };
        let Some((time, inc)) = clock else {
            return (None, None);
        };
        let inc = inc.unwrap_or(0);
        let left = time.saturating_sub(SAFETY_MS).max(1);
        // An Ataxx game lasts about 25 more moves per side from most positions; an
        // iteration started late rarely finishes, so the soft budget is half the share.
        let share = (time / self.movestogo.unwrap_or(25) + inc * 3 / 4).min(left);
        let hard = (share * 3).min(left / 2).max(1);
        let soft = (share / 2).min(hard).max(1);
        (
            Some(Duration::from_millis(soft)),
            Some(Duration::from_millis(hard)),
        )
    }

    /// The searcher's limits for the side to move.
    pub fn limits(&self, to_move: usize) -> Limits {
        let (soft, hard) = self.time_limits(to_move);
        Limits {
            soft,
            hard,
            nodes: self.nodes,
            depth: self.depth.unwrap_or(MAX_DEPTH),
        }
    }
}

/// `info depth D score cp|mate X nodes N nps N time MS pv ...` for a completed iteration.
pub fn info_line(r: &Report) -> String {
    let score = if r.score.abs() > WIN / 2 {
        // Won or lost in (WIN - |score|) plies: a mate in that many of the winner's moves.
        let plies = WIN - r.score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if r.score > 0 { moves } else { -moves })
    } else {
        format!("cp {}", r.score)
    };
    let ms = r.elapsed.as_millis();
    let nps = (r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-6)) as u64;
    let pv: Vec<String> = r.pv.iter().map(|&m| move_text(m)).collect();
    format!(
        "info depth {} score {score} nodes {} nps {nps} time {ms} pv {}",
        r.depth,
        r.nodes,
        pv.join(" ")
    )
}

/// Starts the search of `game` on its own thread; the thread gives the searcher back.
pub fn spawn(
    mut searcher: DuelSearcher,
    game: Game,
    limits: GoLimits,
    stop: Arc<AtomicBool>,
    out: Output,
) -> Result<JoinHandle<DuelSearcher>, String> {
    let work = move || {
        // A UAI game has two players and no bonus game, so the conversion always succeeds.
        let duel = Duel::from_position(&game.pos, game.halfmove).filter(|_| !game.is_over());
        let best = if let Some(duel) = duel {
            let o = out.clone();
            searcher.set_on_iteration(Some(Box::new(move |r| say(&o, &info_line(r)))));
            let r = searcher.search(&duel, limits.limits(game.pos.to_move()));
            searcher.set_on_iteration(None);
            if r.depth == 0 {
                // A forced move (often a pass) is played without searching.
                say(&out, &info_line(&r));
            }
            r.best
        } else {
            say(
                &out,
                "info string error: the game is over; no move to search",
            );
            crate::moves::Move::PASS
        };
        if limits.waits_for_stop() {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        say(&out, &format!("bestmove {}", move_text(best)));
        searcher
    };
    std::thread::Builder::new()
        .name("uai-search".into())
        .spawn(work)
        .map_err(|e| format!("cannot start the search thread: {e}"))
}
