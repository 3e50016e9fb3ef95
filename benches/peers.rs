//! nesmind beside its peers, Nestopia and FCEUmm (their libretro cores), on the same ROMs
//! and the same pad input: frames per second of each in alternating rounds (so all see the
//! same load on a shared machine), the ratio to the faster peer, and whether all ended on
//! the same picture (a peer that ignored the pad, or a game that drifted, shows there).
//!
//! `cargo bench --bench peers -- [--frames N] [--sound] [--only nesmind|nestopia|fceumm]
//! [--speedups LIST] [--replays DIR] [ROM...]`
//!
//! Cores: Debian's Nestopia (`apt-get install -y libretro-nestopia`, or `NESTOPIA_CORE`),
//! FCEUmm from `FCEUMM_CORE`, else Debian's path, else the core stable-retro's wheel ships
//! (the project's `python/.venv` after `tests/fetch-retro-data.sh`). A peer not found is
//! left out and named.
//!
//! Both peers synthesise sound; nesmind only with `--sound`. With `--replays DIR` all play
//! DIR/<ROM stem>.replay (a peer's game may drift from the recorded one: the picture check
//! says so; the load stays that of real play). `--speedups` sets nesmind's shortcuts (e.g.
//! `-skip_wait_loops`). `--pictures DIR` writes the compared last frames as PNG files
//! (`<ROM>.<emulator>.png`). `--only` runs one emulator alone, for instruction counts under
//! callgrind: (Ir of `--frames 400` − Ir of `--frames 100`) / 300 (`benches/ipf.sh`).

#[path = "peers/libretro.rs"]
mod libretro;

use libretro::{Core, Picture};
use nesmind::emu::{Machine, Rom, Speedups};
use nesmind::frontend::bench::Input;
use nesmind::host::Buttons;
use std::path::{Path, PathBuf};
use std::time::Instant;

const ROUNDS: u64 = 5;
const LIBRETRO_DIR: &str = "/usr/lib/x86_64-linux-gnu/libretro";

/// A peer emulator: its name and where its core is.
struct Peer {
    name: &'static str,
    core: Option<PathBuf>,
    looked: String,
}

fn peers() -> Vec<Peer> {
    let find = |name: &'static str, var: &str, file: &str, more: Vec<PathBuf>| {
        let mut places: Vec<PathBuf> = std::env::var_os(var)
            .map(PathBuf::from)
            .into_iter()
            .collect();
        places.push(Path::new(LIBRETRO_DIR).join(file));
        places.extend(more);
        Peer {
            name,
            core: places.iter().find(|p| p.is_file()).cloned(),
            looked: format!(
                "${var}, {}",
                places
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    };
    // stable-retro's wheel carries FCEUmm (the core its NES integrations run on).
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/.venv/lib");
    let wheel: Vec<PathBuf> = std::fs::read_dir(&venv)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| {
            e.path()
                .join("site-packages/stable_retro/cores/fceumm_libretro.so")
        })
        .collect();
    vec![
        find(
            "nestopia",
            "NESTOPIA_CORE",
            "nestopia_libretro.so",
            Vec::new(),
        ),
        find("fceumm", "FCEUMM_CORE", "fceumm_libretro.so", wheel),
    ]
}

/// The libretro joypad ids (B, Y, Select, Start, Up, Down, Left, Right, A) of `b`, as bits.
fn retro_mask(b: Buttons) -> u16 {
    let ids = [
        (Buttons::B, 0),
        (Buttons::SELECT, 2),
        (Buttons::START, 3),
        (Buttons::UP, 4),
        (Buttons::DOWN, 5),
        (Buttons::LEFT, 6),
        (Buttons::RIGHT, 7),
        (Buttons::A, 8),
    ];
    ids.iter()
        .filter(|(button, _)| b.contains(*button))
        .fold(0, |m, (_, id)| m | 1 << id)
}

fn core_pads(input: &Input, frame: u64) -> [u16; 2] {
    let p = input.pads(frame);
    [retro_mask(p[0]), retro_mask(p[1])]
}

struct Nesmind {
    machine: Machine,
    frame: u64,
    samples: Vec<i16>,
    sound: bool,
}

impl Nesmind {
    fn run_frames(&mut self, n: u64, input: &Input) {
        for _ in 0..n {
            input.run_frame(&mut self.machine, self.frame);
            if self.sound {
                self.machine.take_audio(&mut self.samples);
            }
            self.frame += 1;
        }
    }
}

struct Running {
    name: &'static str,
    core: Core,
    frame: u64,
    seconds: f64,
}

impl Running {
    fn run_frames(&mut self, n: u64, input: &Input) {
        for _ in 0..n {
            self.core.run_frame(core_pads(input, self.frame));
            self.frame += 1;
        }
    }
}

/// The share of pixels where the two pictures disagree, palettes aside: a colour of one
/// picture must stand for one colour of the other, both ways. A peer's picture may be
/// cropped (overscan): it is compared where it fits best (flush or centred each way).
fn disagreement(mine: &[u32], theirs: &Picture) -> Option<f64> {
    let (w, h) = (theirs.width, theirs.height);
    if w == 0 || h == 0 || w > 256 || h > 240 || theirs.rgb.len() != w * h {
        return None;
    }
    let xs = [0, (256 - w) / 2, 256 - w];
    let ys = [0, (240 - h) / 2, 240 - h];
    ys.iter()
        .flat_map(|&dy| xs.iter().map(move |&dx| (dx, dy)))
        .map(|(dx, dy)| {
            let pairs: Vec<(u32, u32)> = (0..h)
                .flat_map(|y| (0..w).map(move |x| (y, x)))
                .map(|(y, x)| (mine[(y + dy) * 256 + x + dx], theirs.rgb[y * w + x]))
                .collect();
            unpaired(&pairs)
        })
        .min_by(f64::total_cmp)
}

/// The share of (mine, theirs) colour pairs that are not the commonest partner of both
/// their colours.
fn unpaired(pairs: &[(u32, u32)]) -> f64 {
    use std::collections::HashMap;
    let mut counts: HashMap<(u32, u32), usize> = HashMap::new();
    for &p in pairs {
        *counts.entry(p).or_default() += 1;
    }
    let mut best_of_mine: HashMap<u32, (usize, u32)> = HashMap::new();
    let mut best_of_theirs: HashMap<u32, (usize, u32)> = HashMap::new();
    for (&(a, b), &n) in &counts {
        let e = best_of_mine.entry(a).or_insert((0, b));
        if n > e.0 {
            *e = (n, b);
        }
        let e = best_of_theirs.entry(b).or_insert((0, a));
        if n > e.0 {
            *e = (n, a);
        }
    }
    let off = pairs
        .iter()
        .filter(|&&(a, b)| best_of_mine[&a].1 != b || best_of_theirs[&b].1 != a)
        .count();
    off as f64 / pairs.len() as f64
}

struct Options {
    frames: u64,
    sound: bool,
    only: Option<String>,
    speedups: Speedups,
    replays: Option<PathBuf>,
    /// Where to write the compared pictures as PNG files (`--pictures DIR`).
    pictures: Option<PathBuf>,
    roms: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        frames: 3000,
        sound: false,
        only: None,
        speedups: Speedups::ALL,
        replays: None,
        pictures: None,
        roms: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--sound" => o.sound = true,
            "--frames" => {
                let v = args.next().ok_or("--frames needs a number")?;
                o.frames = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("--frames: '{v}' is not a positive number"))?;
            }
            "--speedups" => {
                o.speedups = Speedups::parse(&args.next().ok_or("--speedups needs a list")?)?
            }
            "--pictures" => o.pictures = Some(args.next().ok_or("--pictures needs a DIR")?.into()),
            "--replays" => o.replays = Some(args.next().ok_or("--replays needs a DIR")?.into()),
            "--only" => match args.next().as_deref() {
                Some(w @ ("nesmind" | "nestopia" | "fceumm")) => o.only = Some(w.to_string()),
                other => {
                    return Err(format!(
                        "--only: {other:?} is not nesmind, nestopia or fceumm"
                    ));
                }
            },
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            rom => o.roms.push(rom.to_string()),
        }
    }
    if o.roms.is_empty() {
        o.roms = nesmind::frontend::bench::default_roms()?
            .iter()
            .map(|p| p.display().to_string())
            .collect();
    }
    Ok(o)
}

fn main() -> Result<(), String> {
    let o = options()?;
    let wanted = |name: &str| o.only.as_deref().is_none_or(|w| w == name);
    let mut cores = Vec::new();
    for p in peers() {
        if !wanted(p.name) {
            continue;
        }
        match p.core {
            Some(c) => cores.push((p.name, c.display().to_string())),
            None if o.only.is_some() => {
                return Err(format!("no {} core found (looked at {})", p.name, p.looked));
            }
            None => println!(
                "{}: no core found (looked at {}); left out",
                p.name, p.looked
            ),
        }
    }
    let palette = nesmind::frontend::palette::build_palette();
    for path in &o.roms {
        let image = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let rom = Rom::parse(&image, path).map_err(|e| e.to_string())?;
        let input = Input::for_rom(&rom, Path::new(path), o.replays.as_deref())?;
        let mut mine = Nesmind {
            machine: input.machine(&rom)?,
            frame: 0,
            samples: Vec::new(),
            sound: o.sound,
        };
        mine.machine.set_audio_enabled(o.sound);
        mine.machine.set_speedups(o.speedups);
        let mut theirs = Vec::new();
        for (name, core) in &cores {
            theirs.push(Running {
                name,
                core: Core::load(core, path, &image)?,
                frame: 0,
                seconds: 0.0,
            });
        }
        let round = input.frames(o.frames).div_ceil(ROUNDS);
        let mut seconds = 0f64;
        for _ in 0..ROUNDS {
            if wanted("nesmind") {
                let t = Instant::now();
                mine.run_frames(round, &input);
                seconds += t.elapsed().as_secs_f64();
            }
            for peer in &mut theirs {
                let t = Instant::now();
                peer.run_frames(round, &input);
                peer.seconds += t.elapsed().as_secs_f64();
            }
        }
        let frames = (round * ROUNDS) as f64;
        let name = Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        if o.only.is_some() {
            let s = theirs.first().map_or(seconds, |p| p.seconds);
            println!("{name:<32} {:>9.1} fps", frames / s.max(1e-9));
            continue;
        }
        // One more frame each, pictures compared.
        mine.run_frames(1, &input);
        let picture: Vec<u32> = mine
            .machine
            .picture()
            .iter()
            .map(|&i| palette[usize::from(i) & 511])
            .collect();
        let save = |who: &str, w: usize, h: usize, rgb: &[u32]| -> Result<(), String> {
            let Some(dir) = &o.pictures else {
                return Ok(());
            };
            let file = dir.join(format!("{name}.{who}.png"));
            std::fs::write(&file, nesmind::frontend::png::encode_rgb(w, h, rgb))
                .map_err(|e| format!("{}: {e}", file.display()))
        };
        save("nesmind", 256, 240, &picture)?;
        let mut line = format!("{name:<32} nesmind {:>8.1} fps", frames / seconds.max(1e-9));
        let mut fastest = f64::INFINITY;
        let mut checks = Vec::new();
        for peer in &mut theirs {
            let pads = core_pads(&input, peer.frame);
            let shot = peer.core.run_and_capture(pads);
            if let Some(s) = &shot {
                save(peer.name, s.width, s.height, &s.rgb)?;
            }
            line += &format!(
                "  {} {:>8.1} fps",
                peer.name,
                frames / peer.seconds.max(1e-9)
            );
            fastest = fastest.min(peer.seconds);
            checks.push(
                match shot.as_ref().and_then(|s| disagreement(&picture, s)) {
                    Some(d) if d < 0.01 => format!("same picture as {}", peer.name),
                    Some(d) => format!(
                        "picture differs from {}'s ({:.1}% of pixels)",
                        peer.name,
                        d * 100.0
                    ),
                    None => format!("{} gave no picture to compare", peer.name),
                },
            );
        }
        if fastest.is_finite() {
            line += &format!("  nesmind/faster {:.2}x", fastest / seconds.max(1e-9));
        }
        println!("{line}  [{}]", checks.join("; "));
    }
    Ok(())
}
