//! Hatris plug-in (under construction in its own worktree).

use crate::host::{Plugin, PluginOptions};

pub static ENTRY: super::Entry = super::Entry {
    name: "hatris",
    description: "Hatris AI player",
    create,
    tools: &[],
};

fn create(_opts: &PluginOptions) -> Result<Box<dyn Plugin>, String> {
    Err("the hatris plug-in is not built yet".to_string())
}
