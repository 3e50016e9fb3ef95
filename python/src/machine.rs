//! `nesmind.Machine`: one NES, stepped a frame at a time from Python.

use crate::errors::{JamError, StateError};
use crate::rom::{self, RomInfo};
use nesmind_emu::{Buttons, Rom};
use nesmind_host::savestate;
use numpy::ndarray::ArrayView1;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use std::sync::{Arc, OnceLock};

pub const HEIGHT: usize = 240;
pub const WIDTH: usize = 256;

/// The frontend's 512-entry palette (64 colours x 8 emphasis combinations) as RGB bytes.
pub fn rgb_palette() -> &'static [[u8; 3]; 512] {
    static PALETTE: OnceLock<[[u8; 3]; 512]> = OnceLock::new();
    PALETTE.get_or_init(|| {
        let mut out = [[0u8; 3]; 512];
        for (o, c) in out
            .iter_mut()
            .zip(nesmind::frontend::palette::build_palette())
        {
            *o = [(c >> 16) as u8, (c >> 8) as u8, c as u8];
        }
        out
    })
}

/// Writes the picture's RGB bytes (row-major, 3 per pixel) into `out`.
pub fn picture_rgb(picture: &[u16], out: &mut [u8]) {
    let palette = rgb_palette();
    for (px, o) in picture.iter().zip(out.chunks_exact_mut(3)) {
        o.copy_from_slice(&palette[usize::from(px & 0x1FF)]);
    }
}

/// Runs `frames` frames, appending the sound to `audio` when it is collected.
pub fn run_frames(
    m: &mut nesmind_emu::Machine,
    frames: u64,
    mut audio: Option<&mut Vec<i16>>,
) -> Result<(), String> {
    for _ in 0..frames {
        m.run_frame().map_err(|e| e.to_string())?;
        if let Some(buf) = audio.as_deref_mut() {
            m.take_audio(buf);
        }
    }
    Ok(())
}

/// A pad's buttons from an int bit mask (A=1, B=2, Select=4, Start=8, Up=16, Down=32,
/// Left=64, Right=128) or names such as "A+Right".
pub fn parse_buttons(value: &Bound<'_, PyAny>) -> PyResult<Buttons> {
    if let Ok(s) = value.downcast::<PyString>() {
        return Buttons::parse(&s.to_cow()?).map_err(PyValueError::new_err);
    }
    let mask: i64 = value.extract().map_err(|_| {
        PyTypeError::new_err("buttons are an int bit mask (0-255) or names like \"A+Right\"")
    })?;
    u8::try_from(mask)
        .map(Buttons)
        .map_err(|_| PyValueError::new_err(format!("button mask {mask} is outside 0-255")))
}

/// Checks a pad number (0-3).
pub fn pad_index(pad: i64) -> PyResult<usize> {
    usize::try_from(pad)
        .ok()
        .filter(|p| *p < 4)
        .ok_or_else(|| PyValueError::new_err(format!("pad {pad} does not exist (pads are 0-3)")))
}

fn address(addr: i64) -> PyResult<u16> {
    u16::try_from(addr).map_err(|_| {
        PyValueError::new_err(format!(
            "address {addr} is outside the CPU's address space (0-0xFFFF)"
        ))
    })
}

/// Applies `buttons` (None: unchanged; one value: pad 0; a sequence: pads 0, 1, ...).
pub fn apply_buttons(
    m: &mut nesmind_emu::Machine,
    buttons: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let Some(b) = buttons.filter(|b| !b.is_none()) else {
        return Ok(());
    };
    if b.downcast::<PyString>().is_ok() || b.extract::<i64>().is_ok() {
        m.set_buttons(0, parse_buttons(b)?);
        return Ok(());
    }
    let list: Vec<Bound<'_, PyAny>> = b.extract()?;
    if list.len() > 4 {
        return Err(PyValueError::new_err(format!(
            "{} pads given; the machine has 4",
            list.len()
        )));
    }
    for (pad, v) in list.iter().enumerate() {
        m.set_buttons(pad, parse_buttons(v)?);
    }
    Ok(())
}

/// One NES: load a ROM, press buttons, run frames, read RAM and the picture.
///
/// Frames end where plug-ins see them: the picture is complete and the game's NMI has not
/// run yet, so buttons set between steps are read by the game's next controller poll.
/// The GIL is released while frames run, so machines in several Python threads run in
/// parallel. Same ROM and same inputs give the same frames, bit for bit.
#[pyclass(module = "nesmind")]
pub struct Machine {
    /// Boxed: the Python object stays small, so a clone allocates and copies the machine
    /// once (an inline one made Python zero and copy its 4 KiB as well). The box is never
    /// replaced, only overwritten, so `ram` views keep pointing at it.
    pub(crate) machine: Box<nesmind_emu::Machine>,
    /// Shared by clones: a clone copies no ROM data and no file name.
    pub(crate) rom: Arc<Rom>,
    /// The samples of the last step, when sound is collected.
    audio: Option<Vec<i16>>,
}

impl Machine {
    pub fn wrap(machine: nesmind_emu::Machine, rom: impl Into<Arc<Rom>>) -> Machine {
        let audio = machine.audio_enabled().then(Vec::new);
        Machine {
            machine: Box::new(machine),
            rom: rom.into(),
            audio,
        }
    }

    /// A fresh machine that keeps this one's host settings (sound, Four Score, speed-ups).
    fn settings_onto(&self, mut fresh: nesmind_emu::Machine) -> nesmind_emu::Machine {
        // The rate was accepted by this machine, so the fresh one accepts it too.
        let _ = fresh.set_host_settings(self.machine.host_settings());
        fresh
    }
}

#[pymethods]
impl Machine {
    /// Machine(rom, audio=False, sample_rate=48000)
    ///
    /// `rom` is a path (str or os.PathLike) or the image's bytes. With `audio` the sound
    /// of each step is kept for `audio()`; without, no sound is synthesised (faster).
    #[new]
    #[pyo3(signature = (rom, audio = false, sample_rate = 48000))]
    fn new(rom: &Bound<'_, PyAny>, audio: bool, sample_rate: u32) -> PyResult<Machine> {
        let rom = rom::load(rom)?;
        let mut machine = rom::power_on(&rom)?;
        machine.set_audio_enabled(audio);
        machine
            .set_sample_rate(sample_rate)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Machine::wrap(machine, rom))
    }

    /// step(buttons=None, frames=1)
    ///
    /// Sets the buttons (None keeps them; an int mask or "A+Right" is pad 0; a sequence
    /// sets pads 0, 1, ...) and runs `frames` frames with the GIL released. A jammed CPU
    /// raises JamError.
    #[pyo3(signature = (buttons = None, frames = 1))]
    fn step(
        &mut self,
        py: Python<'_>,
        buttons: Option<&Bound<'_, PyAny>>,
        frames: u64,
    ) -> PyResult<()> {
        apply_buttons(&mut self.machine, buttons)?;
        self.run_frames(py, frames)
    }

    /// run_frames(n): runs `n` frames holding the current buttons.
    fn run_frames(&mut self, py: Python<'_>, n: u64) -> PyResult<()> {
        let Machine { machine, audio, .. } = self;
        if let Some(buf) = audio.as_mut() {
            buf.clear();
        }
        py.allow_threads(|| run_frames(machine, n, audio.as_mut()))
            .map_err(JamError::new_err)
    }

    /// set_buttons(pad, buttons): holds `buttons` (mask or names) on pad 0-3.
    fn set_buttons(&mut self, pad: i64, buttons: &Bound<'_, PyAny>) -> PyResult<()> {
        let pad = pad_index(pad)?;
        self.machine.set_buttons(pad, parse_buttons(buttons)?);
        Ok(())
    }

    /// buttons(pad=0) -> int: the mask held on a pad.
    #[pyo3(signature = (pad = 0))]
    fn buttons(&self, pad: i64) -> PyResult<u8> {
        Ok(self.machine.buttons(pad_index(pad)?).bits())
    }

    /// peek(addr) -> int: reads the CPU address space without side effects.
    fn peek(&self, addr: i64) -> PyResult<u8> {
        Ok(self.machine.peek(address(addr)?))
    }

    /// poke(addr, value): writes the CPU address space (for harnesses; it changes the game).
    fn poke(&mut self, addr: i64, value: u8) -> PyResult<()> {
        self.machine.poke(address(addr)?, value);
        Ok(())
    }

    /// The 2 KiB of work RAM as a read-only uint8 NumPy view (no copy): it shows the
    /// machine's RAM as it is now, also after later steps. Copy it (`m.ram.copy()`) to keep
    /// a snapshot.
    #[getter]
    fn ram<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let this = slf.borrow();
        let view = ArrayView1::from(this.machine.ram());
        // SAFETY: the RAM is an array inside the machine, whose box this Python object owns
        // for its whole life: its address is fixed (load_state and power() overwrite the
        // machine in place), and the view holds a reference to the object.
        let array = unsafe { PyArray1::borrow_from_array(&view, slf.clone().into_any()) };
        array.call_method(
            "setflags",
            (),
            Some(&[("write", false)].into_py_dict(slf.py())?),
        )?;
        Ok(array)
    }

    /// prg_ram() -> numpy.ndarray: a copy of the cartridge's PRG RAM ($6000-$7FFF; empty without).
    fn prg_ram<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        PyArray1::from_slice(py, self.machine.prg_ram())
    }

    /// picture(out=None) -> numpy.ndarray: the last frame as uint8 RGB, shape (240, 256, 3).
    /// With `out` (a C-contiguous uint8 array of that shape) it is written there.
    #[pyo3(signature = (out = None))]
    fn picture<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray3<u8>>>,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let out = match out {
            Some(o) => o,
            None => PyArray3::zeros(py, [HEIGHT, WIDTH, 3], false),
        };
        if out.shape() != [HEIGHT, WIDTH, 3] {
            return Err(PyValueError::new_err(format!(
                "out has shape {:?}, expected (240, 256, 3)",
                out.shape()
            )));
        }
        {
            let mut rw = out.try_readwrite()?;
            let slice = rw
                .as_slice_mut()
                .map_err(|_| PyValueError::new_err("out must be C-contiguous"))?;
            picture_rgb(self.machine.picture(), slice);
        }
        Ok(out)
    }

    /// palette_indices() -> numpy.ndarray: the last frame as uint16 (240, 256): palette
    /// index in bits 0-5, colour emphasis in bits 6-8 (index `nesmind.palette()` with it).
    fn palette_indices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u16>>> {
        PyArray1::from_slice(py, self.machine.picture()).reshape([HEIGHT, WIDTH])
    }

    /// audio() -> numpy.ndarray: the int16 mono samples of the last step (at
    /// `sample_rate`). Raises NesError when the machine was made without audio=True.
    fn audio<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i16>>> {
        match &self.audio {
            Some(buf) => Ok(PyArray1::from_slice(py, buf)),
            None => Err(crate::errors::NesError::new_err(
                "sound is off: create the Machine with audio=True to collect samples",
            )),
        }
    }

    /// Output sample rate in Hz.
    #[getter]
    fn sample_rate(&self) -> u32 {
        self.machine.sample_rate()
    }

    /// clone() -> Machine: an independent copy (ROM shared), cheap enough for lookahead.
    fn clone(&self) -> Machine {
        Machine {
            machine: self.machine.clone(),
            rom: self.rom.clone(),
            audio: self.audio.clone(),
        }
    }

    fn __copy__(&self) -> Machine {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Machine {
        self.clone()
    }

    /// save_state() -> bytes: the machine as a nesmind savestate (the format of
    /// `nesmind run --save-state`), tied to this ROM.
    fn save_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let text = savestate::encode(&self.machine, &self.rom)
            .map_err(|e| StateError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, text.as_bytes()))
    }

    /// load_state(data): restores a savestate (bytes or str): nesmind's own, or a
    /// stable-retro (FCEUmm) state of an NROM, MMC1, UxROM, CNROM, AxROM, GxROM or MMC3
    /// game, gzipped as in a `.state` file or raw as `em.get_state()` gives it. On any
    /// error the machine is left exactly as it was and StateError says what is wrong.
    fn load_state(&mut self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = if let Ok(s) = data.downcast::<PyString>() {
            s.to_cow()?.to_string()
        } else {
            let bytes: Vec<u8> = data
                .extract()
                .map_err(|_| PyTypeError::new_err("a savestate is bytes or str"))?;
            // stable-retro's states (a `.state` file, or `em.get_state()`'s bytes).
            if nesmind_retro::FceuState::looks_like(&bytes) {
                let loaded = nesmind_retro::parts::load(&bytes, &self.rom).map_err(|e| {
                    StateError::new_err(format!("cannot load stable-retro state: {e}"))
                })?;
                *self.machine = self.settings_onto(loaded);
                return Ok(());
            }
            String::from_utf8(bytes)
                .map_err(|_| StateError::new_err(savestate::StateError::NotAState.to_string()))?
        };
        let loaded = savestate::decode(&text, &self.rom)
            .map_err(|e| StateError::new_err(format!("cannot load savestate: {e}")))?;
        *self.machine = self.settings_onto(loaded);
        Ok(())
    }

    /// state_hash() -> int: 64-bit hash of RAM, PRG RAM, CPU registers, frame count and
    /// cycle count (the hash replays check; the same with and without the speed-ups).
    fn state_hash(&self) -> u64 {
        savestate::state_hash(&self.machine)
    }

    /// reset(): the console's reset button (RAM keeps its contents).
    fn reset(&mut self) {
        self.machine.reset();
    }

    /// power(): a power cycle: a freshly powered-on machine with the same settings.
    fn power(&mut self) -> PyResult<()> {
        let fresh = rom::power_on(&self.rom)?;
        *self.machine = self.settings_onto(fresh);
        Ok(())
    }

    /// The cartridge's identity (CRC32, SHA-1, mapper, sizes, file name).
    #[getter]
    fn rom_info(&self) -> RomInfo {
        RomInfo::of(&self.rom)
    }

    /// Frames completed since power-on.
    #[getter]
    fn frame_number(&self) -> u64 {
        self.machine.frame_number()
    }

    /// CPU cycles since power-on.
    #[getter]
    fn cpu_cycles(&self) -> u64 {
        self.machine.cpu_cycles()
    }

    /// Whether a Four Score adapter is plugged in (pads 2 and 3 need it).
    #[getter]
    fn get_four_score(&self) -> bool {
        self.machine.four_score()
    }

    #[setter]
    fn set_four_score(&mut self, on: bool) {
        self.machine.set_four_score(on);
    }

    /// cpu() -> dict: the 6502 registers a, x, y, s, p, pc.
    fn cpu<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = self.machine.cpu();
        let d = PyDict::new(py);
        for (k, v) in [("a", c.a), ("x", c.x), ("y", c.y), ("s", c.s), ("p", c.p)] {
            d.set_item(k, v)?;
        }
        d.set_item("pc", c.pc)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<nesmind.Machine '{}' mapper {} frame {}>",
            self.rom.info.file_name,
            self.rom.info.mapper,
            self.machine.frame_number()
        )
    }
}

use pyo3::types::IntoPyDict;

/// palette() -> numpy.ndarray: the (512, 3) uint8 RGB palette `picture()` uses, indexed by
/// `palette_indices()` values (64 colours for each of the 8 emphasis combinations).
#[pyfunction]
pub fn palette(py: Python<'_>) -> PyResult<Bound<'_, PyArray2<u8>>> {
    let flat: Vec<u8> = rgb_palette().iter().flatten().copied().collect();
    PyArray1::from_vec(py, flat).reshape([512, 3])
}

/// The button bits by name: {"A": 1, "B": 2, ..., "Right": 128}.
pub fn button_names() -> Vec<(&'static str, u8)> {
    [
        ("A", Buttons::A),
        ("B", Buttons::B),
        ("Select", Buttons::SELECT),
        ("Start", Buttons::START),
        ("Up", Buttons::UP),
        ("Down", Buttons::DOWN),
        ("Left", Buttons::LEFT),
        ("Right", Buttons::RIGHT),
    ]
    .into_iter()
    .map(|(n, b)| (n, b.bits()))
    .collect()
}
