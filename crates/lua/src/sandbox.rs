//! What a script may touch outside the emulator: files only under its own folder (unless
//! `--lua-unsafe`), no processes, no native modules; and a seeded `math.random`, so the
//! same ROM, script and seed give the same run.

use crate::shared::{Shared, with_shared};
use mlua::{Lua, Result, Value};
use std::path::{Component, Path, PathBuf};

/// `path` as the script means it: relative paths are taken from the script's folder (not
/// nesmind's working directory, which scripts cannot know). Without `unsafe_files`, a
/// path that leads outside that folder (by `..` or a symbolic link) is refused.
pub fn resolve(s: &Shared, path: &str) -> std::result::Result<PathBuf, String> {
    let given = Path::new(path);
    let full = lexical(&s.dir.join(given));
    if s.unsafe_files {
        return Ok(full);
    }
    // Links are followed through the part that exists; the rest is taken as written.
    let mut real = full.clone();
    let mut rest = Vec::new();
    while !real.exists() {
        match (real.file_name(), real.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                real = parent.to_path_buf();
            }
            _ => break,
        }
    }
    let mut real = real.canonicalize().unwrap_or(real);
    real.extend(rest.iter().rev());
    if real.starts_with(&s.dir) {
        Ok(full)
    } else {
        Err(format!(
            "'{path}' is outside the script's folder {} (nesmind run --lua-unsafe allows it)",
            s.dir.display()
        ))
    }
}

/// Removes `.` and resolves `..` without touching the file system.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The wrappers, in Lua: each file function resolves its path first.
const WRAP: &str = r#"
local resolve, unsafe, dir = ...
local open, lines, input, output = io.open, io.lines, io.input, io.output
local remove, rename, do_file, load_file = os.remove, os.rename, dofile, loadfile
io.open = function(path, mode) return open(resolve(path), mode) end
io.lines = function(path, ...)
  if path == nil then return lines() end
  return lines(resolve(path), ...)
end
io.input = function(f) if type(f) == "string" then f = resolve(f) end return input(f) end
io.output = function(f) if type(f) == "string" then f = resolve(f) end return output(f) end
os.remove = function(path) return remove(resolve(path)) end
os.rename = function(a, b) return rename(resolve(a), resolve(b)) end
dofile = function(path)
  if path == nil then error("dofile needs a file name here (there is no standard input)", 2) end
  return do_file(resolve(path))
end
loadfile = function(path)
  if path == nil then return nil, "loadfile needs a file name here" end
  return load_file(resolve(path))
end
package.path = dir .. "/?.lua;" .. dir .. "/?/init.lua" .. (unsafe and (";" .. package.path) or "")
if not unsafe then
  os.execute, io.popen, os.tmpname, io.tmpfile = nil, nil, nil, nil
  package.loadlib, package.cpath = nil, ""
  -- Only preloaded modules and Lua files on package.path; no native libraries.
  package.loaders = { package.loaders[1], package.loaders[2] }
end
"#;

pub fn install(lua: &Lua) -> Result<()> {
    let resolve_fn = lua.create_function(|lua, path: String| {
        with_shared(lua, |s| resolve(s, &path))?
            .map(|p| p.to_string_lossy().into_owned())
            .map_err(mlua::Error::runtime)
    })?;
    let (unsafe_files, dir) = with_shared(lua, |s| {
        (s.unsafe_files, s.dir.to_string_lossy().into_owned())
    })?;
    lua.load(WRAP)
        .set_name("=nesmind sandbox")
        .call::<()>((resolve_fn, unsafe_files, dir))?;
    install_random(lua)
}

/// splitmix64: small, fast and the same everywhere.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `math.random` with Lua 5.1's three forms, drawn from the plug-in's seed.
fn install_random(lua: &Lua) -> Result<()> {
    let math: mlua::Table = lua.globals().get("math")?;
    let random = lua.create_function(|lua, (m, n): (Option<f64>, Option<f64>)| {
        let r = with_shared(lua, |s| next(&mut s.rng))?;
        let unit = (r >> 11) as f64 / (1u64 << 53) as f64;
        let (lo, hi) = match (m, n) {
            (None, _) => return Ok(unit),
            (Some(m), None) => (1.0, m.floor()),
            (Some(m), Some(n)) => (m.floor(), n.floor()),
        };
        if lo > hi {
            return Err(mlua::Error::runtime(
                "bad argument to 'random' (interval is empty)",
            ));
        }
        Ok(lo + (unit * (hi - lo + 1.0)).floor())
    })?;
    // Scripts often seed from the clock (`math.randomseed(os.time())`); a seed given to
    // nesmind wins over it, so such a run can still be repeated exactly.
    let randomseed = lua.create_function(|lua, seed: Value| {
        let seed = match seed {
            Value::Integer(i) => i as f64,
            Value::Number(n) => n,
            _ => 0.0,
        };
        with_shared(lua, |s| {
            if !s.seed_fixed {
                s.rng = seed.to_bits();
            }
        })
    })?;
    math.set("random", random)?;
    math.set("randomseed", randomseed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::Dialect;
    use std::sync::Arc;

    fn shared(dir: &Path, unsafe_files: bool) -> Shared {
        let mut s = Shared::new(Arc::from(vec![]), "x".into(), dir.into(), Dialect::Fceux);
        s.unsafe_files = unsafe_files;
        s
    }

    #[test]
    fn paths_stay_in_the_folder() {
        let dir = std::env::temp_dir().canonicalize().unwrap();
        let s = shared(&dir, false);
        assert_eq!(resolve(&s, "a/b.txt").unwrap(), dir.join("a/b.txt"));
        assert_eq!(resolve(&s, "a/../c.txt").unwrap(), dir.join("c.txt"));
        let out = resolve(&s, "../escape.txt").unwrap_err();
        assert!(out.contains("outside the script's folder"), "{out}");
        assert!(resolve(&s, "/etc/passwd").is_err());
        assert!(resolve(&shared(&dir, true), "/etc/passwd").is_ok());
    }
}
