use super::*;
use std::time::{Duration, Instant};

/// An engine writing into a buffer the test reads.
struct Harness {
    engine: Engine,
    buf: Arc<Mutex<Vec<u8>>>,
}

impl Harness {
    fn new() -> Harness {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let out: Output = buf.clone();
        Harness {
            engine: Engine::new(out),
            buf,
        }
    }

    fn send(&mut self, line: &str) -> bool {
        self.engine.handle(line)
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.buf.lock().unwrap()).into_owned()
    }

    /// Takes the output so far.
    fn drain(&self) -> Vec<String> {
        let mut b = self.buf.lock().unwrap();
        let text = String::from_utf8_lossy(&b).into_owned();
        b.clear();
        text.lines().map(str::to_owned).collect()
    }

    /// Waits for a `bestmove` line and returns its move with all lines before it.
    fn bestmove(&self) -> (String, Vec<String>) {
        let start = Instant::now();
        while !self.text().contains("bestmove") {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no bestmove: {}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        let lines = self.drain();
        let last = lines.last().expect("a line").clone();
        let mv = last
            .strip_prefix("bestmove ")
            .expect("bestmove last")
            .to_owned();
        (mv, lines)
    }
}

#[test]
fn handshake_and_a_depth_search_from_a_fen_with_moves() {
    let mut h = Harness::new();
    h.send("uai");
    let hello = h.drain();
    assert!(hello[0].starts_with("id name nesmind-spot"), "{hello:?}");
    assert_eq!(hello.last().unwrap(), "uaiok");
    h.send("isready");
    assert_eq!(h.drain(), ["readyok"]);
    h.send("uainewgame");
    h.send("position fen x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1 moves f2 a1b3");
    assert!(h.drain().is_empty());
    assert_eq!(h.engine.game().pos.to_move(), 0);
    h.send("go depth 3");
    let (mv, lines) = h.bestmove();
    let mut game = *h.engine.game();
    game.play_text(&mv).expect("a legal bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:?}");
    let last = infos[2];
    assert!(
        last.starts_with("info depth 3 score cp ")
            && last.contains(" nodes ")
            && last.contains(" nps "),
        "{last}"
    );
    let pv: Vec<&str> = last.split(" pv ").nth(1).unwrap().split(' ').collect();
    assert_eq!(pv[0], mv);
}

#[test]
fn node_and_clock_limits_end_the_search() {
    let mut h = Harness::new();
    h.send("position startpos moves g2 a2");
    h.send("go nodes 5000 simulations 5000");
    let (mv, lines) = h.bestmove();
    assert!(parse_move(&mv).is_ok(), "{lines:?}");
    let nodes: u64 = lines
        .iter()
        .rev()
        .find_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok())
        .expect("an info line with nodes");
    // The first iteration always completes; later ones stop at the budget.
    assert!(nodes <= 5000 + 2000, "{nodes}");
    h.send("go btime 2000 wtime 2000 binc 10 winc 10");
    let start = Instant::now();
    h.bestmove();
    assert!(start.elapsed() < Duration::from_secs(2));
    // x to move with only o's clock given: o's clock stands for both.
    h.send("go wtime 1000");
    let start = Instant::now();
    h.bestmove();
    assert!(start.elapsed() < Duration::from_secs(1));
    let ms = |v: u64| Some(Duration::from_millis(v));
    assert_eq!(
        GoLimits::parse(&["wtime", "1000"]).unwrap().time_limits(0),
        (ms(20), ms(120))
    );
    // A 25th of the clock plus 3/4 of the increment; at most three times that, half the clock.
    let clock = ["btime", "10000", "wtime", "500", "binc", "100", "winc", "0"];
    let limits = GoLimits::parse(&clock).unwrap();
    assert_eq!(limits.time_limits(0), (ms(237), ms(1425)));
    assert_eq!(limits.time_limits(1), (ms(10), ms(60)));
    assert_eq!(
        GoLimits::parse(&["movetime", "100"])
            .unwrap()
            .time_limits(0),
        (None, ms(90))
    );
    // Commands piped behind a limited search wait for its bestmove instead of being lost.
    h.send("go movetime 30");
    h.send("position startpos moves f2");
    let lines = h.drain();
    assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    h.send("go depth 2");
    let (mv, _) = h.bestmove();
    let mut g = Game::startpos();
    g.play_text("f2").unwrap();
    g.play_text(&mv).expect("searched from the piped position");
}

#[test]
fn go_infinite_waits_for_stop_and_answers_isready_meanwhile() {
    let mut h = Harness::new();
    h.send("position startpos");
    h.send("go infinite");
    std::thread::sleep(Duration::from_millis(150));
    h.send("isready");
    std::thread::sleep(Duration::from_millis(20));
    let text = h.text();
    assert!(
        text.contains("readyok") && !text.contains("bestmove"),
        "{text}"
    );
    h.send("position startpos moves f2");
    assert!(h.text().contains("ignored while an infinite search runs"));
    h.send("stop");
    // `stop` returns after the search thread printed its move.
    let (mv, _) = h.bestmove();
    Game::startpos().play_text(&mv).unwrap();
    // A bare `go` also waits for stop (as in UCI); `quit` ends it and the engine.
    h.send("go");
    std::thread::sleep(Duration::from_millis(50));
    assert!(!h.text().contains("bestmove"));
    assert!(!h.send("quit"));
    assert!(h.text().contains("bestmove"));
}

#[test]
fn malformed_input_gets_an_error_line_and_leaves_the_state_alone() {
    let mut h = Harness::new();
    h.send("position startpos moves f2");
    let before = *h.engine.game();
    for bad in [
        "position fen x5o/7/7/7/7/7/o5q x",
        "position fen",
        "position startpos moves f2 a1a2",
        "position startpos moves zz",
        "position sideways",
        "position startpos extra",
        "go depth banana",
        "go depth 0",
        "go nodes",
        "go sideways 3",
        "flibbertigibbet",
        "setoption name Hash value 64",
        "position fen \u{fffd}\u{fffd}",
    ] {
        h.send(bad);
        let lines = h.drain();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string error: "),
            "{bad}: {lines:?}"
        );
        assert_eq!(*h.engine.game(), before, "{bad}");
    }
    assert!(h.send(""));
    assert!(h.drain().is_empty());
    h.send("isready");
    assert_eq!(h.drain(), ["readyok"]);
}

#[test]
fn passes_and_finished_games_answer_0000() {
    let mut h = Harness::new();
    // o (g1) is walled in by gaps while x still has b3: o must pass.
    h.send("position fen -------/-------/-------/-------/x1-----/-------/------o o 0 1");
    h.send("go depth 4");
    let (mv, lines) = h.bestmove();
    assert_eq!(mv, "0000", "{lines:?}");
    h.send("position fen -------/-------/-------/-------/x1-----/-------/------o o moves 0000 b3");
    h.send("go movetime 10");
    let (mv, lines) = h.bestmove();
    assert_eq!(mv, "0000");
    assert!(lines[0].contains("the game is over"), "{lines:?}");
}

#[test]
fn the_engine_finds_a_won_ending_and_reports_mate() {
    let mut h = Harness::new();
    // x takes o's last piece with a clone to b6 (or a7b5 style jumps next to it).
    h.send("position fen x6/2o4/7/7/7/7/6x x");
    h.send("go depth 4");
    let (mv, lines) = h.bestmove();
    let mut g = *h.engine.game();
    g.play_text(&mv).unwrap();
    assert_eq!(g.pos.count(1), 0, "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
}

#[test]
fn run_reads_lines_until_end_of_input_even_with_bad_bytes() {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let out: Output = buf.clone();
    let input: &[u8] = b"uai\n\xff\xfe\nposition startpos\ngo depth 5\n";
    Engine::new(out).run(input);
    let text = String::from_utf8_lossy(&buf.lock().unwrap()).into_owned();
    assert!(
        text.contains("uaiok") && text.contains("unknown command"),
        "{text}"
    );
    assert!(
        text.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("bestmove "),
        "{text}"
    );
}
