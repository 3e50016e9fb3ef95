//! A minimal libretro front end for the peer cores (Nestopia, FCEUmm): load a core and a
//! game, plug a joypad into ports 1 and 2, run frames with given pads, and keep the last
//! frame's picture so the bench can check both emulators ended on the same screen.
//!
//! libretro callbacks carry no context pointer, so the pads and the captured frame live in
//! statics; the bench drives one core at a time from one thread.

use libloading::Library;
use std::ffi::{CString, c_char, c_void};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering};

/// Pads 1 and 2 as the core reads them, as libretro joypad id bits.
pub static PADS: [AtomicU16; 2] = [AtomicU16::new(0), AtomicU16::new(0)];
/// Set before the frame whose picture is wanted: copying every frame would add to the
/// core's measured cost.
static CAPTURE: AtomicBool = AtomicBool::new(false);
/// The pixel format the core last asked for (0: 0RGB1555, 1: XRGB8888, 2: RGB565).
static FORMAT: AtomicU32 = AtomicU32::new(0);
static FRAME: Mutex<Option<Picture>> = Mutex::new(None);

/// A captured frame as 0xRRGGBB values, row by row.
#[derive(Clone)]
pub struct Picture {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u32>,
}

const RETRO_DEVICE_JOYPAD: u32 = 1;

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
        SET_PIXEL_FORMAT if !data.is_null() => {
            // SAFETY: libretro passes a const enum retro_pixel_format* (an int).
            let f = unsafe { *(data as *const u32) };
            FORMAT.store(f, Ordering::Relaxed);
            f <= 2
        }
        GET_VARIABLE_UPDATE if !data.is_null() => {
            // SAFETY: libretro passes a bool* for this command.
            unsafe { *(data as *mut bool) = false };
            true
        }
        _ => false,
    }
}

extern "C" fn video(data: *const c_void, w: u32, h: u32, pitch: usize) {
    // A null frame repeats the previous one.
    if data.is_null() || !CAPTURE.load(Ordering::Relaxed) {
        return;
    }
    let (w, h) = (w as usize, h as usize);
    let format = FORMAT.load(Ordering::Relaxed);
    let mut rgb = Vec::with_capacity(w * h);
    for y in 0..h {
        // SAFETY: the core hands over `h` rows of `pitch` bytes, each holding `w` pixels.
        let row = unsafe { std::slice::from_raw_parts((data as *const u8).add(y * pitch), pitch) };
        for x in 0..w {
            rgb.push(match format {
                1 => u32::from_le_bytes([row[4 * x], row[4 * x + 1], row[4 * x + 2], 0]),
                f => {
                    let p = u16::from_le_bytes([row[2 * x], row[2 * x + 1]]);
                    let (r, g, b) = if f == 2 {
                        (p >> 11 & 31, (p >> 5 & 63) >> 1, p & 31)
                    } else {
                        (p >> 10 & 31, p >> 5 & 31, p & 31)
                    };
                    // Five bits a channel, widened to eight.
                    let wide = |c: u16| u32::from(c << 3 | c >> 2);
                    wide(r) << 16 | wide(g) << 8 | wide(b)
                }
            });
        }
    }
    *FRAME.lock().unwrap() = Some(Picture {
        width: w,
        height: h,
        rgb,
    });
}
extern "C" fn audio_sample(_l: i16, _r: i16) {}
extern "C" fn audio_batch(_data: *const i16, frames: usize) -> usize {
    frames
}
extern "C" fn input_poll() {}
extern "C" fn input_state(port: u32, device: u32, _index: u32, id: u32) -> i16 {
    match PADS.get(port as usize) {
        Some(p) if device == RETRO_DEVICE_JOYPAD && id < 16 => {
            i16::from(p.load(Ordering::Relaxed) >> id & 1 == 1)
        }
        _ => 0,
    }
}

#[repr(C)]
struct GameInfo {
    path: *const c_char,
    data: *const c_void,
    size: usize,
    meta: *const c_char,
}

/// A libretro core with one game loaded.
pub struct Core {
    _lib: Library,
    /// The pixel format this core asked for (`FORMAT` holds the last core's).
    format: u32,
    run: unsafe extern "C" fn(),
    unload: unsafe extern "C" fn(),
    deinit: unsafe extern "C" fn(),
}

/// Looks up libretro entry point `name` with signature `T`.
///
/// # Safety
/// `T` must be the entry point's C signature.
unsafe fn entry<T: Copy>(lib: &Library, core: &str, name: &str) -> Result<T, String> {
    let symbol = format!("{name}\0");
    // SAFETY: the caller names the signature.
    unsafe { lib.get::<T>(symbol.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| format!("{core}: {e}"))
}

type Callback<T> = unsafe extern "C" fn(T);

impl Core {
    pub fn load(core: &str, rom_path: &str, image: &[u8]) -> Result<Core, String> {
        // SAFETY: the libretro entry points have these C signatures; the core is used from
        // this thread only, and the callbacks above stay valid for the process's life.
        unsafe {
            let lib = Library::new(core).map_err(|e| format!("{core}: {e}"))?;
            let set_env: Callback<extern "C" fn(u32, *mut c_void) -> bool> =
                entry(&lib, core, "retro_set_environment")?;
            let set_video: Callback<extern "C" fn(*const c_void, u32, u32, usize)> =
                entry(&lib, core, "retro_set_video_refresh")?;
            let set_sample: Callback<extern "C" fn(i16, i16)> =
                entry(&lib, core, "retro_set_audio_sample")?;
            let set_batch: Callback<extern "C" fn(*const i16, usize) -> usize> =
                entry(&lib, core, "retro_set_audio_sample_batch")?;
            let set_poll: Callback<extern "C" fn()> = entry(&lib, core, "retro_set_input_poll")?;
            let set_state: Callback<extern "C" fn(u32, u32, u32, u32) -> i16> =
                entry(&lib, core, "retro_set_input_state")?;
            let init: unsafe extern "C" fn() = entry(&lib, core, "retro_init")?;
            let load_game: unsafe extern "C" fn(*const GameInfo) -> bool =
                entry(&lib, core, "retro_load_game")?;
            let set_port: unsafe extern "C" fn(u32, u32) =
                entry(&lib, core, "retro_set_controller_port_device")?;
            let run: unsafe extern "C" fn() = entry(&lib, core, "retro_run")?;
            let unload: unsafe extern "C" fn() = entry(&lib, core, "retro_unload_game")?;
            let deinit: unsafe extern "C" fn() = entry(&lib, core, "retro_deinit")?;
            FORMAT.store(0, Ordering::Relaxed);
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
                return Err(format!("{core} refused {rom_path}"));
            }
            // Without a device on the port a core may read no pad at all (Nestopia then
            // sits on the title screen while nesmind plays).
            for port in 0..2 {
                set_port(port, RETRO_DEVICE_JOYPAD);
            }
            Ok(Core {
                _lib: lib,
                format: FORMAT.load(Ordering::Relaxed),
                run,
                unload,
                deinit,
            })
        }
    }

    /// One frame with pads 1 and 2 holding these libretro joypad masks.
    pub fn run_frame(&mut self, pads: [u16; 2]) {
        for (slot, mask) in PADS.iter().zip(pads) {
            slot.store(mask, Ordering::Relaxed);
        }
        // SAFETY: a game is loaded (see `load`).
        unsafe { (self.run)() };
    }

    /// Runs one more frame and returns its picture.
    pub fn run_and_capture(&mut self, pads: [u16; 2]) -> Option<Picture> {
        FORMAT.store(self.format, Ordering::Relaxed);
        CAPTURE.store(true, Ordering::Relaxed);
        self.run_frame(pads);
        CAPTURE.store(false, Ordering::Relaxed);
        FRAME.lock().unwrap().take()
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        // SAFETY: loaded in `load`; the library is closed after these return.
        unsafe {
            (self.unload)();
            (self.deinit)();
        }
    }
}
