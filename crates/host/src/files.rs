//! The one way nesmind writes a file it must not leave half-written (savestates, replays,
//! recordings, WAV and PNG output, trained weights).

use std::io::Write;
use std::path::Path;

/// Writes `data` to `path` through a temporary file in the same directory and a rename, so
/// a crash or a full disk never leaves a half-written file in place of a good one. The
/// error names the path and the system's reason.
///
/// Only regular files are replaced that way. A path that names something else (`/dev/null`,
/// a FIFO, a terminal) is written in place: renaming over it would replace the device
/// itself, for every program on the machine, when run as root. A symbolic link is followed,
/// so the file it points to is replaced and the link stays.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write '{}': {e}", path.display());
    let target = match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            return Err(format!(
                "cannot write '{}': it is a directory",
                path.display()
            ));
        }
        Ok(meta) if !meta.is_file() => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(fail)?;
            return f.write_all(data).map_err(fail);
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
        .ok_or_else(|| format!("cannot write '{}': not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &target)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}
