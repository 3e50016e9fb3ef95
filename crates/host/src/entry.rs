//! How an in-tree plug-in presents itself to the command line: its name, constructor,
//! tools and demo cartridge.

use crate::{Plugin, PluginOptions, RomInfo};

/// A command-line tool a plug-in provides, e.g. `nesmind arena spot ...`.
pub type ToolFn = fn(args: &[String]) -> Result<(), String>;

/// Parses one `--plugin-opt KEY=VALUE` (a clap `value_parser` for every command that
/// takes plug-in options): the key trimmed and not empty, the value as given.
pub fn parse_option(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
        _ => Err(format!("'{s}' is not KEY=VALUE")),
    }
}

/// Parses a tool's arguments as command `name`. `--help` and `--version` print and give
/// `Ok(None)` (the tool then stops without an error); a bad flag gives clap's message.
pub fn parse_args<T: clap::Parser>(name: &str, args: &[String]) -> Result<Option<T>, String> {
    match T::try_parse_from(std::iter::once(name.to_string()).chain(args.iter().cloned())) {
        Ok(a) => Ok(Some(a)),
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            Ok(None)
        }
        Err(e) => Err(e.render().to_string().trim_end().to_string()),
    }
}

/// One registered plug-in.
pub struct Entry {
    pub name: &'static str,
    pub description: &'static str,
    pub create: fn(&PluginOptions) -> Result<Box<dyn Plugin>, String>,
    /// The game's name when the plug-in's own catalogue lists this exact dump (by CRC).
    /// Players attach to any cartridge (they read unknown ones from the picture), so
    /// attaching says nothing; this is what `nesmind info` reports as a known game.
    pub knows: fn(&RomInfo) -> Option<String>,
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
    /// `nesmind demo <plugin> --human SEATS`: people play some seats in the window and the
    /// plug-in the others; `None` when the game has no such mode.
    pub human: Option<HumanFn>,
}

/// What `nesmind demo --human` asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HumanGame {
    /// The seats people play, 0-based, in the order given.
    pub humans: Vec<usize>,
    /// Players in the game, if given.
    pub players: Option<usize>,
    /// The plug-in's strength, as written on the command line.
    pub ai_level: Option<String>,
}

/// The plug-in that sets the game up and plays the other seats, and the pads the people
/// hold (0-based, one per seat in `HumanGame::humans` order: the window gives the i-th of
/// them the i-th pad's keys and controller).
pub struct HumanSetup {
    pub plugin: Box<dyn Plugin>,
    pub pads: Vec<usize>,
}

pub type HumanFn = fn(&HumanGame) -> Result<HumanSetup, String>;
