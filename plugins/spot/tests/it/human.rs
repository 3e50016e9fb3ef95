//! People against the Spot plug-in on the DOTS cart (what `nesmind demo spot --human` runs
//! in the window), with a scripted person on the pads: the harness sets the seats, the
//! plug-in calibrates and plays the other seats, the status line says whose turn it is and
//! what the plug-in expects, and each game ends with a result in the transcript.

use crate::person;
use nesmind_host::{Buttons, HumanGame, Rom, Session};
use nesmind_spot::demo::human::HumanDriver;
use nesmind_spot::demo::{COLOURS, DEMO};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Frames a press is held, then released, by the scripted person.
const HOLD: u32 = 3;

struct Played {
    transcript: Vec<String>,
    /// Every status line shown, in order, without repeats.
    statuses: Vec<String>,
    result: String,
}

/// Plays one game: the person sits at `humans` (0-based seats, on those pads), the plug-in
/// at the others with `level`; Start is pressed `delay` frames after the title is ready
/// (the cart's random draws depend on it: layout, first mover).
fn play_one_game(humans: &[usize], players: Option<usize>, level: &str, delay: u32) -> Played {
    let game = HumanGame {
        humans: humans.to_vec(),
        players,
        ai_level: Some(level.into()),
    };
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&lines);
    let driver = HumanDriver::new(
        &game,
        Box::new(move |l| sink.lock().unwrap().push(l.to_string())),
    )
    .unwrap();
    let players = players.unwrap_or(2);
    let rom = Rom::parse(DEMO.image, DEMO.file_name).unwrap();
    let mut session = Session::new(rom).unwrap();
    session.machine_mut().set_audio_enabled(false);
    session.attach(Box::new(driver), humans).unwrap();
    let pad_of = |colour: &str| {
        let slot = COLOURS.iter().position(|c| *c == colour).unwrap();
        assert!(
            humans.contains(&slot),
            "announced {colour}, not a person's seat"
        );
        slot
    };
    let mut queue: VecDeque<(usize, Buttons)> = VecDeque::new();
    let mut pressing: Option<(usize, u32)> = None;
    let (mut read, mut over) = (0, false);
    let mut start_in: Option<u32> = None;
    let mut statuses: Vec<String> = Vec::new();
    for _ in 0..60_000 {
        // The person: each press held HOLD frames, then released HOLD frames.
        match pressing {
            Some((pad, n)) if n == HOLD => {
                session.set_human_buttons(pad, Buttons::NONE);
                pressing = Some((pad, n + 1));
            }
            Some((pad, n)) if n < 2 * HOLD => pressing = Some((pad, n + 1)),
            _ => {
                pressing = None;
                if let Some((pad, b)) = queue.pop_front() {
                    session.set_human_buttons(pad, b);
                    pressing = Some((pad, 1));
                }
            }
        }
        session.step().unwrap();
        let status = session.status().to_string();
        if statuses.last() != Some(&status) {
            if status.ends_with("Start: play") && start_in.is_none() {
                start_in = Some(delay);
            }
            statuses.push(status);
        }
        match start_in {
            Some(0) => {
                queue.push_back((humans[0], Buttons::START));
                start_in = Some(u32::MAX);
            }
            Some(n) if n != u32::MAX => start_in = Some(n - 1),
            _ => {}
        }
        let new: Vec<String> = lines.lock().unwrap()[read..].to_vec();
        read += new.len();
        for line in new {
            if line.contains(" over: ") {
                over = true;
            }
            let Some(turn) = person::parse_turn(&line, players) else {
                continue;
            };
            assert!(queue.is_empty(), "a turn began with presses left: {line}");
            if let Some(mv) = person::pick(&turn.position) {
                let pad = pad_of(&turn.colour);
                for b in person::presses(&turn.position, turn.hand, mv) {
                    queue.push_back((pad, b));
                }
            }
        }
        if over {
            break;
        }
    }
    let transcript = lines.lock().unwrap().clone();
    assert!(
        over,
        "no game over within 60000 frames:\n{}\nlast status: {:?}",
        transcript.join("\n"),
        statuses.last()
    );
    Played {
        transcript,
        statuses,
        result: session.plugin_result().unwrap_or_default(),
    }
}

/// The counts in `game 1 over: RED 30 BLUE 19: RED (you) wins` agree with the verdict.
fn check_result(line: &str) {
    let body = line.split_once(" over: ").unwrap().1;
    let (counts, verdict) = body.rsplit_once(": ").unwrap();
    let counts: Vec<(&str, u32)> = counts
        .split(' ')
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|c| (c[0], c[1].parse().unwrap()))
        .collect();
    let best = counts.iter().map(|c| c.1).max().unwrap();
    let leaders: Vec<&str> = counts.iter().filter(|c| c.1 == best).map(|c| c.0).collect();
    match leaders[..] {
        [one] => assert!(verdict.starts_with(&format!("{one} (")), "{line}"),
        _ => assert_eq!(verdict, "a draw", "{line}"),
    }
}

#[test]
fn a_person_plays_a_whole_game_against_the_plugin_in_seat_two() {
    // The person is RED on pad 1; the plug-in plays BLUE through pad 2 and calibrates there.
    let p = play_one_game(&[0], None, "medium", 0);
    let t = &p.transcript;
    println!("{}", t.join("\n"));
    assert!(
        t[0].starts_with("RED (you), BLUE (AI); AI level 3 (medium)"),
        "{}",
        t[0]
    );
    assert!(t.iter().any(|l| l.starts_with("game 1: layout ")));
    let mine = t
        .iter()
        .filter(|l| l.starts_with("RED (you) plays"))
        .count();
    let theirs = t
        .iter()
        .filter(|l| l.starts_with("BLUE (AI) plays") && l.contains(" at depth "))
        .count();
    assert!(
        mine >= 3 && theirs >= 3,
        "{mine} person moves, {theirs} plug-in moves"
    );
    check_result(t.last().unwrap());
    // Whose turn, and what the plug-in expects once it has searched.
    let s = &p.statuses;
    assert!(s.iter().any(|l| l == "RED (you) to move"), "{s:#?}");
    assert!(
        s.iter()
            .any(|l| l.starts_with("RED (you) to move. BLUE ") && l.contains(", expects ")),
        "{s:#?}"
    );
    assert!(
        s.iter().any(|l| l.starts_with("BLUE (AI) plays ")),
        "{s:#?}"
    );
    assert!(
        s.iter()
            .any(|l| l.contains(" wins, ") || l.starts_with("a draw")),
        "{s:#?}"
    );
    assert!(p.result.contains(" 1 games"), "{}", p.result);
}

/// `game 1: layout 68, BLUE (AI) moves first: ...` -> `BLUE`.
fn first_mover(transcript: &[String]) -> String {
    let line = transcript
        .iter()
        .find(|l| l.starts_with("game 1: layout "))
        .expect("a game started");
    let who = line.split(", ").nth(1).unwrap();
    who.split(' ').next().unwrap().to_string()
}

#[test]
fn two_people_and_the_plugin_share_three_player_games() {
    // RED on pad 1 and GOLD on pad 3 (through the Four Score); the plug-in plays BLUE on
    // pad 2. Calibration must find the turns whoever moves first, so the games start at
    // different moments until each seat has moved first once.
    let mut firsts = Vec::new();
    for delay in 0..12 {
        let p = play_one_game(&[0, 2], Some(3), "easy", delay * 13);
        let t = &p.transcript;
        let first = first_mover(t);
        if firsts.contains(&first) {
            continue;
        }
        println!("{}", t.join("\n"));
        for who in ["RED (you) plays", "GOLD (you) plays", "BLUE (AI) plays"] {
            assert!(t.iter().any(|l| l.starts_with(who)), "no '{who}'");
        }
        check_result(t.last().unwrap());
        firsts.push(first);
        if firsts.len() == 3 {
            break;
        }
    }
    assert_eq!(firsts.len(), 3, "first movers seen: {firsts:?}");
}

/// Four players: BLUE and GREEN are people, the plug-in plays RED and GOLD (a test of its
/// own, so it runs beside the three-player games).
#[test]
fn two_people_and_the_plugin_share_a_four_player_game() {
    let p = play_one_game(&[1, 3], Some(4), "easy", 0);
    let t = &p.transcript;
    println!("{}", t.join("\n"));
    for who in [
        "RED (AI) plays",
        "BLUE (you) plays",
        "GOLD (AI) plays",
        "GREEN (you) plays",
    ] {
        assert!(t.iter().any(|l| l.starts_with(who)), "no '{who}'");
    }
    check_result(t.last().unwrap());
}

#[test]
fn bad_seats_are_refused_with_the_reason() {
    let err = |humans: &[usize], players: Option<usize>, level: Option<&str>| {
        let g = HumanGame {
            humans: humans.to_vec(),
            players,
            ai_level: level.map(str::to_string),
        };
        HumanDriver::new(&g, Box::new(|_| {})).err().unwrap()
    };
    assert!(err(&[0, 1], None, None).contains("leave at least one"));
    assert!(err(&[2], Some(2), None).contains("--players 3"));
    assert!(err(&[0, 0], Some(3), None).contains("twice"));
    assert!(err(&[], None, None).contains("at least one seat"));
    assert!(err(&[0], Some(5), None).contains("2-4"));
    assert!(err(&[0], None, Some("grandmaster")).contains("1 beginner"));
}
