//! Named strengths for play against a person (`--ai-level`, the plug-in's `level=` option,
//! the arena's `level:N` seat): a fixed search budget per move, so a level plays the same on
//! any machine, and at the bottom a share of random moves so a beginner can win.

/// One level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub number: u8,
    pub name: &'static str,
    /// Deepest search, in plies.
    pub depth: u32,
    /// At most this many search nodes per move (the first iteration always completes).
    pub nodes: u64,
    /// Share of moves picked at random among the legal ones instead of searched.
    pub random_share: f64,
}

/// Levels 1-5, weakest first.
pub const LEVELS: [Level; 5] = [
    Level {
        number: 1,
        name: "beginner",
        depth: 1,
        nodes: 1_000,
        random_share: 0.5,
    },
    Level {
        number: 2,
        name: "easy",
        depth: 1,
        nodes: 1_000,
        random_share: 0.0,
    },
    Level {
        number: 3,
        name: "medium",
        depth: 2,
        nodes: 10_000,
        random_share: 0.0,
    },
    Level {
        number: 4,
        name: "hard",
        depth: 4,
        nodes: 50_000,
        random_share: 0.0,
    },
    Level {
        number: 5,
        name: "max",
        depth: 64,
        nodes: 300_000,
        random_share: 0.0,
    },
];

/// What the window demo plays against a person when no level is given.
pub const DEFAULT_LEVEL: u8 = 3;

impl Level {
    /// `1`-`5` or a level's name.
    pub fn parse(text: &str) -> Result<Level, String> {
        let t = text.trim().to_ascii_lowercase();
        LEVELS
            .iter()
            .find(|l| t == l.name || t == l.number.to_string())
            .copied()
            .ok_or_else(|| format!("AI level '{text}' is not one of {}", names()))
    }

    /// Level `n` (1-5).
    pub fn number(n: u8) -> Result<Level, String> {
        Level::parse(&n.to_string())
    }
}

/// `1 beginner, 2 easy, ...` for messages and help.
pub fn names() -> String {
    let all: Vec<String> = LEVELS
        .iter()
        .map(|l| format!("{} {}", l.number, l.name))
        .collect();
    all.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_by_number_or_name_and_grow_stronger() {
        assert_eq!(Level::parse("Beginner").unwrap().number, 1);
        assert_eq!(Level::parse(" 4 ").unwrap().name, "hard");
        assert_eq!(Level::number(5).unwrap().name, "max");
        let e = Level::parse("expert").unwrap_err();
        assert!(e.contains("'expert'") && e.contains("3 medium"), "{e}");
        assert!(Level::number(0).is_err() && Level::number(6).is_err());
        for w in LEVELS.windows(2) {
            assert!(w[0].number + 1 == w[1].number);
            assert!(w[0].depth <= w[1].depth && w[0].nodes <= w[1].nodes);
            assert!(w[0].random_share >= w[1].random_share);
        }
    }
}
