//! `nesmind uai spot`: the Universal Ataxx Interface (UCI's Ataxx sibling) for 2-player 7x7
//! Ataxx with gaps and no bonus square, so match runners and GUIs can play the Spot search.
//! Commands come one a line; searches run on their own thread so `stop`, `isready` and
//! `quit` are answered while one runs. Bad input gets an `info string error: ...` line.

mod game;
mod go;
#[cfg(test)]
mod tests;

pub use game::{Game, STARTPOS_FEN, move_text, parse_move};
pub use go::GoLimits;

use crate::duel::DuelSearcher;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Where the engine writes; shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// Table size: 2^20 buckets of two 16-byte entries, 32 MiB.
const TT_BITS: u32 = 20;

/// Writes one line and flushes it (a client waits for whole lines).
pub fn say(out: &Output, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed stdout means the client went away; there is nobody left to tell.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The engine between commands.
pub struct Engine {
    out: Output,
    game: Game,
    /// `None` while a search thread holds it.
    searcher: Option<DuelSearcher>,
    stop: Arc<AtomicBool>,
    running: Option<JoinHandle<DuelSearcher>>,
    /// The running search ends only on `stop` (`go infinite`).
    running_waits: bool,
}

fn new_searcher(stop: &Arc<AtomicBool>) -> DuelSearcher {
    let mut s = DuelSearcher::new(TT_BITS);
    s.set_stop_flag(Some(stop.clone()));
    s
}

impl Engine {
    pub fn new(out: Output) -> Engine {
        let stop = Arc::new(AtomicBool::new(false));
        Engine {
            out,
            game: Game::startpos(),
            searcher: Some(new_searcher(&stop)),
            stop,
            running: None,
            running_waits: false,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn error(&self, text: &str) {
        say(&self.out, &format!("info string error: {text}"));
    }

    /// Takes the searcher back from a search thread that has ended.
    fn reap(&mut self, wait: bool) {
        let done = self.running.as_ref().is_some_and(|h| h.is_finished());
        if (wait || done)
            && let Some(h) = self.running.take()
        {
            match h.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    self.error("the search thread failed; starting a fresh one");
                    self.searcher = Some(new_searcher(&self.stop));
                }
            }
        }
    }

    /// Ends a running search (it prints its `bestmove`) and waits for it.
    fn stop_search(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.reap(true);
    }

    /// Handles one command line; `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap(false);
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        let changes_state = matches!(command, "uainewgame" | "position" | "go" | "setoption");
        if changes_state && self.running.is_some() && !self.running_waits {
            // A search with a limit ends by itself: let it finish first, as a client that
            // pipes commands without waiting for `bestmove` expects.
            self.reap(true);
        }
        let busy = self.running.is_some();
        match command {
            "uai" => {
                say(
                    &self.out,
                    &format!("id name nesmind-spot {}", env!("CARGO_PKG_VERSION")),
                );
                say(&self.out, "id author the nesmind authors");
                say(&self.out, "uaiok");
            }
            "isready" => say(&self.out, "readyok"),
            "stop" => self.stop_search(),
            "quit" => {
                self.stop_search();
                return false;
            }
            _ if changes_state && busy => self.error(&format!(
                "'{command}' ignored while an infinite search runs (send stop first)"
            )),
            "uainewgame" => {
                self.game = Game::startpos();
                self.searcher = Some(new_searcher(&self.stop));
            }
            "position" => match parse_position(args) {
                Ok(g) => self.game = g,
                Err(e) => self.error(&format!("{e}; position unchanged")),
            },
            "go" => match GoLimits::parse(args) {
                Ok(limits) => self.go(limits),
                Err(e) => self.error(&format!("{e}; no search started")),
            },
            "setoption" => self.error(&format!(
                "this engine has no options ('{}' ignored)",
                args.join(" ")
            )),
            "debug" | "ponderhit" => {}
            _ => self.error(&format!(
                "unknown command '{command}' (uai, isready, uainewgame, position, go, stop, quit)"
            )),
        }
        true
    }

    fn go(&mut self, limits: GoLimits) {
        let searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| new_searcher(&self.stop));
        self.stop.store(false, Ordering::Relaxed);
        let out = self.out.clone();
        match go::spawn(searcher, self.game, limits, self.stop.clone(), out) {
            Ok(h) => {
                self.running = Some(h);
                self.running_waits = limits.waits_for_stop();
            }
            Err(e) => self.error(&e),
        }
    }

    /// Reads commands until `quit` or the end of input; at the end, a search with a limit
    /// finishes and an infinite one stops.
    pub fn run(&mut self, input: impl BufRead) {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {
                    // Bytes that are not UTF-8 become U+FFFD and then an error line.
                    let line = String::from_utf8_lossy(&buf);
                    if !self.handle(&line) {
                        return;
                    }
                }
                Err(e) => {
                    self.error(&format!("cannot read input: {e}"));
                    break;
                }
            }
        }
        // A search with a limit still answers (`echo 'go depth 5' | nesmind uai spot`).
        if self.running_waits {
            self.stop_search();
        } else {
            self.reap(true);
        }
    }
}

/// `startpos [moves ...]` or `fen FIELDS... [moves ...]`.
fn parse_position(args: &[&str]) -> Result<Game, String> {
    let split = args.iter().position(|&w| w == "moves");
    let (setup, moves) = match split {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut game = match setup.split_first() {
        Some((&"startpos", [])) => Game::startpos(),
        Some((&"startpos", extra)) => {
            return Err(format!(
                "position startpos: unexpected '{}'",
                extra.join(" ")
            ));
        }
        Some((&"fen", fields)) if !fields.is_empty() => Game::from_fen(&fields.join(" "))?,
        Some((&"fen", _)) => return Err("position fen: the FEN is missing".into()),
        _ => {
            return Err(format!(
                "position needs 'startpos' or 'fen FEN', got '{}'",
                setup.join(" ")
            ));
        }
    };
    for (i, m) in moves.iter().enumerate() {
        game.play_text(m)
            .map_err(|e| format!("position: {e} (move {} of the list)", i + 1))?;
    }
    Ok(game)
}

/// `nesmind uai spot`: speaks UAI on stdin/stdout until `quit` or end of input.
pub fn uai_tool(args: &[String]) -> Result<(), String> {
    if let Some(a) = args.first() {
        if a == "--help" || a == "-h" {
            println!(
                "nesmind uai spot: the Universal Ataxx Interface on stdin/stdout (2-player 7x7 Ataxx with gaps).\nCommands: uai, isready, uainewgame, position startpos|fen FEN [moves ...],\ngo [movetime MS | wtime MS btime MS winc MS binc MS | depth D | nodes N | infinite], stop, quit.\nSee plugins/spot/README.md."
            );
            return Ok(());
        }
        return Err(format!("nesmind uai spot takes no arguments, got '{a}'"));
    }
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    Engine::new(out).run(std::io::stdin().lock());
    Ok(())
}
