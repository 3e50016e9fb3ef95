//! The functions both dialects build on, in Rust: machine memory, pads, states, requests.
//! `prelude.lua` arranges them into FCEUX's and BizHawk's tables.

use crate::pads;
use crate::shared::{Dialect, with_frame, with_shared};
use mlua::{AnyUserData, FromLuaMulti, IntoLuaMulti, Lua, Result, Table, UserData, Value};
use nesmind_host::{Fork, Frame, Request};

/// A savestate kept in memory: a fork of the machine (FCEUX's `savestate.object`).
pub struct State {
    /// The numbered slot (0-9) it also writes to, if made for one.
    pub slot: Option<usize>,
    pub fork: Option<Fork>,
}
impl UserData for State {}

fn add<A, R>(
    t: &Table,
    lua: &Lua,
    name: &str,
    f: impl Fn(&Lua, A) -> Result<R> + Send + 'static,
) -> Result<()>
where
    A: FromLuaMulti,
    R: IntoLuaMulti,
{
    t.set(name, lua.create_function(f)?)
}

/// Lua numbers as CPU or PPU addresses: wrapped like the 16-bit bus does.
pub fn addr(a: f64) -> u16 {
    a as i64 as u16
}

fn fork(frame: &dyn Frame) -> Result<Fork> {
    frame
        .fork()
        .ok_or_else(|| mlua::Error::runtime("this host cannot save states"))
}

pub fn restore(lua: &Lua, state: &Fork) -> Result<()> {
    with_frame(lua, |f| f.restore(state))?.map_err(mlua::Error::runtime)
}

/// The pad number a script gives (1-4) as an index.
fn pad(n: Option<f64>) -> Result<usize> {
    match n {
        None => Ok(0),
        Some(n) if (1.0..=4.0).contains(&n) => Ok(n as usize - 1),
        Some(n) => Err(mlua::Error::runtime(format!(
            "pad {n} does not exist (1-4)"
        ))),
    }
}

/// The primitives, in the table `nesmind` (also usable by scripts directly).
pub fn install(lua: &Lua) -> Result<Table> {
    let n = lua.create_table()?;
    add(&n, lua, "peek", |lua, a: f64| {
        with_frame(lua, |f| f.peek(addr(a)))
    })?;
    add(&n, lua, "poke", |lua, (a, v): (f64, f64)| {
        with_frame(lua, |f| f.poke(addr(a), v as i64 as u8))
    })?;
    add(&n, lua, "peek_ppu", |lua, a: f64| {
        with_frame(lua, |f| f.peek_ppu(addr(a)))
    })?;
    add(&n, lua, "oam", |lua, a: f64| {
        with_frame(lua, |f| {
            f.oam().get(a as usize & 0xFF).copied().unwrap_or(0)
        })
    })?;
    add(&n, lua, "rom", |lua, a: f64| {
        with_shared(lua, |s| s.rom.get(a as usize).copied())
    })?;
    add(&n, lua, "rom_size", |lua, ()| {
        with_shared(lua, |s| s.rom.len())
    })?;
    add(&n, lua, "rom_name", |lua, ()| {
        with_shared(lua, |s| s.rom_name.clone())
    })?;
    // Bytes as a Lua string (FCEUX) or a table (BizHawk), read in one call.
    add(
        &n,
        lua,
        "range",
        |lua, (a, len, as_table): (f64, f64, bool)| {
            let len = len.clamp(0.0, 65536.0) as usize;
            let start = a as i64;
            let bytes = with_frame(lua, |f| {
                (0..len)
                    .map(|i| f.peek((start + i as i64) as u16))
                    .collect::<Vec<u8>>()
            })?;
            if as_table {
                // BizHawk's tables count from 0.
                let t = lua.create_table_with_capacity(0, len)?;
                for (i, b) in bytes.iter().enumerate() {
                    t.set(i, *b)?;
                }
                Ok(Value::Table(t))
            } else {
                Ok(Value::String(lua.create_string(&bytes)?))
            }
        },
    )?;
    // Through Rust's stdout, so the script's lines and nesmind's come out in order.
    add(&n, lua, "write", |_, line: mlua::String| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&line.as_bytes());
        let _ = out.write_all(b"\n");
        Ok(())
    })?;
    add(&n, lua, "frame", |lua, ()| {
        with_frame(lua, |f| f.frame_number())
    })?;
    add(&n, lua, "pixel", |lua, (x, y): (f64, f64)| {
        with_frame(lua, |f| {
            let (x, y) = (x as i64, y as i64);
            if !(0..256).contains(&x) || !(0..240).contains(&y) {
                return None;
            }
            f.picture().get((y * 256 + x) as usize).map(|p| p & 0x3F)
        })
    })?;
    // A pad-table key (`A`, `up`, `P2 Start`): its pad (1-4) if it names one, its bit.
    add(&n, lua, "key", |_, key: mlua::String| {
        Ok(match pads::button(&key.to_str()?) {
            Some((pad, b)) => (pad.map(|p| p + 1), Some(b.0)),
            None => (None, None),
        })
    })?;
    add(&n, lua, "press", |lua, (p, bit, on): (f64, u8, bool)| {
        let p = pad(Some(p))?;
        with_shared(lua, |s| {
            if on {
                s.pads[p].0 |= bit;
            } else {
                s.pads[p].0 &= !bit;
            }
        })
    })?;
    add(&n, lua, "get_pad", |lua, p: Option<f64>| {
        let bizhawk = with_shared(lua, |s| s.dialect == Dialect::BizHawk)?;
        match p {
            Some(p) => {
                let p = pad(Some(p))?;
                let b = with_frame(lua, |f| f.buttons(p))?;
                pads::table(lua, b, bizhawk, None)
            }
            // All pads, keys prefixed `P1 ` ... as BizHawk gives them.
            None => {
                let count = with_shared(lua, |s| s.pad_count)?;
                let all = lua.create_table()?;
                for p in 0..count {
                    let b = with_frame(lua, |f| f.buttons(p))?;
                    for pair in pads::table(lua, b, true, Some(p))?.pairs::<Value, Value>() {
                        let (k, v) = pair?;
                        all.set(k, v)?;
                    }
                }
                Ok(all)
            }
        }
    })?;
    add(
        &n,
        lua,
        "request",
        |lua, (what, code): (String, Option<i32>)| {
            let request = match what.as_str() {
                "reset" => Request::Reset,
                "power" => Request::Power,
                _ => Request::Quit {
                    code: code.unwrap_or(0),
                    message: what,
                },
            };
            with_frame(lua, |f| f.request(request))
        },
    )?;
    add(&n, lua, "status", |lua, text: String| {
        with_shared(lua, |s| {
            if !s.status.is_empty() {
                s.status.push_str("  ");
            }
            s.status.push_str(&text);
        })
    })?;
    // The CPU's registers, read from a copy of the machine (a microsecond or two): the
    // plug-in view has no register accessor, and scripts ask rarely.
    add(&n, lua, "register", |lua, name: String| {
        let fork = with_frame(lua, |f| fork(f))??;
        let cpu = fork.machine().cpu();
        let value = match name.to_ascii_lowercase().as_str() {
            "a" => u64::from(cpu.a),
            "x" => u64::from(cpu.x),
            "y" => u64::from(cpu.y),
            "s" | "sp" => u64::from(cpu.s),
            "p" => u64::from(cpu.p),
            "pc" => u64::from(cpu.pc),
            "cycles" => fork.cpu_cycles(),
            _ => {
                return Err(mlua::Error::runtime(format!(
                    "no register '{name}' (a, x, y, s, p, pc)"
                )));
            }
        };
        Ok(value)
    })?;
    add(&n, lua, "hash", |lua, kind: Option<String>| {
        let kind = kind.unwrap_or_else(|| "sha1".into()).to_ascii_lowercase();
        with_shared(lua, |s| match kind.as_str() {
            "sha1" => Ok(s.rom_sha1.clone()),
            "crc32" => Ok(format!("{:08x}", s.rom_crc32)),
            _ => Err(mlua::Error::runtime(format!(
                "rom.gethash('{kind}'): nesmind knows sha1 and crc32"
            ))),
        })?
    })?;
    // (lag frames so far, whether the last frame lagged); nil when not watched.
    add(&n, lua, "lag", |lua, ()| {
        with_shared(lua, |s| (s.lag.map(|l| l.0), s.lag.map(|l| l.1)))
    })?;
    add(&n, lua, "set_lag", |lua, lagged: bool| {
        with_shared(lua, |s| {
            if let Some(lag) = s.lag.as_mut() {
                lag.1 = lagged;
            }
        })
    })?;
    install_states(lua, &n)?;
    Ok(n)
}

/// Slots 1-10, with 0 for the tenth as on a keyboard's number row (both emulators).
fn slot_index(n: f64) -> usize {
    (n as i64).rem_euclid(10).wrapping_sub(1).rem_euclid(10) as usize
}

fn install_states(lua: &Lua, n: &Table) -> Result<()> {
    add(n, lua, "state", |_, slot: Option<f64>| {
        let slot = slot.filter(|s| (0.0..=10.0).contains(s)).map(slot_index);
        Ok(State { slot, fork: None })
    })?;
    add(n, lua, "save", |lua, ud: AnyUserData| {
        let fork = with_frame(lua, |f| fork(f))??;
        let mut state = ud.borrow_mut::<State>()?;
        if let Some(slot) = state.slot {
            let copy = fork.clone();
            with_shared(lua, |s| s.slots[slot] = Some(copy))?;
        }
        state.fork = Some(fork);
        Ok(())
    })?;
    add(n, lua, "load", |lua, ud: AnyUserData| {
        let state = ud.borrow::<State>()?;
        let fork = match (&state.fork, state.slot) {
            (Some(f), _) => f.clone(),
            (None, Some(slot)) => with_shared(lua, |s| s.slots[slot].clone())?
                .ok_or_else(|| mlua::Error::runtime(format!("slot {} is empty", slot + 1)))?,
            (None, None) => return Err(mlua::Error::runtime("this state was never saved")),
        };
        restore(lua, &fork)
    })?;
    add(n, lua, "save_slot", |lua, slot: f64| {
        let slot = slot_index(slot);
        let fork = with_frame(lua, |f| fork(f))??;
        with_shared(lua, |s| s.slots[slot] = Some(fork))
    })?;
    add(n, lua, "load_slot", |lua, slot: f64| {
        let slot = slot_index(slot);
        let fork = with_shared(lua, |s| s.slots[slot].clone())?
            .ok_or_else(|| mlua::Error::runtime(format!("slot {slot} is empty")))?;
        restore(lua, &fork)
    })?;
    // BizHawk's memorysavestate: states named by a returned id.
    add(n, lua, "save_named", |lua, ()| {
        let fork = with_frame(lua, |f| fork(f))??;
        with_shared(lua, |s| {
            s.next_state += 1;
            let id = format!("nesmind-state-{}", s.next_state);
            s.states.insert(id.clone(), fork);
            id
        })
    })?;
    add(n, lua, "load_named", |lua, id: String| {
        let fork = with_shared(lua, |s| s.states.get(&id).cloned())?
            .ok_or_else(|| mlua::Error::runtime(format!("no state '{id}' in memory")))?;
        restore(lua, &fork)
    })?;
    add(n, lua, "drop_named", |lua, id: Option<String>| {
        with_shared(lua, |s| match id {
            Some(id) => {
                s.states.remove(&id);
            }
            None => s.states.clear(),
        })
    })?;
    Ok(())
}
