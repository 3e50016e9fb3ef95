//! `nesmind.Viewer`: the SDL window for loops the caller drives (Gymnasium's
//! `render_mode="human"`). The window runs on its own thread (see the frontend's
//! `Viewer`); `show` releases the GIL while it paces and hands the picture over.

use crate::errors::NesError;
use crate::machine::Machine;
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Viewer(title="nesmind", scale=3, speed=1.0)
///
/// A window that shows the pictures handed to it. `show` waits so that pictures follow
/// each other at the game's real speed times `speed` (None: no waiting), counting the
/// emulated frames each picture stands for. Raises NesError when no window can be opened
/// (no display). Closing the window does not stop the caller: `show` then returns False.
#[pyclass(module = "nesmind")]
pub struct Viewer {
    #[cfg(feature = "sdl")]
    inner: nesmind::frontend::window::Viewer,
}

#[pymethods]
impl Viewer {
    #[new]
    #[pyo3(signature = (title = "nesmind", scale = 3, speed = Some(1.0)))]
    fn new(title: &str, scale: u32, speed: Option<f64>) -> PyResult<Viewer> {
        open(title, scale, speed)
    }

    /// show(source, frames=1, status="") -> bool: shows a Machine's last frame, or a
    /// uint16 (240, 256) array of palette indices (`Frame.palette_indices()`), with
    /// `status` under it. False once the window has been closed.
    #[pyo3(signature = (source, frames = 1, status = ""))]
    fn show(
        &mut self,
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        frames: u32,
        status: &str,
    ) -> PyResult<bool> {
        let picture: Vec<u16> = if let Ok(m) = source.downcast::<Machine>() {
            m.borrow().machine.picture().to_vec()
        } else if let Ok(a) = source.extract::<PyReadonlyArray2<'_, u16>>() {
            if a.shape() != [240, 256] {
                return Err(PyValueError::new_err(format!(
                    "a picture has shape (240, 256), not {:?}",
                    a.shape()
                )));
            }
            a.as_array().iter().copied().collect()
        } else {
            return Err(PyValueError::new_err(
                "show() takes a Machine or a uint16 (240, 256) array of palette indices",
            ));
        };
        self.show_indices(py, &picture, status, frames)
    }

    /// Whether the window is still open.
    #[getter]
    fn is_open(&self) -> bool {
        #[cfg(feature = "sdl")]
        return self.inner.is_open();
        #[cfg(not(feature = "sdl"))]
        false
    }

    /// Pictures shown so far.
    #[getter]
    fn shown(&self) -> u64 {
        #[cfg(feature = "sdl")]
        return self.inner.shown();
        #[cfg(not(feature = "sdl"))]
        0
    }

    /// close(): closes the window; later `show` calls return False.
    fn close(&mut self, py: Python<'_>) {
        #[cfg(feature = "sdl")]
        py.allow_threads(|| self.inner.close());
        #[cfg(not(feature = "sdl"))]
        let _ = py;
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &mut self,
        py: Python<'_>,
        _t: &Bound<'_, PyAny>,
        _v: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) {
        self.close(py);
    }
}

#[cfg(feature = "sdl")]
fn open(title: &str, scale: u32, speed: Option<f64>) -> PyResult<Viewer> {
    nesmind::frontend::window::Viewer::open(title, scale, speed)
        .map(|inner| Viewer { inner })
        .map_err(|why| NesError::new_err(format!("cannot open a window: {why}")))
}

#[cfg(not(feature = "sdl"))]
fn open(_: &str, _: u32, _: Option<f64>) -> PyResult<Viewer> {
    Err(NesError::new_err(
        "this build has no window (built without the `sdl` feature)",
    ))
}

impl Viewer {
    #[cfg(feature = "sdl")]
    fn show_indices(
        &mut self,
        py: Python<'_>,
        picture: &[u16],
        status: &str,
        frames: u32,
    ) -> PyResult<bool> {
        let inner = &mut self.inner;
        py.allow_threads(|| inner.show(picture, status, frames))
            .map_err(NesError::new_err)
    }

    #[cfg(not(feature = "sdl"))]
    fn show_indices(&mut self, _: Python<'_>, _: &[u16], _: &str, _: u32) -> PyResult<bool> {
        Ok(false)
    }
}
