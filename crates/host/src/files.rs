//! The one way nesmind writes a file it must not leave half-written (savestates, replays,
//! recordings, WAV and PNG output, trained weights), and the one way it reads a file a
//! user names (`read_capped`): never without bound.

use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Reads a whole file of at most `max` bytes. A larger one, or a device that never ends
/// (`/dev/zero`), is refused with an error of kind `FileTooLarge` saying it is not `what`
/// ("a nesmind savestate"), after at most `max + 1` bytes instead of all memory.
pub fn read_capped(path: &Path, max: u64, what: &str) -> std::io::Result<Vec<u8>> {
    let too_large = || {
        std::io::Error::new(
            ErrorKind::FileTooLarge,
            format!("larger than {}: not {what}", size_text(max)),
        )
    };
    let file = File::open(path)?;
    // A regular file says its size: one too large is refused unread.
    if file.metadata().is_ok_and(|m| m.is_file() && m.len() > max) {
        return Err(too_large());
    }
    let mut data = Vec::new();
    file.take(max + 1).read_to_end(&mut data)?;
    if data.len() as u64 > max {
        return Err(too_large());
    }
    Ok(data)
}

/// [`read_capped`] for a text file (UTF-8).
pub fn read_capped_text(path: &Path, max: u64, what: &str) -> std::io::Result<String> {
    String::from_utf8(read_capped(path, max, what)?).map_err(|_| {
        std::io::Error::new(ErrorKind::InvalidData, "stream did not contain valid UTF-8")
    })
}

/// `n` bytes in the largest unit that divides it: "32 MiB", "1040 KiB", "7 bytes".
fn size_text(n: u64) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_capped() {
        let path = std::env::temp_dir().join(format!("nesmind-capped-{}", std::process::id()));
        std::fs::write(&path, [7u8; 1024]).unwrap();
        assert_eq!(read_capped(&path, 1024, "x").unwrap().len(), 1024);
        let e = read_capped(&path, 1023, "a nesmind savestate").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "larger than 1023 bytes: not a nesmind savestate"
        );
        assert!(read_capped_text(&path, 1024, "x").is_ok());
        std::fs::write(&path, [0xFFu8; 4]).unwrap();
        assert_eq!(
            read_capped_text(&path, 1024, "x").unwrap_err().kind(),
            ErrorKind::InvalidData
        );
        let _ = std::fs::remove_file(&path);
        #[cfg(unix)]
        {
            let e = read_capped(Path::new("/dev/zero"), 1 << 20, "a replay").unwrap_err();
            assert_eq!(e.to_string(), "larger than 1 MiB: not a replay");
        }
        let e = read_capped(Path::new("/nonexistent/x"), 1, "x").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotFound);
        assert_eq!(size_text(64 << 10), "64 KiB");
    }
}
