//! In-tree plug-ins and their command-line tools.

use crate::host::{Plugin, PluginOptions};

pub mod hatris;
pub mod search;
pub mod spot;

/// A command-line tool a plug-in provides, e.g. `nesmind arena spot ...`.
pub type ToolFn = fn(args: &[String]) -> Result<(), String>;

/// One registered plug-in.
pub struct Entry {
    pub name: &'static str,
    pub description: &'static str,
    pub create: fn(&PluginOptions) -> Result<Box<dyn Plugin>, String>,
    /// (tool name, entry point): `nesmind <tool> <plugin> [args...]`.
    pub tools: &'static [(&'static str, ToolFn)],
    /// The open demo cartridge this plug-in plays, for `nesmind demo <plugin>`.
    pub demo: Option<&'static Demo>,
}

/// An open cartridge built from source in the repo, so the plug-in can be watched and
/// tested without a commercial ROM.
pub struct Demo {
    /// Shown in the window title and in messages.
    pub file_name: &'static str,
    /// The committed iNES image.
    pub image: &'static [u8],
    /// Plug-in options used when the demo plays in the window.
    pub window_options: &'static [(&'static str, &'static str)],
    /// `nesmind demo <plugin> --headless [args...]`: plays without a window and prints a
    /// summary whose last line is the figure of merit (e.g. `win_rate W`).
    pub headless: ToolFn,
}

/// Every in-tree plug-in, in the order `nesmind plugins` lists them.
pub fn registry() -> Vec<&'static Entry> {
    vec![&spot::ENTRY, &hatris::ENTRY]
}

/// Finds a plug-in by name (case-insensitive).
pub fn find(name: &str) -> Result<&'static Entry, String> {
    registry()
        .into_iter()
        .find(|e| e.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let known: Vec<&str> = registry().iter().map(|e| e.name).collect();
            format!("unknown plug-in '{name}' (known: {})", known.join(", "))
        })
}

/// Runs `nesmind <tool> <plugin> [args...]`.
pub fn run_tool(tool: &str, plugin: &str, args: &[String]) -> Result<(), String> {
    let entry = find(plugin)?;
    let (_, run) = entry
        .tools
        .iter()
        .find(|(t, _)| *t == tool)
        .ok_or_else(|| {
            let have: Vec<&str> = entry.tools.iter().map(|(t, _)| *t).collect();
            format!(
                "plug-in '{}' has no '{tool}' tool (it has: {})",
                entry.name,
                if have.is_empty() {
                    "none".to_string()
                } else {
                    have.join(", ")
                }
            )
        })?;
    run(args)
}
