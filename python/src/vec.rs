//! `nesmind.VecMachine`: N machines of one ROM stepped together on a thread pool, with
//! observations written into caller-provided NumPy arrays.

use crate::errors::{JamError, RomError};
use crate::machine::{HEIGHT, Machine, WIDTH, picture_rgb, run_frames};
use crate::rom;
use nesmind_emu::{Buttons, Rom};
use numpy::{
    PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

const RAM: usize = 2048;
const RGB: usize = HEIGHT * WIDTH * 3;

/// N machines of one ROM, stepped in parallel with the GIL released.
///
/// `step` takes one button mask per machine (or one row of masks per machine for several
/// pads) and writes each machine's RAM and/or picture into the arrays given, so a training
/// loop allocates nothing per step.
#[pyclass(module = "nesmind")]
pub struct VecMachine {
    machines: Vec<nesmind_emu::Machine>,
    rom: Rom,
    pool: rayon::ThreadPool,
}

/// A pool of `threads` workers (default: one per CPU), for stepping machines together.
pub(crate) fn thread_pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start the thread pool: {e}")))
}

/// Buttons for every machine: `n` rows of up to four pads.
fn button_rows(actions: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<Vec<u8>>> {
    let rows: Vec<Vec<u8>> = if let Ok(a) = actions.extract::<PyReadonlyArray1<u8>>() {
        a.as_array().iter().map(|&b| vec![b]).collect()
    } else if let Ok(a) = actions.extract::<PyReadonlyArray2<u8>>() {
        a.as_array().outer_iter().map(|r| r.to_vec()).collect()
    } else if let Ok(v) = actions.extract::<Vec<u8>>() {
        v.into_iter().map(|b| vec![b]).collect()
    } else {
        actions.extract::<Vec<Vec<u8>>>().map_err(|_| {
            PyValueError::new_err(
                "buttons are one uint8 mask per machine, or one row of up to 4 masks per machine",
            )
        })?
    };
    if rows.len() != n {
        return Err(PyValueError::new_err(format!(
            "{} button rows given for {n} machines",
            rows.len()
        )));
    }
    if let Some(r) = rows.iter().find(|r| r.len() > 4) {
        return Err(PyValueError::new_err(format!(
            "{} pads in a button row; the machine has 4",
            r.len()
        )));
    }
    Ok(rows)
}

/// Checks an output array's shape and hands out its bytes.
fn out_slice<'a, D: numpy::ndarray::Dimension>(
    out: &'a mut Option<numpy::PyReadwriteArray<'_, u8, D>>,
    shape: &[usize],
    what: &str,
) -> PyResult<Option<&'a mut [u8]>> {
    let Some(rw) = out.as_mut() else {
        return Ok(None);
    };
    if rw.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "{what} has shape {:?}, expected {shape:?}",
            rw.shape()
        )));
    }
    rw.as_slice_mut()
        .map(Some)
        .map_err(|_| PyValueError::new_err(format!("{what} must be C-contiguous")))
}

impl VecMachine {
    fn index(&self, i: i64) -> PyResult<usize> {
        usize::try_from(i)
            .ok()
            .filter(|i| *i < self.machines.len())
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "machine {i} does not exist (0-{})",
                    self.machines.len() - 1
                ))
            })
    }
}

#[pymethods]
impl VecMachine {
    /// VecMachine(rom, n, threads=None)
    ///
    /// `n` freshly powered-on machines of `rom` (path or bytes), stepped on a pool of
    /// `threads` workers (default: one per CPU).
    #[new]
    #[pyo3(signature = (rom, n, threads = None))]
    fn new(rom: &Bound<'_, PyAny>, n: usize, threads: Option<usize>) -> PyResult<VecMachine> {
        if n == 0 {
            return Err(PyValueError::new_err(
                "a VecMachine needs at least 1 machine",
            ));
        }
        let rom = rom::load(rom)?;
        let mut first = rom::power_on(&rom)?;
        first.set_audio_enabled(false);
        let pool = thread_pool(threads)?;
        Ok(VecMachine {
            machines: vec![first; n],
            rom,
            pool,
        })
    }

    fn __len__(&self) -> usize {
        self.machines.len()
    }

    /// Worker threads in the pool.
    #[getter]
    fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// step(buttons, frames=1, ram_out=None, rgb_out=None)
    ///
    /// Sets every machine's pads from `buttons` (shape (n,) for pad 0 or (n, pads)), runs
    /// `frames` frames on each in parallel with the GIL released, then writes each RAM into
    /// `ram_out[i]` (uint8 (n, 2048)) and each picture into `rgb_out[i]` (uint8
    /// (n, 240, 256, 3)) when given. A jam raises JamError naming the machine; the others
    /// have run their frames.
    #[pyo3(signature = (buttons, frames = 1, ram_out = None, rgb_out = None))]
    fn step(
        &mut self,
        py: Python<'_>,
        buttons: &Bound<'_, PyAny>,
        frames: u64,
        ram_out: Option<Bound<'_, PyArray2<u8>>>,
        rgb_out: Option<Bound<'_, PyArray4<u8>>>,
    ) -> PyResult<()> {
        let n = self.machines.len();
        let rows = button_rows(buttons, n)?;
        let mut ram_rw = ram_out.as_ref().map(|a| a.try_readwrite()).transpose()?;
        let mut rgb_rw = rgb_out.as_ref().map(|a| a.try_readwrite()).transpose()?;
        let ram = out_slice(&mut ram_rw, &[n, RAM], "ram_out")?;
        let rgb = out_slice(&mut rgb_rw, &[n, HEIGHT, WIDTH, 3], "rgb_out")?;
        let mut ram_parts: Vec<Option<&mut [u8]>> = match ram {
            Some(s) => s.chunks_mut(RAM).map(Some).collect(),
            None => (0..n).map(|_| None).collect(),
        };
        let mut rgb_parts: Vec<Option<&mut [u8]>> = match rgb {
            Some(s) => s.chunks_mut(RGB).map(Some).collect(),
            None => (0..n).map(|_| None).collect(),
        };
        let (machines, pool) = (&mut self.machines, &self.pool);
        let failed = py.allow_threads(|| {
            pool.install(|| {
                machines
                    .par_iter_mut()
                    .zip(rows.par_iter())
                    .zip(ram_parts.par_iter_mut().zip(rgb_parts.par_iter_mut()))
                    .enumerate()
                    .map(|(i, ((m, row), (ram, rgb)))| {
                        for (pad, b) in row.iter().enumerate() {
                            m.set_buttons(pad, Buttons(*b));
                        }
                        let result = run_frames(m, frames, None);
                        if let Some(out) = ram {
                            out.copy_from_slice(m.ram());
                        }
                        if let Some(out) = rgb {
                            picture_rgb(m.picture(), out);
                        }
                        result.map_err(|e| format!("machine {i}: {e}"))
                    })
                    .find_first(|r| r.is_err())
            })
        });
        match failed {
            Some(Err(e)) => Err(JamError::new_err(e)),
            _ => Ok(()),
        }
    }

    /// ram(out=None) -> numpy.ndarray: every machine's work RAM, uint8 (n, 2048).
    #[pyo3(signature = (out = None))]
    fn ram<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray2<u8>>>,
    ) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let n = self.machines.len();
        let out = out.unwrap_or_else(|| PyArray2::zeros(py, [n, RAM], false));
        {
            let mut rw = Some(out.try_readwrite()?);
            let slice = out_slice(&mut rw, &[n, RAM], "out")?.expect("given");
            for (m, o) in self.machines.iter().zip(slice.chunks_mut(RAM)) {
                o.copy_from_slice(m.ram());
            }
        }
        Ok(out)
    }

    /// picture(out=None) -> numpy.ndarray: every machine's picture, uint8 (n, 240, 256, 3).
    #[pyo3(signature = (out = None))]
    fn picture<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray4<u8>>>,
    ) -> PyResult<Bound<'py, PyArray4<u8>>> {
        let n = self.machines.len();
        let out = out.unwrap_or_else(|| PyArray4::zeros(py, [n, HEIGHT, WIDTH, 3], false));
        {
            let mut rw = Some(out.try_readwrite()?);
            let slice = out_slice(&mut rw, &[n, HEIGHT, WIDTH, 3], "out")?.expect("given");
            for (m, o) in self.machines.iter().zip(slice.chunks_mut(RGB)) {
                picture_rgb(m.picture(), o);
            }
        }
        Ok(out)
    }

    /// get(i) -> Machine: a copy of machine `i`.
    fn get(&self, i: i64) -> PyResult<Machine> {
        let i = self.index(i)?;
        Ok(Machine::wrap(self.machines[i].clone(), self.rom.clone()))
    }

    /// set(i, machine): makes machine `i` a copy of `machine` (which must run the same ROM).
    fn set(&mut self, i: i64, machine: PyRef<'_, Machine>) -> PyResult<()> {
        let i = self.index(i)?;
        if machine.rom.info.sha1 != self.rom.info.sha1 {
            return Err(RomError::new_err(format!(
                "machine runs '{}' (CRC32 {:08X}); this VecMachine runs '{}' (CRC32 {:08X})",
                machine.rom.info.file_name,
                machine.rom.info.crc32,
                self.rom.info.file_name,
                self.rom.info.crc32
            )));
        }
        let mut copy = (*machine.machine).clone();
        copy.set_audio_enabled(false);
        self.machines[i] = copy;
        Ok(())
    }

    /// reset(i=None): the reset button on machine `i`, or on all.
    #[pyo3(signature = (i = None))]
    fn reset(&mut self, i: Option<i64>) -> PyResult<()> {
        match i {
            Some(i) => {
                let i = self.index(i)?;
                self.machines[i].reset();
            }
            None => self.machines.iter_mut().for_each(|m| m.reset()),
        }
        Ok(())
    }

    /// state_hashes() -> list[int]: `Machine.state_hash()` of every machine.
    fn state_hashes(&self) -> Vec<u64> {
        self.machines
            .iter()
            .map(nesmind_host::savestate::state_hash)
            .collect()
    }

    /// frame_numbers() -> list[int]: frames completed by every machine.
    fn frame_numbers(&self) -> Vec<u64> {
        self.machines.iter().map(|m| m.frame_number()).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<nesmind.VecMachine '{}' x{} on {} threads>",
            self.rom.info.file_name,
            self.machines.len(),
            self.pool.current_num_threads()
        )
    }
}
