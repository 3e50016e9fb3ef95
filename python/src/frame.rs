//! What a Python plug-in's hooks receive: `Setup` in `on_attach`, `Frame` in `on_frame`.
//! Both are views of Rust objects that live only for the call; using one after its hook
//! returned raises NesError instead of touching freed memory.

use crate::errors::NesError;
use crate::machine::{HEIGHT, Machine, WIDTH, pad_index, parse_buttons, picture_rgb};
use nesmind_host::{AccessKind, Request};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::cell::Cell;

type FramePtr = *mut (dyn nesmind_host::Frame + 'static);
/// A watch hit as Python sees it: (watch id, kind, address, value, CPU cycle).
type Hit = (usize, &'static str, u16, u8, u64);
type SetupPtr = *mut (dyn nesmind_host::Setup + 'static);

/// The machine as a plug-in sees it during `on_frame` (the contract of the Rust `Frame`).
#[pyclass(unsendable, module = "nesmind")]
pub struct Frame {
    ptr: Cell<Option<FramePtr>>,
    /// The running ROM, for the machines `fork()` returns.
    rom: Option<nesmind_emu::Rom>,
}

impl Frame {
    /// Calls `f` with a Python `Frame` that views `frame` until `f` returns.
    pub fn lend<'py, R>(
        py: Python<'py>,
        frame: &mut dyn nesmind_host::Frame,
        rom: Option<&nesmind_emu::Rom>,
        f: impl FnOnce(&Bound<'py, Frame>) -> R,
    ) -> PyResult<R> {
        // SAFETY: the pointer's lifetime is erased only for the duration of `f`; it is
        // cleared before `frame`'s borrow ends, and every use checks it is still set.
        let ptr: FramePtr = unsafe { std::mem::transmute(frame as *mut dyn nesmind_host::Frame) };
        let obj = Bound::new(
            py,
            Frame {
                ptr: Cell::new(Some(ptr)),
                rom: rom.cloned(),
            },
        )?;
        let out = f(&obj);
        obj.borrow().ptr.set(None);
        Ok(out)
    }

    fn with<R>(&self, f: impl FnOnce(&mut dyn nesmind_host::Frame) -> R) -> PyResult<R> {
        match self.ptr.get() {
            // SAFETY: set only while the frame it points to is borrowed by `lend`.
            Some(p) => Ok(f(unsafe { &mut *p })),
            None => Err(NesError::new_err(
                "this Frame was kept after on_frame returned; it is valid only during the call",
            )),
        }
    }
}

#[pymethods]
impl Frame {
    /// Frames completed since power-on.
    #[getter]
    fn frame_number(&self) -> PyResult<u64> {
        self.with(|f| f.frame_number())
    }

    /// peek(addr) -> int: reads the CPU address space without side effects.
    fn peek(&self, addr: u16) -> PyResult<u8> {
        self.with(|f| f.peek(addr))
    }

    /// poke(addr, value): writes the CPU address space. Cheating: for test harnesses only.
    fn poke(&self, addr: u16, value: u8) -> PyResult<()> {
        self.with(|f| f.poke(addr, value))
    }

    /// ram() -> numpy.ndarray: a uint8 copy of the 2 KiB work RAM.
    fn ram<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        self.with(|f| PyArray1::from_slice(py, f.ram()))
    }

    /// picture() -> numpy.ndarray: the finished picture, uint8 RGB (240, 256, 3).
    fn picture<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let out = PyArray3::<u8>::zeros(py, [HEIGHT, WIDTH, 3], false);
        {
            let mut rw = out.readwrite();
            let slice = rw.as_slice_mut().expect("fresh arrays are contiguous");
            self.with(|f| picture_rgb(f.picture(), slice))?;
        }
        Ok(out)
    }

    /// palette_indices() -> numpy.ndarray: the picture as uint16 (240, 256) palette indices.
    fn palette_indices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u16>>> {
        let flat = self.with(|f| PyArray1::from_slice(py, f.picture()))?;
        flat.reshape([HEIGHT, WIDTH])
    }

    /// set_buttons(pad, buttons): holds buttons (mask or "A+Right") on pad 0-3.
    fn set_buttons(&self, pad: i64, buttons: &Bound<'_, PyAny>) -> PyResult<()> {
        let (pad, b) = (pad_index(pad)?, parse_buttons(buttons)?);
        self.with(|f| f.set_buttons(pad, b))
    }

    /// buttons(pad=0) -> int: the mask currently held on a pad.
    #[pyo3(signature = (pad = 0))]
    fn buttons(&self, pad: i64) -> PyResult<u8> {
        let pad = pad_index(pad)?;
        self.with(|f| f.buttons(pad).bits())
    }

    /// watch_hits() -> list[tuple[int, str, int, int, int]]: (watch id, kind, address,
    /// value, CPU cycle) of the accesses the plug-in's watches matched since the last frame.
    fn watch_hits(&self) -> PyResult<Vec<Hit>> {
        self.with(|f| {
            f.watch_hits()
                .iter()
                .map(|h| (h.watch, kind_name(h.kind), h.addr, h.value, h.cycle))
                .collect()
        })
    }

    /// set_status(line): a one-line status shown by the window.
    fn set_status(&self, line: &str) -> PyResult<()> {
        self.with(|f| f.set_status(line))
    }

    /// fork() -> Machine: an independent copy of the whole machine for lookahead.
    fn fork(&self) -> PyResult<Machine> {
        let fork = self.with(|f| f.fork())?;
        let fork = fork.ok_or_else(|| NesError::new_err("this host cannot fork its machine"))?;
        let machine = fork.machine().clone();
        let rom = self
            .rom
            .clone()
            .ok_or_else(|| NesError::new_err("this host does not know its ROM"))?;
        Ok(Machine::wrap(machine, rom))
    }

    /// request_reset(): press reset before the next frame.
    fn request_reset(&self) -> PyResult<()> {
        self.with(|f| f.request(Request::Reset))
    }

    /// request_power(): power-cycle before the next frame.
    fn request_power(&self) -> PyResult<()> {
        self.with(|f| f.request(Request::Power))
    }

    /// request_quit(code=0, message=""): end the run after this frame.
    #[pyo3(signature = (code = 0, message = String::new()))]
    fn request_quit(&self, code: i32, message: String) -> PyResult<()> {
        self.with(|f| f.request(Request::Quit { code, message }))
    }
}

fn kind_name(kind: AccessKind) -> &'static str {
    match kind {
        AccessKind::Read => "read",
        AccessKind::Write => "write",
        AccessKind::Execute => "execute",
    }
}

fn parse_kind(kind: &str) -> PyResult<AccessKind> {
    match kind.to_ascii_lowercase().as_str() {
        "read" => Ok(AccessKind::Read),
        "write" => Ok(AccessKind::Write),
        "execute" => Ok(AccessKind::Execute),
        _ => Err(PyValueError::new_err(format!(
            "unknown access kind '{kind}' (read, write, execute)"
        ))),
    }
}

/// What a plug-in may ask for in `on_attach`: bus watches and the number of pads.
#[pyclass(unsendable, module = "nesmind")]
pub struct Setup {
    ptr: Cell<Option<SetupPtr>>,
}

impl Setup {
    /// Calls `f` with a Python `Setup` that views `setup` until `f` returns.
    pub fn lend<'py, R>(
        py: Python<'py>,
        setup: &mut dyn nesmind_host::Setup,
        f: impl FnOnce(&Bound<'py, Setup>) -> R,
    ) -> PyResult<R> {
        // SAFETY: as in `Frame::lend`.
        let ptr: SetupPtr = unsafe { std::mem::transmute(setup as *mut dyn nesmind_host::Setup) };
        let obj = Bound::new(
            py,
            Setup {
                ptr: Cell::new(Some(ptr)),
            },
        )?;
        let out = f(&obj);
        obj.borrow().ptr.set(None);
        Ok(out)
    }

    fn with<R>(&self, f: impl FnOnce(&mut dyn nesmind_host::Setup) -> R) -> PyResult<R> {
        match self.ptr.get() {
            // SAFETY: set only while the setup it points to is borrowed by `lend`.
            Some(p) => Ok(f(unsafe { &mut *p })),
            None => Err(NesError::new_err(
                "this Setup was kept after on_attach returned; it is valid only during the call",
            )),
        }
    }
}

#[pymethods]
impl Setup {
    /// watch(kind, first, last=None) -> int: report CPU accesses of `kind` ("read",
    /// "write", "execute") to addresses first..=last in `Frame.watch_hits()`; returns the id.
    #[pyo3(signature = (kind, first, last = None))]
    fn watch(&self, kind: &str, first: u16, last: Option<u16>) -> PyResult<usize> {
        let kind = parse_kind(kind)?;
        let last = last.unwrap_or(first);
        if last < first {
            return Err(PyValueError::new_err(format!(
                "watch range ${first:04X}-${last:04X} is empty"
            )));
        }
        self.with(|s| s.watch(kind, first..=last))
    }

    /// use_pads(count): drive `count` pads (1-4); more than 2 plugs in a Four Score.
    fn use_pads(&self, count: usize) -> PyResult<()> {
        self.with(|s| s.use_pads(count))
    }
}
