//! Building a demo cartridge from sources compiled into a player: the source tree written to
//! a scratch folder, and its `build.sh` run there (ca65/ld65 from cc65 assemble it). The
//! folder is removed when the build is dropped.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A player's cartridge sources in a scratch folder of their own.
pub struct CartBuild {
    dir: PathBuf,
}

impl CartBuild {
    /// Writes `files` (path within the tree, text) to a new scratch folder named after
    /// `tag` (e.g. the seed being built).
    pub fn new(tag: &str, files: &[(&str, &str)]) -> Result<CartBuild, String> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!(
            "nesmind-{tag}-{}-{:?}-{nanos}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let build = CartBuild { dir };
        for (name, text) in files {
            let path = build.dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(build)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs the tree's `build.sh` with `args`; errors name `what` ("Hatris cart variant 7"),
    /// and a missing assembler says to install cc65.
    pub fn run(&self, args: &[String], what: &str) -> Result<(), String> {
        let o = Command::new("sh")
            .arg(self.dir.join("build.sh"))
            .args(args)
            .output()
            .map_err(|e| format!("cannot run sh to build {what}: {e}"))?;
        if o.status.success() {
            return Ok(());
        }
        let why = String::from_utf8_lossy(&o.stderr).trim().to_string();
        Err(
            if o.status.code() == Some(127) || why.contains("not found") {
                format!(
                    "building {what} needs ca65 and ld65 from cc65, which are not installed \
                 (Debian/Ubuntu: apt-get install cc65): {why}"
                )
            } else {
                format!("building {what} failed:\n{why}")
            },
        )
    }
}

impl Drop for CartBuild {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_runs_in_its_tree_and_the_tree_goes_away() {
        let files = [
            (
                "build.sh",
                "cd \"$(dirname \"$0\")\" && cat src/a.txt > \"$1\"",
            ),
            ("src/a.txt", "made"),
        ];
        let b = CartBuild::new("test-cart", &files).unwrap();
        let out = b.dir().join("out.nes");
        b.run(&[out.display().to_string()], "a test cart").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "made");
        let e = b
            .run(&["/nonexistent/dir/x".into()], "a test cart")
            .unwrap_err();
        assert!(e.starts_with("building a test cart"), "{e}");
        let dir = b.dir().to_path_buf();
        drop(b);
        assert!(!dir.exists());
    }
}
