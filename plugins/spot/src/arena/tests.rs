use super::*;

#[test]
fn wilson_interval_matches_the_textbook_formula() {
    let (lo, hi) = wilson95(989, 1000);
    assert!(
        (lo - 0.9804).abs() < 1e-4 && (hi - 0.9938).abs() < 1e-4,
        "{lo} {hi}"
    );
    assert_eq!(wilson95(0, 0), (0.0, 1.0));
    let (lo, hi) = wilson95(0, 10);
    assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-3);
}

#[test]
fn seats_repeat_the_last_entry_and_bad_names_are_named() {
    let s = parse_seats("spot,nes-ai:3", 4).unwrap();
    assert_eq!(s.len(), 4);
    assert_eq!(s[3], SeatKind::NesAi(3));
    assert!(
        parse_seats("hypermax,nes-ai:9", 2)
            .unwrap_err()
            .contains("nes-ai:9")
    );
    assert!(parse_seats("a,b,c", 2).is_err());
    assert!(
        parse_seats("spot,spot,spot", 2)
            .unwrap_err()
            .contains("3 seats")
    );
}

#[test]
fn a_short_arena_reports_every_seat_and_ends_with_the_win_rate() {
    let cfg = ArenaConfig {
        games: 6,
        players: 3,
        seats: parse_seats("greedy,random", 3).unwrap(),
        move_time: Duration::from_millis(1),
        seed: 3,
        threads: 2,
        layout: None,
        bonus: true,
        first_game: 0,
        all_layouts: false,
        skip_decided: false,
        budget: MoveBudget::default(),
    };
    let records = run(&cfg, |_| {});
    assert_eq!(records.len(), 6);
    for r in &records {
        let firsts = r.placings.iter().filter(|&&p| p == Placing::Won).count();
        assert!(firsts <= 1);
    }
    let text = report(&cfg, &records);
    assert_eq!(text.lines().count(), 1 + 3 + 2);
    assert!(
        text.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("win_rate ")
    );
}

#[test]
fn a_node_budget_plays_the_same_games_on_any_thread_count() {
    let cfg = |threads, nodes| ArenaConfig {
        games: 6,
        players: 2,
        seats: parse_seats("negamax,spot", 2).unwrap(),
        // A time budget this small would cut searches short at load-dependent points.
        move_time: Duration::from_millis(1),
        seed: 11,
        threads,
        layout: None,
        bonus: true,
        first_game: 0,
        all_layouts: false,
        skip_decided: false,
        budget: MoveBudget {
            nodes: Some(nodes),
            depth: None,
        },
    };
    let one = run(&cfg(1, 4000), |_| {});
    assert_eq!(one, run(&cfg(2, 4000), |_| {}));
    assert_eq!(one, run(&cfg(3, 4000), |_| {}));
    assert_ne!(one, run(&cfg(2, 40), |_| {}), "the budget changes the play");
    let text = report(&cfg(1, 4000), &one);
    assert!(text.contains("move-nodes 4000"), "{text}");
}

#[test]
fn two_player_reports_split_decided_layouts_from_the_rest() {
    let cfg = |layout: Option<u64>, games| ArenaConfig {
        games,
        players: 2,
        seats: parse_seats("negamax,nes-ai:5", 2).unwrap(),
        move_time: Duration::from_millis(1),
        seed: 5,
        threads: 2,
        layout,
        bonus: false,
        first_game: 0,
        all_layouts: false,
        skip_decided: false,
        budget: MoveBudget {
            nodes: Some(2000),
            depth: None,
        },
    };
    // Layout 27: the first mover wipes the second out (RESULTS.md).
    let decided = builtin_layout(27).unwrap();
    assert!(super::split::is_decided(decided));
    let c = cfg(Some(decided), 4);
    let records = run(&c, |_| {});
    let s = super::split::split(c.layout, &records, Some(&[0, 1, 0, 1]));
    assert_eq!((s.decided.games, s.undecided.games), (4, 0));
    assert_eq!(
        s.decided_first.unwrap().wins,
        2,
        "seat 1 wins when it moves first"
    );
    assert_eq!(s.decided.wins, 2, "and loses when it moves second");
    let c = cfg(None, 40);
    let records = run(&c, |_| {});
    let text = report_in_game_order(&c, &records);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 2 + 1 + 3 + 2, "{text}");
    assert!(
        lines[4].starts_with("all ") && lines[6].starts_with("undecided "),
        "{text}"
    );
    assert!(
        lines[5].contains("6-ply full-width negamax proves won"),
        "{text}"
    );
    assert!(lines[7].starts_with("win_rate_undecided ") && lines[8].starts_with("win_rate "));
    let s = super::split::split(None, &records, None);
    assert_eq!(s.decided.games + s.undecided.games, 40);
    assert_eq!(
        s.all.wins,
        records
            .iter()
            .filter(|r| r.placings[0] == Placing::Won)
            .count()
    );
    assert_eq!(first_mover_seat(2, 0), 0);
    assert_eq!(first_mover_seat(2, 1), 1);
    assert_eq!(first_mover_seat(3, 1), 2);
    // Slices played elsewhere and merged in any order report as the whole run does.
    let mut indexed: Vec<(usize, GameRecord)> = records.iter().cloned().enumerate().collect();
    indexed.reverse();
    indexed.rotate_left(7);
    assert_eq!(report_indexed(&c, &indexed), text);
    assert_ne!(
        report(&c, &records),
        text,
        "without indices the first movers are unknown"
    );
}

#[test]
fn the_loss_check_finds_wins_a_random_player_gave_away_and_none_of_a_deep_search() {
    let cfg = |seats| ArenaConfig {
        games: 8,
        players: 2,
        seats: parse_seats(seats, 2).unwrap(),
        move_time: Duration::from_millis(1),
        seed: 9,
        threads: 2,
        layout: None,
        bonus: false,
        first_game: 0,
        all_layouts: false,
        skip_decided: true,
        budget: MoveBudget {
            nodes: None,
            depth: Some(4),
        },
    };
    let random = cfg("random,random");
    let missed: usize = (0..8)
        .map(|i| super::check::missed_wins(&random, i, 0, 5).missed.len())
        .sum();
    assert!(
        missed > 0,
        "a random player misses a forced win now and then"
    );
    // A 4-ply search never misses a win a 3-ply search proves.
    let deep = cfg("negamax,greedy");
    for i in 0..4 {
        let c = super::check::missed_wins(&deep, i, 0, 3);
        assert!(c.turns > 0 && c.missed.is_empty(), "game {i}: {c:?}");
    }
}

/// o leads 13-4 and x cannot move. The one safe fill is the clone to a1; every other empty
/// square needs a jump that opens a hole x can jump into. A search whose horizon does not
/// reach the end saw jumping b3-a1 and back as no worse than progress, and did it until
/// the stall limit (arena game 253 at 500 nodes a move). Scoring a return to an earlier
/// position as a draw makes it fill the board and win.
#[test]
fn a_side_ahead_finishes_the_game_instead_of_moving_to_and_fro() {
    let mut pos =
        crate::layouts::parse_fen("xo---2/xoo-3/-o---1-/-------/-o---o-/ooo-ooo/1o---xx o", 2)
            .unwrap();
    let seats = parse_seats("spot,nes-ai:5", 2).unwrap();
    let mut o = Seat::new(seats[0].clone(), 2, Duration::from_millis(100), 7);
    o.set_fixed_budget(Some(500), None);
    let mut x = Seat::new(seats[1].clone(), 2, Duration::from_millis(100), 8);
    for _ in 0..STALL_PLIES {
        if pos.is_over() {
            break;
        }
        let mv = if pos.to_move() == 1 {
            o.choose(&pos)
        } else {
            x.choose(&pos)
        };
        pos = pos.play(mv);
    }
    assert!(pos.is_over(), "still going after {STALL_PLIES} plies");
    assert!(
        pos.count(1) > pos.count(0),
        "o {} x {}",
        pos.count(1),
        pos.count(0)
    );
}
