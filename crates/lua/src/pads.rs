//! Pad-table keys as scripts write them: FCEUX's `{A=true, up=true}`, BizHawk's
//! `{["P1 A"]=true, Up=true}`; names are matched without regard to case. (The prelude
//! walks the tables; a key's meaning is worked out here once per spelling.)

use mlua::{Lua, Result, Table};
use nesmind_host::Buttons;

const NAMES: [(&str, Buttons); 8] = [
    ("a", Buttons::A),
    ("b", Buttons::B),
    ("select", Buttons::SELECT),
    ("start", Buttons::START),
    ("up", Buttons::UP),
    ("down", Buttons::DOWN),
    ("left", Buttons::LEFT),
    ("right", Buttons::RIGHT),
];

/// The button a key names, and the pad (0-based) when the key carries a `P1 ` prefix.
pub fn button(key: &str) -> Option<(Option<usize>, Buttons)> {
    let key = key.trim();
    let (pad, name) = match key.split_once(' ') {
        Some((p, rest)) if p.len() == 2 && p.starts_with(['P', 'p']) => {
            let n = p[1..]
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=4).contains(n))?;
            (Some(n - 1), rest)
        }
        _ => (None, key),
    };
    let b = NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))?.1;
    Some((pad, b))
}

/// A table of all eight buttons, `true` where held. FCEUX names them in lower case
/// (`A`, `B` upper); BizHawk capitalises them, with a `P1 ` prefix when `prefix` is set.
pub fn table(lua: &Lua, b: Buttons, bizhawk: bool, prefix: Option<usize>) -> Result<Table> {
    let t = lua.create_table()?;
    for (name, bit) in NAMES {
        let mut key = match (name, bizhawk) {
            ("a" | "b", _) => name.to_ascii_uppercase(),
            (_, false) => name.to_string(),
            (_, true) => name[..1].to_ascii_uppercase() + &name[1..],
        };
        if let Some(p) = prefix {
            key = format!("P{} {key}", p + 1);
        }
        t.set(key, b.contains(bit))?;
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings() {
        assert_eq!(button("up"), Some((None, Buttons::UP)));
        assert_eq!(button("P2 Start"), Some((Some(1), Buttons::START)));
        assert_eq!(button("P5 A"), None);
        assert_eq!(button("Trigger"), None);
    }
}
