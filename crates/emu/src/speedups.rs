//! The shortcuts that make the machine fast, each a switch.
//!
//! Every shortcut must give exactly the results of running without it: the same pictures,
//! RAM, sound and cycle counts. With all of them off the machine runs in lockstep, every
//! part clocked on every cycle, and that is the reference the tests compare against.

/// Which shortcuts the machine may take. `Speedups::ALL` is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speedups {
    /// Run the PPU only up to where the CPU could observe it (a register access, the NMI
    /// line, the frame's end), instead of on every PPU dot. Boards that watch the PPU
    /// address bus (MMC2/MMC4, MMC3) run lazily too: whole lines show them their fetches
    /// and the scheduler stops at the dot MMC3's IRQ rises on (`ppu/watched.rs`); only
    /// `lines_ahead` stays off for them.
    pub lazy_ppu: bool,
    /// Draw a visible line in one go when nothing can look inside it (`ppu/fast_line.rs`).
    pub whole_lines: bool,
    /// Draw a line ahead of the CPU's clock and redo it dot by dot only if the CPU touches
    /// the PPU inside it (`ppu/ahead.rs`). Needs `lazy_ppu` and `whole_lines`.
    pub lines_ahead: bool,
    /// Skip whole passes of wait loops up to the next cycle anything could act (`cpu/idle.rs`).
    pub skip_wait_loops: bool,
    /// Run the APU from event to event and synthesise sound between audible changes,
    /// instead of ticking every unit every cycle (`apu/mod.rs`).
    pub apu_events: bool,
}

impl Speedups {
    pub const ALL: Speedups = Speedups {
        lazy_ppu: true,
        whole_lines: true,
        lines_ahead: true,
        skip_wait_loops: true,
        apu_events: true,
    };
    /// Lockstep: the reference every shortcut is checked against.
    pub const NONE: Speedups = Speedups {
        lazy_ppu: false,
        whole_lines: false,
        lines_ahead: false,
        skip_wait_loops: false,
        apu_events: false,
    };

    /// The switch names `parse` accepts, in order.
    pub const NAMES: [&'static str; 5] = [
        "lazy_ppu",
        "whole_lines",
        "lines_ahead",
        "skip_wait_loops",
        "apu_events",
    ];

    fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "lazy_ppu" => &mut self.lazy_ppu,
            "whole_lines" => &mut self.whole_lines,
            "lines_ahead" => &mut self.lines_ahead,
            "skip_wait_loops" => &mut self.skip_wait_loops,
            "apu_events" => &mut self.apu_events,
            _ => return None,
        })
    }

    /// Parses `all`, `none`, or a comma-separated list starting from all on, where
    /// `-name` turns one shortcut off and `name` alone keeps only the named ones on:
    /// `-skip_wait_loops`, `lazy_ppu,whole_lines`.
    pub fn parse(text: &str) -> Result<Speedups, String> {
        let text = text.trim();
        match text {
            "all" => return Ok(Speedups::ALL),
            "none" | "lockstep" => return Ok(Speedups::NONE),
            _ => {}
        }
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let only = parts.iter().any(|p| !p.starts_with('-'));
        let mut out = if only { Speedups::NONE } else { Speedups::ALL };
        for part in parts {
            let (name, on) = match part.strip_prefix('-') {
                Some(name) => (name, false),
                None => (part, true),
            };
            let slot = out.switch(name).ok_or_else(|| {
                format!(
                    "unknown speed-up '{name}' (known: {}, or all / none)",
                    Speedups::NAMES.join(", ")
                )
            })?;
            *slot = on;
        }
        Ok(out)
    }
}

impl Default for Speedups {
    fn default() -> Self {
        Speedups::ALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lists_and_names() {
        assert_eq!(Speedups::parse("all"), Ok(Speedups::ALL));
        assert_eq!(Speedups::parse("none"), Ok(Speedups::NONE));
        let no_skip = Speedups::parse("-skip_wait_loops").unwrap();
        assert!(!no_skip.skip_wait_loops && no_skip.lazy_ppu && no_skip.apu_events);
        let two = Speedups::parse("lazy_ppu, whole_lines").unwrap();
        assert!(two.lazy_ppu && two.whole_lines && !two.lines_ahead && !two.apu_events);
        let err = Speedups::parse("-warp").unwrap_err();
        assert!(
            err.contains("'warp'") && err.contains("skip_wait_loops"),
            "{err}"
        );
    }
}
