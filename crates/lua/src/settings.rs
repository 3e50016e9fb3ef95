//! The plug-in's own options (`--lua-arg`/`--plugin-opt KEY=VALUE`; every option also
//! reaches the script in its `arg` table) and the dialect read from a script's text.

use crate::shared::Dialect;
use nesmind_emu::AccessKind;
use nesmind_host::PluginOptions;

#[derive(Clone, Debug)]
pub struct Settings {
    /// Lua instructions per frame before the script is stopped as runaway.
    pub budget: u64,
    /// Bytes the Lua state may allocate.
    pub memory: usize,
    /// File access outside the script's folder, processes and native modules.
    pub unsafe_files: bool,
    /// `None`: detected from the names the script uses.
    pub dialect: Option<Dialect>,
    /// Seed of `math.random` (fixed against `math.randomseed` when given).
    pub seed: Option<u64>,
    /// On a script error, report it and let the game run on (instead of ending the run).
    pub keep_going: bool,
    /// Pads the script drives (more than 2 plugs in a Four Score).
    pub pads: usize,
}

/// Some 0.1-0.3 s of Lua per frame: far beyond any bot's need, short enough to notice.
pub const DEFAULT_BUDGET: u64 = 50_000_000;
pub const DEFAULT_MEMORY_MB: usize = 512;

impl Settings {
    pub fn from_options(opts: &PluginOptions) -> Result<Settings, String> {
        let number = |key: &str, default: u64| -> Result<u64, String> {
            match opts.get(key) {
                None => Ok(default),
                Some(v) => v
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| {
                        format!("Lua option {key}='{v}' is not a positive whole number")
                    }),
            }
        };
        let flag = |key: &str| -> Result<bool, String> {
            match opts.get(key).map(|v| v.trim().to_ascii_lowercase()) {
                None => Ok(false),
                Some(v) if matches!(v.as_str(), "1" | "true" | "yes" | "") => Ok(true),
                Some(v) if matches!(v.as_str(), "0" | "false" | "no") => Ok(false),
                Some(v) => Err(format!("Lua option {key}='{v}' is not true or false")),
            }
        };
        let dialect = match opts.get("dialect").map(|d| d.trim().to_ascii_lowercase()) {
            None => None,
            Some(d) if d == "auto" => None,
            Some(d) if d == "fceux" => Some(Dialect::Fceux),
            Some(d) if d == "bizhawk" => Some(Dialect::BizHawk),
            Some(d) => {
                return Err(format!(
                    "Lua option dialect='{d}' is not fceux, bizhawk or auto"
                ));
            }
        };
        let keep_going = match opts.get("on-error").map(|v| v.trim()) {
            None | Some("stop") => false,
            Some("continue") => true,
            Some(v) => return Err(format!("Lua option on-error='{v}' is not stop or continue")),
        };
        let pads = number("pads", 2)?;
        if pads > 4 {
            return Err(format!("Lua option pads={pads}: the NES takes at most 4"));
        }
        let memory_mb = number("memory-mb", DEFAULT_MEMORY_MB as u64)?;
        Ok(Settings {
            budget: number("budget", DEFAULT_BUDGET)?,
            memory: usize::try_from(memory_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX),
            unsafe_files: flag("unsafe")?,
            dialect,
            seed: opts.get("seed").map(|_| number("seed", 0)).transpose()?,
            keep_going,
            pads: pads as usize,
        })
    }
}

/// Names only BizHawk has; a script using none of them is taken as FCEUX's.
const BIZHAWK_NAMES: &[&str] = &[
    "mainmemory.",
    "memorysavestate.",
    "event.on",
    "console.log",
    "console.writeline",
    "client.",
    "forms.",
    "gui.drawText",
    "emu.yield",
];

pub fn detect(source: &str) -> Dialect {
    if BIZHAWK_NAMES.iter().any(|n| source.contains(n)) {
        Dialect::BizHawk
    } else {
        Dialect::Fceux
    }
}

/// The accesses a script's memory callbacks need watched. Watches are fixed when the
/// plug-in attaches, so they are read from the names in the text; a watch costs the
/// emulator a little on every access, so only the kinds named are watched.
pub fn watched_kinds(source: &str) -> Vec<AccessKind> {
    let names: [(AccessKind, &[&str]); 3] = [
        (
            AccessKind::Write,
            &["memory.register(", "registerwrite", "onmemorywrite"],
        ),
        (AccessKind::Read, &["registerread", "onmemoryread"]),
        (
            AccessKind::Execute,
            &["registerexec", "registerrun", "onmemoryexecute"],
        ),
    ];
    names
        .iter()
        .filter(|(_, ns)| ns.iter().any(|n| source.contains(n)))
        .map(|(k, _)| *k)
        .collect()
}

/// Whether the script asks about lag frames (frames in which the game read no pad): then
/// the pad ports are watched.
pub fn wants_lag(source: &str) -> bool {
    ["lagcount", "lagged", "islagged", "setlagflag"]
        .iter()
        .any(|n| source.contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_and_detection() {
        let mut o = PluginOptions::new();
        o.insert("budget".into(), "1000".into());
        o.insert("seed".into(), "7".into());
        let s = Settings::from_options(&o).unwrap();
        assert_eq!((s.budget, s.seed, s.pads), (1000, Some(7), 2));
        o.insert("budget".into(), "lots".into());
        assert!(Settings::from_options(&o).unwrap_err().contains("budget"));
        assert_eq!(detect("local x = mainmemory.read_u8(1)"), Dialect::BizHawk);
        assert_eq!(detect("memory.readbyte(1)"), Dialect::Fceux);
        assert_eq!(
            watched_kinds("memory.registerwrite(0x10, f)"),
            [AccessKind::Write]
        );
    }
}
