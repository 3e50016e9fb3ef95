use super::*;

const B: Buttons = Buttons::B;

#[test]
fn an_fm2_reads_its_pads_and_commands_one_frame_on() {
    let text = "version 3\nemuVersion 22020\nromFilename lawn\nport0 1\nport1 1\nport2 0\n\
                |0|........|........||\n\
                |0|R..U...A|.......A||\n\
                |1|.L..T.B.|........||\n\
                |2|..D..S..|R.......||\n";
    let m = Movie::parse(text.as_bytes()).unwrap();
    assert_eq!(m.format, Format::Fm2);
    assert_eq!(m.game.as_deref(), Some("lawn"));
    assert_eq!(
        m.pads,
        [
            [
                Buttons::RIGHT | Buttons::UP | Buttons::A,
                Buttons::A,
                Buttons::NONE,
                Buttons::NONE
            ],
            [
                Buttons::LEFT | Buttons::START | B,
                Buttons::NONE,
                Buttons::NONE,
                Buttons::NONE
            ],
            [
                Buttons::DOWN | Buttons::SELECT,
                Buttons::RIGHT,
                Buttons::NONE,
                Buttons::NONE
            ],
        ]
    );
    assert_eq!(m.commands, [(2, Command::Reset), (3, Command::Power)]);
    assert!(!m.four_score && m.start_state.is_none());
    // A Four Score: four pads a line.
    let four = "version 3\nfourscore 1\n|0|........|........|........|........||\n\
                |0|.......A|......B.|...U....|R.......||\n";
    let m = Movie::parse(four.as_bytes()).unwrap();
    assert!(m.four_score);
    assert_eq!(m.pads, [[Buttons::A, B, Buttons::UP, Buttons::RIGHT]]);
}

#[test]
fn fm2_movies_nesmind_cannot_play_are_refused_by_name() {
    let base = "version 3\nport0 1\nport1 1\n";
    for (extra, lines, needle) in [
        ("binary 1\n", "", "binary"),
        ("palFlag 1\n", "", "PAL"),
        ("FDS 1\n", "", "Disk System"),
        ("savestate base64:AAAA\n", "", "savestate"),
        ("port1 2\n", "", "port1 2"),
        ("", "|4|........|........||\n", "FDS disk"),
        ("", "|x|........|........||\n", "not a number"),
        ("", "|0|........\n", "not an input line"),
    ] {
        let text = format!("{base}{extra}|0|........|........||\n{lines}");
        let e = Movie::parse(text.as_bytes()).unwrap_err();
        assert!(e.contains(needle), "{extra}{lines}: {e}");
    }
    assert!(
        Movie::parse(b"version 2\n")
            .unwrap_err()
            .contains("version 2")
    );
    assert!(Movie::parse(b"\xFF\xFE").unwrap_err().contains("not text"));
    assert!(Movie::parse(b"hello").is_err());
}

fn bk2(log: &str, state: Option<&[u8]>) -> Vec<u8> {
    let header = b"MovieVersion Retro\nPlatform NES\nGameName Lawn-Nes\n";
    let mut files: Vec<(&str, &[u8])> =
        vec![("Header.txt", header), ("Input Log.txt", log.as_bytes())];
    if let Some(s) = state {
        files.push(("Core.bin", s));
    }
    zip::store(&files)
}

#[test]
fn a_bk2_reads_stable_retro_and_bizhawk_key_lists() {
    // stable-retro: no console keys named, a console column written.
    let keys = "P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 B|\
                P2 A|P2 Right|P2 Left|P2 Down|P2 Up|P2 Start|P2 Select|P2 B|";
    let log = format!(
        "[Input]\n{keys}\n|..|........|........|\n|..|.R..U..B|.R.....B|\n\
                       |..|....U.s.|A.......|\n[/Input]\n"
    );
    let m = Movie::parse(&bk2(&log, Some(b"FCS state"))).unwrap();
    assert_eq!(
        (m.format, m.game.as_deref()),
        (Format::Bk2, Some("Lawn-Nes"))
    );
    assert_eq!(m.start_state.as_deref(), Some(&b"FCS state"[..]));
    assert_eq!(
        m.pads,
        [
            [
                Buttons::RIGHT | Buttons::UP | B,
                Buttons::RIGHT | B,
                Buttons::NONE,
                Buttons::NONE
            ],
            [
                Buttons::UP | Buttons::SELECT,
                Buttons::A,
                Buttons::NONE,
                Buttons::NONE
            ],
        ]
    );
    // BizHawk: the console's Reset and Power keys first.
    let log = "[Input]\nLogKey:#Reset|Power|#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|\n\
               |..|........|\n|r.|U......A|\n|.P|........|\n[/Input]\n";
    let m = Movie::parse(&bk2(log, None)).unwrap();
    assert_eq!(m.pads[0][0], Buttons::UP | Buttons::A);
    assert_eq!(m.commands, [(1, Command::Reset), (2, Command::Power)]);
    // Damage named.
    for (log, needle) in [
        ("[Input]\n|..|\n", "names no keys"),
        ("P1 Jump|\n|..|.|\n", "not an NES pad button"),
        ("P9 A|\n|..|.|\n", "not a player"),
        ("P1 A|P1 B|\n|..|...|\n", "frame 1: 3 keys"),
    ] {
        let e = Movie::parse(&bk2(log, None)).unwrap_err();
        assert!(e.contains(needle), "{log}: {e}");
    }
    let e = Movie::parse(&zip::store(&[("Header.txt", b"x")])).unwrap_err();
    assert!(e.contains("Input Log.txt"), "{e}");
}

#[test]
fn damaged_movies_are_errors_never_panics() {
    let log = "P1 A|P1 B|\n|..|..|\n|..|A.|\n|..|.B|\n";
    let file = bk2(log, Some(b"state"));
    for at in 0..file.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut bad = file.clone();
            bad[at] ^= flip;
            let _ = Movie::parse(&bad);
        }
        let _ = Movie::parse(&file[..at]);
    }
    let fm2 = b"version 3\nport0 1\nport1 1\n|0|R..U...A|.......A||\n|1|........|........||\n";
    for at in 0..fm2.len() {
        let mut bad = fm2.to_vec();
        bad[at] ^= 0x20;
        let _ = Movie::parse(&bad);
        let _ = Movie::parse(&fm2[..at]);
    }
}
