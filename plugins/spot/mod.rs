//! Spot plug-in (under construction in its own worktree).

use crate::host::{Plugin, PluginOptions};

pub static ENTRY: super::Entry = super::Entry {
    name: "spot",
    description: "Spot AI player",
    create,
    tools: &[],
};

fn create(_opts: &PluginOptions) -> Result<Box<dyn Plugin>, String> {
    Err("the spot plug-in is not built yet".to_string())
}
