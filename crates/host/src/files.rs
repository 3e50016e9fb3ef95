//! The one way nesmind writes a file it must not leave half-written (savestates, replays,
//! recordings, WAV and PNG output, trained weights).

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Writes `data` to `path` through a temporary file in the same directory and a rename, so
/// a crash or a full disk never leaves a half-written file in place of a good one. The
/// error names the path and the system's reason.
///
/// Only regular files are replaced that way. A path that names something else (`/dev/null`,
/// a FIFO, a terminal) is written in place: renaming over it would replace the device
/// itself, for every program on the machine, when run as root. A symbolic link is followed,
/// so the file it points to is replaced and the link stays.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), String> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(data).map_err(|e| f.error(e))?;
    f.commit()
}

/// Checks, before a long run, that `path` can be written when the run ends: creates the
/// temporary file `write_atomic` would use and removes it again. The target itself is not
/// touched. An existing file that is not a regular one (`/dev/null`) is taken as it is,
/// since opening a FIFO here could block.
pub fn check_writable(path: &Path) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(cannot_write(path, "it is a directory")),
        Ok(meta) if !meta.is_file() => Ok(()),
        _ => AtomicFile::create(path).map(drop),
    }
}

/// A file written in full or not at all, for output written piece by piece (see
/// `write_atomic` for which paths are replaced and which are written in place). Until
/// `commit`, the data goes to a temporary file beside the target; dropped uncommitted, the
/// temporary file is removed and the target is left as it was.
pub struct AtomicFile {
    file: File,
    /// The path as given, for messages.
    shown: PathBuf,
    /// The temporary file and the file it is to replace; `None` when written in place.
    rename: Option<(PathBuf, PathBuf)>,
}

impl AtomicFile {
    pub fn create(path: &Path) -> Result<AtomicFile, String> {
        let fail = |e: std::io::Error| cannot_write(path, e);
        let target = match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => return Err(cannot_write(path, "it is a directory")),
            Ok(meta) if !meta.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(fail)?;
                return Ok(AtomicFile {
                    file,
                    shown: path.to_path_buf(),
                    rename: None,
                });
            }
            Ok(_) => std::fs::canonicalize(path).map_err(fail)?,
            Err(_) => path.to_path_buf(),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .ok_or_else(|| cannot_write(path, "not a file name"))?;
        let tmp = dir.join(format!(
            ".{}.tmp{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file = File::create(&tmp).map_err(fail)?;
        Ok(AtomicFile {
            file,
            shown: path.to_path_buf(),
            rename: Some((tmp, target)),
        })
    }

    /// A message naming the file and the system's reason.
    pub fn error(&self, e: std::io::Error) -> String {
        cannot_write(&self.shown, e)
    }

    /// Whether the output can be written out of order (a file, or a device that accepts a
    /// seek); a pipe cannot.
    pub fn seekable(&mut self) -> bool {
        self.file.stream_position().is_ok()
    }

    /// Puts the written data in place of the target.
    pub fn commit(mut self) -> Result<(), String> {
        let Some((tmp, target)) = self.rename.take() else {
            return Ok(());
        };
        let done = self
            .file
            .sync_all()
            .and_then(|()| std::fs::rename(&tmp, &target));
        if let Err(e) = done {
            let _ = std::fs::remove_file(&tmp);
            return Err(self.error(e));
        }
        Ok(())
    }
}

/// The one form of every write error here: the path, then why.
fn cannot_write(path: &Path, why: impl std::fmt::Display) -> String {
    format!("cannot write '{}': {why}", path.display())
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some((tmp, _)) = &self.rename {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Seek for AtomicFile {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.file.seek(pos)
    }
}
