//! `nesmind demo`: an in-tree plug-in playing its open demo cartridge, in the window or headless.

use crate::frontend::pacing::Speed;
use crate::host::{HumanGame, HumanSetup};
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
  nesmind demo spot --human 1                    play seat 1 against the Spot plug-in
  nesmind demo spot --human 2 --ai-level beginner
  nesmind demo spot --human 1,3 --players 4      two people, the plug-in plays seats 2 and 4

Without a usable display (none set, or DISPLAY names no running X server)
the demo plays headless (but --human needs the window). The carts are built from
source under plugins/<game>/cart/.

With --human, the person at the first seat listed uses pad 1's keys and controller
(default keys: arrows, X = A, Z = B, Return = Start; --input changes them), the
second pad 2's, and so on, whichever seats they sit at. Headless, --level is the
level of the cart's own computer player; against people the plug-in's strength
is --ai-level.")]
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
    /// Window: people play these seats (e.g. 1, or 1,3: seats 1-4), the plug-in the rest.
    #[arg(long, value_name = "SEATS", conflicts_with = "headless")]
    pub human: Option<String>,
    /// Players per game (2-4): with --human (default: enough for the seats given, at
    /// least 2), or headless.
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// With --human: the plug-in's strength, 1-5 or beginner, easy, medium, hard, max
    /// (default 3, medium). Levels are fixed search budgets (see the Spot README).
    #[arg(long, value_name = "LEVEL", requires = "human")]
    pub ai_level: Option<String>,
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

/// `--human 1,3` as 0-based seats.
fn parse_seats(text: &str) -> Result<Vec<usize>, String> {
    text.split(',')
        .map(|s| match s.trim().parse::<usize>() {
            Ok(n) if (1..=4).contains(&n) => Ok(n - 1),
            _ => Err(format!("--human: '{s}' is not a seat 1-4")),
        })
        .collect()
}

/// `--human`: the demo's harness for people and the plug-in, built (so its checks speak)
/// before any window opens.
fn human_setup(args: &DemoArgs, demo: &Demo) -> Result<Option<HumanSetup>, String> {
    let Some(seats) = &args.human else {
        return Ok(None);
    };
    if let Some(first) = args.args.first() {
        if first == "--level" {
            return Err(
                "--level is the level of the cart's own computer player in headless runs; \
                 the plug-in's strength against people is --ai-level"
                    .into(),
            );
        }
        return Err(format!(
            "'{first}' is not a window option (nesmind demo --help lists them)"
        ));
    }
    let hook = demo.human.ok_or_else(|| {
        format!(
            "the {} demo has no seats for people (--human)",
            args.game.to_ascii_lowercase()
        )
    })?;
    let game = HumanGame {
        humans: parse_seats(seats)?,
        players: args.players,
        ai_level: args.ai_level.clone(),
    };
    hook(&game).map(Some)
}

/// A session on the demo cart with its plug-in (or the harness for people) attached, as
/// the window plays it, and the NES pad each input pad drives.
#[cfg(feature = "sdl")]
fn demo_session(
    name: &str,
    human: Option<HumanSetup>,
) -> Result<(crate::host::Session, [usize; 4]), String> {
    use crate::emu::Rom;
    use crate::host::{PluginOptions, Session};
    let (plugin, demo) = find_demo(name)?;
    let rom = Rom::parse(demo.image, demo.file_name).map_err(|e| e.to_string())?;
    let mut session = Session::new(rom)?;
    let Some(setup) = human else {
        let opts: PluginOptions = demo
            .window_options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        session.attach(super::run::create_plugin(plugin, &opts, demo.image)?, &[])?;
        return Ok((session, [0, 1, 2, 3]));
    };
    let route = pad_route(&setup.pads);
    for (input, &pad) in route.iter().enumerate().take(setup.pads.len()) {
        println!(
            "seat {}: pad {}'s keys and controller (--input maps them)",
            pad + 1,
            input + 1
        );
    }
    session.attach(setup.plugin, &setup.pads)?;
    Ok((session, route))
}

/// People's pads first, in their order, then the others: input pad i drives `route[i]`.
#[cfg_attr(not(feature = "sdl"), allow(dead_code))]
fn pad_route(people: &[usize]) -> [usize; 4] {
    let mut route: Vec<usize> = people.iter().copied().filter(|&p| p < 4).collect();
    route.extend((0..4).filter(|p| !people.contains(p)));
    [route[0], route[1], route[2], route[3]]
}

/// Returns the exit status: 0, or 128 + the signal that closed the window (after its
/// screenshot and capture were written).
pub fn demo(args: DemoArgs) -> Result<i32, String> {
    let (_, demo) = find_demo(&args.game)?;
    let human = human_setup(&args, demo)?;
    let no_window = if args.headless {
        None
    } else if !cfg!(feature = "sdl") {
        Some("this build has no window".to_string())
    } else {
        crate::frontend::display::check().err()
    };
    if let (Some(_), Some(why)) = (&human, &no_window) {
        return Err(format!("--human needs the window: {why}"));
    }
    if args.headless || no_window.is_some() {
        // Both are taken from the window: headless they would be lost without a word.
        let asked = [
            ("--screenshot", &args.screenshot),
            ("--capture", &args.window.capture),
        ];
        if let Some((flag, _)) = asked.iter().find(|(_, p)| p.is_some()) {
            return Err(match no_window {
                Some(why) => format!("{flag} needs the window: {why}"),
                None => format!("{flag} needs the window; drop --headless"),
            });
        }
        if let Some(why) = no_window {
            eprintln!("nesmind: {why}: playing headless");
        }
        let mut headless = Vec::new();
        if let Some(n) = args.players {
            headless.extend(["--players".to_string(), n.to_string()]);
        }
        headless.extend(args.args.iter().cloned());
        return (demo.headless)(&headless).map(|()| 0);
    }
    if let Some(first) = args.args.first() {
        return Err(format!(
            "'{first}' is a headless option; add --headless (window options: nesmind demo --help)"
        ));
    }
    if args.players.is_some() && human.is_none() {
        return Err("--players goes with --human in the window (or with --headless)".into());
    }
    window(&args, human)
}

#[cfg(feature = "sdl")]
fn window(args: &DemoArgs, human: Option<HumanSetup>) -> Result<i32, String> {
    use crate::frontend::interrupt;
    if args.frames == Some(0) {
        return Err("--frames must be at least 1".into());
    }
    super::run::check_outputs(&[
        ("--screenshot", args.screenshot.as_ref()),
        ("--capture", args.window.capture.as_ref()),
    ])?;
    let mut opts = args.window.options(
        args.speed.unwrap_or(Speed::Times(1.0)),
        args.frames,
        args.screenshot.clone(),
        format!("{}-demo", args.game.to_ascii_lowercase()),
    )?;
    let (mut session, route) = demo_session(&args.game, human)?;
    opts.pads = route;
    // A signal closes the window at a frame with its outputs written, as in `nesmind run`
    // (SDL's own handlers would close it too, but without the capture).
    interrupt::install()?;
    let outcome = crate::frontend::window::run(&mut session, &opts);
    session.detach();
    outcome?;
    Ok(interrupt::requested().map_or(0, |signal| {
        println!("interrupted by {}", signal.name());
        signal.exit_status()
    }))
}

#[cfg(not(feature = "sdl"))]
fn window(_args: &DemoArgs, _human: Option<HumanSetup>) -> Result<i32, String> {
    Err("this build has no window (built without the `sdl` feature); add --headless".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people_take_the_first_input_pads() {
        assert_eq!(pad_route(&[1]), [1, 0, 2, 3]);
        assert_eq!(pad_route(&[0, 2]), [0, 2, 1, 3]);
        assert_eq!(pad_route(&[3, 0]), [3, 0, 1, 2]);
        assert_eq!(parse_seats("1, 3").unwrap(), [0, 2]);
        assert!(parse_seats("5").unwrap_err().contains("'5'"));
        assert!(parse_seats("1,,2").is_err());
    }
}
