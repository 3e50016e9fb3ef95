//! The in-tree plug-ins, by name, and their command-line tools.

pub use crate::host::{Demo, Entry, ToolFn};
pub use nesmind_hatris as hatris;
pub use nesmind_search as search;
pub use nesmind_spot as spot;

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
