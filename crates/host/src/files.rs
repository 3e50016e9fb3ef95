//! The one way nesmind writes a file it must not leave half-written (savestates, replays,
//! recordings, WAV and PNG output, trained weights).

use std::io::Write;
use std::path::Path;

/// Writes `data` to `path` through a temporary file in the same directory and a rename, so
/// a crash or a full disk never leaves a half-written file in place of a good one. The
/// error names the path and the system's reason.
pub fn write_atomic(path: &Path, data: &[u8]) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
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
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write '{}': {e}", path.display())
    })
}
