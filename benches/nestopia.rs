//! nesmind beside Nestopia: the same ROMs and the same scripted input, frames per second of
//! each in alternating rounds (so both see the same load on a shared machine), and the
//! ratio. Nestopia is Debian's libretro core (`apt-get install libretro-nestopia`), loaded
//! at run time by the small libretro front end below; without it the bench says so and
//! stops.
//!
//! `cargo bench --bench nestopia -- [--frames N] [--sound] [--only nesmind|nestopia]
//! [--speedups LIST] [--replays DIR] [ROM...]`
//!
//! Both make sound with `--sound` (Nestopia always synthesises it; nesmind only when asked).
//! Both play the same pad input: the fixed script, or DIR/<ROM stem>.replay with
//! `--replays DIR` (Nestopia's game may drift from the recorded one; the load stays that
//! of real play). `--speedups` sets nesmind's shortcuts (e.g. `-skip_wait_loops`).
//! `--only` runs one emulator alone, for instruction counts under callgrind:
//! (Ir of `--frames 400` − Ir of `--frames 100`) / 300, using the release binary that
//! `cargo bench --no-run` names.

use libloading::Library;
use nesmind::emu::Speedups;
use nesmind::emu::{Machine, Rom};
use nesmind::frontend::bench::Input;
use nesmind::host::Buttons;
use std::ffi::{CString, c_char, c_void};
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Instant;

const DEFAULT_CORE: &str = "/usr/lib/x86_64-linux-gnu/libretro/nestopia_libretro.so";
const ROUNDS: u64 = 5;

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

/// Pad 1 as the core reads it (libretro callbacks carry no context pointer).
static PAD: AtomicU16 = AtomicU16::new(0);

extern "C" fn environment(cmd: u32, data: *mut c_void) -> bool {
    const GET_SYSTEM_DIRECTORY: u32 = 9;
    const SET_PIXEL_FORMAT: u32 = 10;
    const GET_VARIABLE_UPDATE: u32 = 17;
    const GET_SAVE_DIRECTORY: u32 = 31;
    // Nestopia will not load a game without a system directory (it looks for its cartridge
    // database there; it runs without one).
    static DIR: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    match cmd {
        GET_SYSTEM_DIRECTORY | GET_SAVE_DIRECTORY if !data.is_null() => {
            let dir = DIR.get_or_init(|| {
                CString::new(std::env::temp_dir().to_string_lossy().into_owned())
                    .unwrap_or_default()
            });
            // SAFETY: libretro passes a const char** for these commands.
            unsafe { *(data as *mut *const c_char) = dir.as_ptr() };
            true
        }
        SET_PIXEL_FORMAT => true,
        GET_VARIABLE_UPDATE if !data.is_null() => {
            // SAFETY: libretro passes a bool* for this command.
            unsafe { *(data as *mut bool) = false };
            true
        }
        _ => false,
    }
}
extern "C" fn video(_data: *const c_void, _w: u32, _h: u32, _pitch: usize) {}
extern "C" fn audio_sample(_l: i16, _r: i16) {}
extern "C" fn audio_batch(_data: *const i16, frames: usize) -> usize {
    frames
}
extern "C" fn input_poll() {}
extern "C" fn input_state(port: u32, device: u32, _index: u32, id: u32) -> i16 {
    const JOYPAD: u32 = 1;
    if port == 0 && device == JOYPAD && id < 16 {
        i16::from(PAD.load(Ordering::Relaxed) >> id & 1 == 1)
    } else {
        0
    }
}

#[repr(C)]
struct GameInfo {
    path: *const c_char,
    data: *const c_void,
    size: usize,
    meta: *const c_char,
}

/// Nestopia with one game loaded.
struct Nestopia {
    _lib: Library,
    run: unsafe extern "C" fn(),
    unload: unsafe extern "C" fn(),
    deinit: unsafe extern "C" fn(),
    frame: u64,
}

impl Nestopia {
    fn load(core: &str, rom_path: &str, image: &[u8]) -> Result<Nestopia, String> {
        let why = |e: libloading::Error| format!("{core}: {e}");
        // SAFETY: the libretro entry points have these C signatures; the core is used from
        // this thread only, and the callbacks above stay valid for the process's life.
        unsafe {
            let lib = Library::new(core).map_err(why)?;
            let set_env = *lib
                .get::<unsafe extern "C" fn(extern "C" fn(u32, *mut c_void) -> bool)>(
                    b"retro_set_environment\0",
                )
                .map_err(why)?;
            let set_video = *lib
                .get::<unsafe extern "C" fn(extern "C" fn(*const c_void, u32, u32, usize))>(
                    b"retro_set_video_refresh\0",
                )
                .map_err(why)?;
            let set_sample = *lib
                .get::<unsafe extern "C" fn(extern "C" fn(i16, i16))>(b"retro_set_audio_sample\0")
                .map_err(why)?;
            let set_batch = *lib
                .get::<unsafe extern "C" fn(extern "C" fn(*const i16, usize) -> usize)>(
                    b"retro_set_audio_sample_batch\0",
                )
                .map_err(why)?;
            let set_poll = *lib
                .get::<unsafe extern "C" fn(extern "C" fn())>(b"retro_set_input_poll\0")
                .map_err(why)?;
            let set_state = *lib
                .get::<unsafe extern "C" fn(extern "C" fn(u32, u32, u32, u32) -> i16)>(
                    b"retro_set_input_state\0",
                )
                .map_err(why)?;
            let init = *lib
                .get::<unsafe extern "C" fn()>(b"retro_init\0")
                .map_err(why)?;
            let load_game = *lib
                .get::<unsafe extern "C" fn(*const GameInfo) -> bool>(b"retro_load_game\0")
                .map_err(why)?;
            let run = *lib
                .get::<unsafe extern "C" fn()>(b"retro_run\0")
                .map_err(why)?;
            let unload = *lib
                .get::<unsafe extern "C" fn()>(b"retro_unload_game\0")
                .map_err(why)?;
            let deinit = *lib
                .get::<unsafe extern "C" fn()>(b"retro_deinit\0")
                .map_err(why)?;
            set_env(environment);
            init();
            set_video(video);
            set_sample(audio_sample);
            set_batch(audio_batch);
            set_poll(input_poll);
            set_state(input_state);
            let path = CString::new(rom_path).map_err(|e| e.to_string())?;
            let info = GameInfo {
                path: path.as_ptr(),
                data: image.as_ptr().cast(),
                size: image.len(),
                meta: std::ptr::null(),
            };
            if !load_game(&info) {
                deinit();
                return Err(format!("Nestopia refused {rom_path}"));
            }
            Ok(Nestopia {
                _lib: lib,
                run,
                unload,
                deinit,
                frame: 0,
            })
        }
    }

    fn run_frames(&mut self, n: u64, input: &Input) {
        for _ in 0..n {
            PAD.store(retro_mask(input.pads(self.frame)[0]), Ordering::Relaxed);
            // SAFETY: a game is loaded (see `load`).
            unsafe { (self.run)() };
            self.frame += 1;
        }
    }
}

impl Drop for Nestopia {
    fn drop(&mut self) {
        // SAFETY: loaded in `load`; the library is closed after these return.
        unsafe {
            (self.unload)();
            (self.deinit)();
        }
    }
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

struct Options {
    frames: u64,
    sound: bool,
    only: Option<String>,
    speedups: Speedups,
    replays: Option<std::path::PathBuf>,
    roms: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        frames: 3000,
        sound: false,
        only: None,
        speedups: Speedups::ALL,
        replays: None,
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
            "--replays" => o.replays = Some(args.next().ok_or("--replays needs a DIR")?.into()),
            "--only" => match args.next().as_deref() {
                Some(w @ ("nesmind" | "nestopia")) => o.only = Some(w.to_string()),
                other => return Err(format!("--only: {other:?} is not nesmind or nestopia")),
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
    let core = std::env::var("NESTOPIA_CORE").unwrap_or_else(|_| DEFAULT_CORE.to_string());
    if o.only.as_deref() != Some("nesmind") && !std::path::Path::new(&core).exists() {
        println!(
            "Nestopia's libretro core is not at {core}: install it (apt-get install -y libretro-nestopia) or set NESTOPIA_CORE; nothing measured"
        );
        return Ok(());
    }
    for path in &o.roms {
        let image = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let rom = Rom::parse(&image, path).map_err(|e| e.to_string())?;
        let input = Input::for_rom(&rom, std::path::Path::new(path), o.replays.as_deref())?;
        let mut mine = Nesmind {
            machine: input.machine(&rom)?,
            frame: 0,
            samples: Vec::new(),
            sound: o.sound,
        };
        mine.machine.set_audio_enabled(o.sound);
        mine.machine.set_speedups(o.speedups);
        let mut theirs = match o.only.as_deref() {
            Some("nesmind") => None,
            _ => Some(Nestopia::load(&core, path, &image)?),
        };
        let round = input.frames(o.frames).div_ceil(ROUNDS);
        let (mut a, mut b) = (0f64, 0f64);
        for _ in 0..ROUNDS {
            if o.only.as_deref() != Some("nestopia") {
                let t = Instant::now();
                mine.run_frames(round, &input);
                a += t.elapsed().as_secs_f64();
            }
            if let Some(n) = theirs.as_mut() {
                let t = Instant::now();
                n.run_frames(round, &input);
                b += t.elapsed().as_secs_f64();
            }
        }
        let frames = (round * ROUNDS) as f64;
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        match o.only.as_deref() {
            Some(_) => println!("{name:<32} {:>9.1} fps", frames / a.max(b).max(1e-9)),
            None => println!(
                "{name:<32} nesmind {:>9.1} fps  nestopia {:>9.1} fps  nesmind/nestopia {:.2}x",
                frames / a.max(1e-9),
                frames / b.max(1e-9),
                b / a.max(1e-9)
            ),
        }
    }
    Ok(())
}
