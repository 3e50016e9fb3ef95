//! A scenario's Lua (`script.lua`): reward and end functions stable-retro calls after each
//! step instead of summing variables, run here by an embedded Lua 5.1 (stable-retro's).
//!
//! What a script sees, as in stable-retro: its own globals, kept from step to step and
//! reset with the episode (stable-retro reloads scripts on `reset`); `data.NAME`, the
//! value of a `data.json` variable after this step; `data[ADDRESS]`, a byte of the 2 KiB
//! of CPU RAM; values a script stores in `data` itself (custom values, also dropped on
//! reset); and `scenario.frame` (updates since the episode began) and `scenario.timestep`
//! (a quarter of it). A reward function returns a number; an end function a number
//! (non-zero: ended) or a boolean. The sandbox has Lua's base, string, table and math
//! libraries (no file loading), and a call may run at most `CALL_BUDGET` Lua instructions.
//!
//! Where stable-retro differs: a script's store into a game variable's name writes that
//! variable's RAM there; here it only shadows the name until the next step (no shipped
//! script does it), and reading a name that is neither (which stops stable-retro with a C++
//! exception) gives nil.

use crate::data::RAM_SIZE;
use mlua::{Function, HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Lua instructions one function call may run: the shipped scripts take a few dozen.
const CALL_BUDGET: u64 = 10_000_000;
/// The largest script read.
const MAX_SCRIPT: u64 = 1 << 20;

/// The scenario's scripts, loaded into one Lua state.
pub struct Scripts {
    /// (file name as the scenario lists it, source).
    sources: Vec<(String, String)>,
    lua: Lua,
    ram: Arc<Mutex<[u8; RAM_SIZE]>>,
    frame: Arc<Mutex<u64>>,
}

/// The function a scenario names (`lua:NAME` or `NAME`), or why it cannot be called.
pub fn function_name(spec: &str) -> Result<&str, String> {
    match spec.split_once(':') {
        None => Ok(spec),
        Some(("lua", name)) => Ok(name),
        Some((scope, _)) => Err(format!(
            "{spec:?}: scripts in {scope:?} are not supported (only Lua)"
        )),
    }
}

impl Scripts {
    /// Reads the scenario's `scripts` (relative to `base`, the scenario's folder). Only
    /// `.lua` files (or `lua:FILE`) are scripts stable-retro runs.
    pub fn load(names: &[String], base: &Path) -> Result<Scripts, String> {
        let mut sources = Vec::new();
        for name in names {
            let file = match name.split_once(':') {
                Some(("lua", f)) => f,
                Some((scope, _)) => {
                    return Err(format!(
                        "script {name:?}: {scope:?} scripts are not supported"
                    ));
                }
                None if name.ends_with(".lua") => name.as_str(),
                None => return Err(format!("script {name:?}: not a .lua file")),
            };
            let path: PathBuf = base.join(file);
            let text = read_capped(&path)?;
            sources.push((name.clone(), text));
        }
        Scripts::from_sources(sources)
    }

    /// Scripts from their text (for tests and synthetic scenarios).
    pub fn from_sources(sources: Vec<(String, String)>) -> Result<Scripts, String> {
        let ram = Arc::new(Mutex::new([0u8; RAM_SIZE]));
        let frame = Arc::new(Mutex::new(0));
        let lua = fresh_state(&ram, &frame).map_err(|e| format!("Lua: {e}"))?;
        for (name, text) in &sources {
            budgeted(&lua, name, || {
                lua.load(text.as_str()).set_name(name.as_str()).exec()
            })?;
        }
        Ok(Scripts {
            sources,
            lua,
            ram,
            frame,
        })
    }

    /// Fails unless the function exists once the scripts have run.
    pub fn check_function(&self, spec: &str) -> Result<(), String> {
        let name = function_name(spec)?;
        match self.lua.globals().get::<Value>(name) {
            Ok(Value::Function(_)) => Ok(()),
            _ => Err(format!(
                "the scenario calls {spec:?}, but its scripts ({}) define no function {name:?}",
                self.sources
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// A new episode: the scripts run again in a fresh state (their globals start over).
    pub fn restart(&mut self) -> Result<(), String> {
        *self = Scripts::from_sources(self.sources.clone())?;
        Ok(())
    }

    /// Shows this step's variables, RAM and frame (updates since the episode began) to
    /// the scripts.
    pub fn set_step(
        &self,
        info: &BTreeMap<String, i64>,
        ram: &[u8; RAM_SIZE],
        frame: u64,
    ) -> Result<(), String> {
        *self.ram.lock().unwrap_or_else(|e| e.into_inner()) = *ram;
        *self.frame.lock().unwrap_or_else(|e| e.into_inner()) = frame;
        let data: Table = self
            .lua
            .globals()
            .get("data")
            .map_err(|e| format!("Lua: the data table is gone: {e}"))?;
        for (k, v) in info {
            data.raw_set(k.as_str(), *v)
                .map_err(|e| format!("Lua: {e}"))?;
        }
        Ok(())
    }

    /// Values the scripts stored in `data` under names that are not game variables, as
    /// stable-retro lists them in `info` (numbers cut to integers, booleans 0 or 1).
    pub fn custom_values(&self, info: &BTreeMap<String, i64>) -> Vec<(String, i64)> {
        let Ok(data) = self.lua.globals().get::<Table>("data") else {
            return Vec::new();
        };
        data.pairs::<Value, Value>()
            .flatten()
            .filter_map(|(k, v)| {
                let Value::String(k) = k else { return None };
                let k = k.to_string_lossy();
                let v = match v {
                    Value::Number(n) => n as i64,
                    Value::Integer(n) => n,
                    Value::Boolean(b) => i64::from(b),
                    _ => return None,
                };
                (!info.contains_key(&k)).then_some((k, v))
            })
            .collect()
    }

    /// Calls a reward function: its number (a boolean counts 1 or 0; nil 0).
    pub fn reward(&self, spec: &str) -> Result<f32, String> {
        Ok(match self.call(spec)? {
            Value::Number(n) => n as f32,
            Value::Integer(n) => n as f32,
            Value::Boolean(b) => f32::from(u8::from(b)),
            Value::Nil => 0.0,
            other => {
                return Err(format!(
                    "{spec}: returned a {}, not a number",
                    other.type_name()
                ));
            }
        })
    }

    /// Calls an end function: true when it returns true or a non-zero number.
    pub fn done(&self, spec: &str) -> Result<bool, String> {
        Ok(match self.call(spec)? {
            Value::Number(n) => n != 0.0,
            Value::Integer(n) => n != 0,
            Value::Boolean(b) => b,
            Value::Nil => false,
            other => {
                return Err(format!(
                    "{spec}: returned a {}, not a number",
                    other.type_name()
                ));
            }
        })
    }

    fn call(&self, spec: &str) -> Result<Value, String> {
        let name = function_name(spec)?;
        let f: Function = self
            .lua
            .globals()
            .get(name)
            .map_err(|_| format!("{spec}: no such function"))?;
        budgeted(&self.lua, spec, || f.call::<Value>(()))
    }

    /// The globals a script keeps between steps (numbers, strings, booleans), and the
    /// custom values in `data`, by name.
    fn kept_values(&self) -> Vec<(bool, String, Value)> {
        let mut out = Vec::new();
        let g = self.lua.globals();
        let data: Option<Table> = g.get("data").ok();
        let tables = std::iter::once((false, g)).chain(data.map(|d| (true, d)));
        for (in_data, t) in tables {
            for (k, v) in t.pairs::<Value, Value>().flatten() {
                if let (
                    Value::String(k),
                    Value::Number(_) | Value::Integer(_) | Value::Boolean(_) | Value::String(_),
                ) = (&k, &v)
                {
                    out.push((in_data, k.to_string_lossy(), v));
                }
            }
        }
        out
    }
}

/// A copy carries on where this one is: the scripts are run again and the values they
/// kept (numbers, strings, booleans, in globals and `data`) copied over. Tables a script
/// keeps are not copied (no shipped script keeps one).
impl Clone for Scripts {
    fn clone(&self) -> Scripts {
        let Ok(copy) = Scripts::from_sources(self.sources.clone()) else {
            unreachable!("these sources loaded before");
        };
        *copy.ram.lock().unwrap_or_else(|e| e.into_inner()) =
            *self.ram.lock().unwrap_or_else(|e| e.into_inner());
        *copy.frame.lock().unwrap_or_else(|e| e.into_inner()) =
            *self.frame.lock().unwrap_or_else(|e| e.into_inner());
        let g = copy.lua.globals();
        for (in_data, k, v) in self.kept_values() {
            let v = match v {
                Value::String(s) => match copy.lua.create_string(s.as_bytes()) {
                    Ok(s) => Value::String(s),
                    Err(_) => continue,
                },
                v => v,
            };
            let _ = if in_data {
                g.get::<Table>("data").and_then(|d| d.raw_set(k, v))
            } else {
                g.raw_set(k, v)
            };
        }
        copy
    }
}

impl std::fmt::Debug for Scripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scripts")
            .field(
                "files",
                &self.sources.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .finish()
    }
}

fn read_capped(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    file.take(MAX_SCRIPT + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if text.len() as u64 > MAX_SCRIPT {
        return Err(format!(
            "{}: larger than {MAX_SCRIPT} bytes",
            path.display()
        ));
    }
    Ok(text)
}

/// A Lua state with the sandboxed libraries and the `data` and `scenario` tables.
fn fresh_state(ram: &Arc<Mutex<[u8; RAM_SIZE]>>, frame: &Arc<Mutex<u64>>) -> mlua::Result<Lua> {
    let lua = Lua::new_with(
        StdLib::STRING | StdLib::TABLE | StdLib::MATH,
        LuaOptions::default(),
    )?;
    // The base library's file loaders reach the file system.
    for name in ["dofile", "loadfile", "require", "module"] {
        lua.globals().raw_set(name, Value::Nil)?;
    }
    let data = lua.create_table()?;
    let meta = lua.create_table()?;
    let ram = Arc::clone(ram);
    let index = lua.create_function(move |_, (_t, key): (Table, Value)| {
        let address = match key {
            Value::Integer(a) => a,
            Value::Number(a) if a.fract() == 0.0 => a as i64,
            // An unknown name reads as nil, as a missing table field does.
            _ => return Ok(Value::Nil),
        };
        match usize::try_from(address).ok().filter(|&a| a < RAM_SIZE) {
            Some(a) => Ok(Value::Integer(
                ram.lock().unwrap_or_else(|e| e.into_inner())[a].into(),
            )),
            None => Err(mlua::Error::runtime(format!(
                "data[{address}]: outside the 2 KiB of CPU RAM"
            ))),
        }
    })?;
    meta.raw_set("__index", index)?;
    data.set_metatable(Some(meta));
    lua.globals().raw_set("data", data)?;

    let scenario = lua.create_table()?;
    let meta = lua.create_table()?;
    let frame = Arc::clone(frame);
    let index = lua.create_function(move |_, (_t, key): (Table, String)| {
        let f = *frame.lock().unwrap_or_else(|e| e.into_inner());
        match key.as_str() {
            "frame" => Ok(f as f64),
            "timestep" => Ok((f / 4) as f64),
            other => Err(mlua::Error::runtime(format!(
                "scenario.{other}: unknown (scenario has frame and timestep)"
            ))),
        }
    })?;
    meta.raw_set("__index", index)?;
    meta.raw_set("__newindex", lua.create_function(|_, ()| Ok(()))?)?;
    scenario.set_metatable(Some(meta));
    lua.globals().raw_set("scenario", scenario)?;
    Ok(lua)
}

/// Runs `f` with at most `CALL_BUDGET` Lua instructions; a runaway script is an error that
/// names it.
fn budgeted<T>(lua: &Lua, what: &str, f: impl FnOnce() -> mlua::Result<T>) -> Result<T, String> {
    let spent = Arc::new(Mutex::new(0u64));
    let count = Arc::clone(&spent);
    const EVERY: u32 = 10_000;
    lua.set_hook(
        HookTriggers::new().every_nth_instruction(EVERY),
        move |_, _| {
            let mut n = count.lock().unwrap_or_else(|e| e.into_inner());
            *n += u64::from(EVERY);
            if *n > CALL_BUDGET {
                Err(mlua::Error::runtime(format!(
                    "ran over {CALL_BUDGET} Lua instructions"
                )))
            } else {
                Ok(VmState::Continue)
            }
        },
    );
    let result = f();
    lua.remove_hook();
    result.map_err(|e| format!("{what}: {}", first_line(&e.to_string())))
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scripts(text: &str) -> Scripts {
        Scripts::from_sources(vec![("script.lua".into(), text.into())]).unwrap()
    }

    fn step(s: &Scripts, score: i64, ram0: u8) {
        let mut ram = [0u8; RAM_SIZE];
        ram[0] = ram0;
        let info = BTreeMap::from([("score".to_string(), score)]);
        s.set_step(&info, &ram, 9).unwrap();
    }

    const RUNNING_MAX: &str = "
        previous = 0
        function correct_score()
          if data.score > previous then
            local d = data.score - previous
            previous = data.score
            return d
          end
          return 0
        end
        function over() return data[0] == 7 end";

    #[test]
    fn rewards_keep_globals_between_steps_and_restart_clears_them() {
        let mut s = scripts(RUNNING_MAX);
        let mut got = Vec::new();
        for score in [0, 5, 3, 9, 9] {
            step(&s, score, 0);
            got.push(s.reward("lua:correct_score").unwrap());
        }
        assert_eq!(got, [0.0, 5.0, 0.0, 4.0, 0.0]);
        // A copy goes on from where the original is.
        let copy = s.clone();
        step(&copy, 12, 0);
        assert_eq!(copy.reward("lua:correct_score").unwrap(), 3.0);
        s.restart().unwrap();
        step(&s, 9, 0);
        assert_eq!(s.reward("lua:correct_score").unwrap(), 9.0);
        step(&s, 0, 7);
        assert!(s.done("over").unwrap());
        step(&s, 0, 6);
        assert!(!s.done("over").unwrap());
    }

    #[test]
    fn bad_scripts_are_named_and_stopped() {
        let e = Scripts::from_sources(vec![("s.lua".into(), "x = = 1".into())]).unwrap_err();
        assert!(e.contains("s.lua"), "{e}");
        let s = scripts("function spin() while true do end end function f() return data[4096] end");
        let e = s.reward("lua:spin").unwrap_err();
        assert!(e.contains("Lua instructions"), "{e}");
        let e = s.reward("lua:f").unwrap_err();
        assert!(e.contains("outside the 2 KiB"), "{e}");
        assert!(
            s.check_function("lua:nothing")
                .unwrap_err()
                .contains("no function")
        );
        assert!(function_name("python:f").is_err());
        // No file system from a scenario script.
        let s = scripts("function f() return io == nil and os == nil and dofile == nil end");
        assert!(s.done("f").unwrap());
        let s =
            scripts("function t() return scenario.timestep end function u() return scenario.x end");
        step(&s, 0, 0);
        assert_eq!(s.reward("t").unwrap(), 2.0);
        assert!(s.reward("u").unwrap_err().contains("scenario.x"));
    }
}
