//! `nesmind demo`: an in-tree plug-in playing its open demo cartridge, in the window or headless.

use crate::frontend::pacing::Speed;
use crate::plugins::{self, Demo};

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  nesmind demo                                   watch the Spot player in the window
  nesmind demo hatris                            the Hatris player
  nesmind demo hatris --speed 4
  nesmind demo spot --headless --games 100       ends with `win_rate W`
  nesmind demo hatris --headless --runs 10       ends with `mean_spawns M`
  nesmind demo spot --headless -- --help         the headless player's own options

Without a usable display (none set, or DISPLAY names no running X server)
the demo plays headless. The carts are built from source under plugins/<game>/cart/.")]
pub struct DemoArgs {
    /// Which demo cartridge: spot or hatris.
    #[arg(default_value = "spot")]
    pub game: String,
    /// Play without a window.
    #[arg(long)]
    pub headless: bool,
    /// Window speed: max, 1 (real time) or a multiple such as 4.
    #[arg(long, value_name = "max|1|N")]
    pub speed: Option<Speed>,
    /// Window: close after this many frames.
    #[arg(long, value_name = "N")]
    pub frames: Option<u64>,
    /// Window: save the last frame's emulated picture as a 256x240 PNG.
    #[arg(long, value_name = "FILE")]
    pub screenshot: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub window: super::window_flags::WindowFlags,
    /// Headless: options for the cart's headless player (`--help` lists them).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

/// The demo cartridge `name`'s plug-in ships.
fn find_demo(name: &str) -> Result<(&'static str, &'static Demo), String> {
    let entry = plugins::find(name)?;
    let demo = entry.demo.ok_or_else(|| {
        let have: Vec<&str> = plugins::registry()
            .iter()
            .filter(|e| e.demo.is_some())
            .map(|e| e.name)
            .collect();
        format!(
            "plug-in '{}' has no demo cartridge (demos: {})",
            entry.name,
            if have.is_empty() {
                "none".into()
            } else {
                have.join(", ")
            }
        )
    })?;
    Ok((entry.name, demo))
}

/// A session on the demo cart with its plug-in attached, as the window plays it.
#[cfg(feature = "sdl")]
fn demo_session(name: &str) -> Result<crate::host::Session, String> {
    use crate::emu::Rom;
    use crate::host::{PluginOptions, Session};
    let (plugin, demo) = find_demo(name)?;
    let rom = Rom::parse(demo.image, demo.file_name).map_err(|e| e.to_string())?;
    let mut session = Session::new(rom)?;
    let opts: PluginOptions = demo
        .window_options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    session.attach(super::run::create_plugin(plugin, &opts)?, &[])?;
    Ok(session)
}

pub fn demo(args: DemoArgs) -> Result<(), String> {
    let (_, demo) = find_demo(&args.game)?;
    let no_window = if args.headless {
        None
    } else if !cfg!(feature = "sdl") {
        Some("this build has no window".to_string())
    } else {
        crate::frontend::display::check().err()
    };
    if args.headless || no_window.is_some() {
        if let Some(why) = no_window {
            eprintln!("nesmind: {why}: playing headless");
        }
        return (demo.headless)(&args.args);
    }
    if !args.args.is_empty() {
        return Err(format!(
            "'{}' is a headless option; add --headless (window options: nesmind demo --help)",
            args.args[0]
        ));
    }
    window(&args)
}

#[cfg(feature = "sdl")]
fn window(args: &DemoArgs) -> Result<(), String> {
    if args.frames == Some(0) {
        return Err("--frames must be at least 1".into());
    }
    let opts = args.window.options(
        args.speed.unwrap_or(Speed::Times(1.0)),
        args.frames,
        args.screenshot.clone(),
        format!("{}-demo", args.game.to_ascii_lowercase()),
    )?;
    let mut session = demo_session(&args.game)?;
    let outcome = crate::frontend::window::run(&mut session, &opts);
    session.detach();
    outcome
}

#[cfg(not(feature = "sdl"))]
fn window(_args: &DemoArgs) -> Result<(), String> {
    Err("this build has no window (built without the `sdl` feature); add --headless".into())
}
