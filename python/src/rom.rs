//! Loading a ROM from a path or from bytes, and its identity as Python sees it.

use crate::errors::RomError;
use nesmind_emu::Rom;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;

/// Decodes `source`: a path (str or os.PathLike) or the image's bytes.
pub fn load(source: &Bound<'_, PyAny>) -> PyResult<Rom> {
    if let Ok(bytes) = source.downcast::<PyBytes>() {
        return Rom::parse(bytes.as_bytes(), "<bytes>")
            .map_err(|e| RomError::new_err(format!("cannot load ROM from bytes: {e}")));
    }
    if let Ok(data) = source.extract::<Vec<u8>>()
        && !source.is_instance_of::<pyo3::types::PyString>()
    {
        return Rom::parse(&data, "<bytes>")
            .map_err(|e| RomError::new_err(format!("cannot load ROM from bytes: {e}")));
    }
    let path: PathBuf = source.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "a ROM is a path (str or os.PathLike) or bytes, not {}",
            source
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string())
        ))
    })?;
    Rom::load(&path).map_err(RomError::new_err)
}

/// The image's bytes as given: the bytes themselves, or the file's (capped as the loader
/// caps it).
pub fn image(source: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = source.downcast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    if let Ok(data) = source.extract::<Vec<u8>>()
        && !source.is_instance_of::<pyo3::types::PyString>()
    {
        return Ok(data);
    }
    let path: PathBuf = source.extract()?;
    nesmind_host::files::read_capped(&path, nesmind_emu::rom::MAX_FILE, "a ROM")
        .map_err(|e| RomError::new_err(format!("cannot read '{}': {e}", path.display())))
}

/// A powered-on machine for `rom`, or the loader's message for a board it cannot run.
pub fn power_on(rom: &Rom) -> PyResult<nesmind_emu::Machine> {
    nesmind_emu::Machine::new(rom)
        .map_err(|e| RomError::new_err(format!("cannot start '{}': {e}", rom.info.file_name)))
}

/// The identity of a cartridge image.
#[pyclass(frozen, module = "nesmind")]
#[derive(Clone)]
pub struct RomInfo {
    /// CRC32 of PRG + CHR (header and trainer excluded), as cartridge databases list it.
    #[pyo3(get)]
    crc32: u32,
    /// CRC32 of the PRG ROM alone.
    #[pyo3(get)]
    prg_crc32: u32,
    /// SHA-1 of PRG + CHR, upper-case hex.
    #[pyo3(get)]
    sha1: String,
    /// iNES / NES 2.0 mapper number.
    #[pyo3(get)]
    mapper: u16,
    #[pyo3(get)]
    submapper: u8,
    /// File name the ROM was loaded from ("<bytes>" for an image given as bytes).
    #[pyo3(get)]
    file_name: String,
    /// PRG ROM size in bytes.
    #[pyo3(get)]
    prg_rom_size: usize,
    /// CHR ROM size in bytes (0 with CHR RAM).
    #[pyo3(get)]
    chr_rom_size: usize,
    /// Whether the header marks battery-backed RAM.
    #[pyo3(get)]
    battery: bool,
}

impl RomInfo {
    pub fn of(rom: &Rom) -> RomInfo {
        let i = &rom.info;
        RomInfo {
            crc32: i.crc32,
            prg_crc32: i.prg_crc32,
            sha1: i.sha1_hex(),
            mapper: i.mapper,
            submapper: i.submapper,
            file_name: i.file_name.clone(),
            prg_rom_size: rom.prg_rom.len(),
            chr_rom_size: rom.chr_rom.len(),
            battery: rom.battery,
        }
    }
}

#[pymethods]
impl RomInfo {
    fn __repr__(&self) -> String {
        format!(
            "RomInfo(file_name={:?}, mapper={}, submapper={}, crc32=0x{:08X}, prg_rom_size={}, chr_rom_size={})",
            self.file_name,
            self.mapper,
            self.submapper,
            self.crc32,
            self.prg_rom_size,
            self.chr_rom_size
        )
    }
}
