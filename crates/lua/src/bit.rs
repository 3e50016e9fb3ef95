//! The `bit` library of LuaBitOp, which FCEUX and BizHawk scripts use and which plain Lua
//! 5.1 lacks. Numbers are doubles; every result is a signed 32-bit value, as in LuaBitOp.

use mlua::{Lua, Result, Table, Variadic};

/// A number reduced to 32 bits as LuaBitOp does: rounded to an integer, modulo 2^32.
pub fn tobit(x: f64) -> i32 {
    if !x.is_finite() {
        return 0;
    }
    x.round_ties_even().rem_euclid(4_294_967_296.0) as u32 as i32
}

fn fold(args: &Variadic<f64>, start: i32, op: fn(i32, i32) -> i32) -> i32 {
    args.iter().fold(start, |acc, &x| op(acc, tobit(x)))
}

/// `bit.tohex(x [, n])`: `n` hex digits (8 by default), upper case when `n` is negative.
fn tohex(x: f64, n: Option<f64>) -> String {
    let n = n.map_or(8, |n| n as i64);
    let digits = n.unsigned_abs().clamp(1, 8) as usize;
    let v = tobit(x) as u32 as u64 & ((1u64 << (4 * digits)) - 1);
    if n < 0 {
        format!("{v:0digits$X}")
    } else {
        format!("{v:0digits$x}")
    }
}

pub fn install(lua: &Lua) -> Result<()> {
    let bit: Table = lua.create_table()?;
    bit.set("tobit", lua.create_function(|_, x: f64| Ok(tobit(x)))?)?;
    bit.set("bnot", lua.create_function(|_, x: f64| Ok(!tobit(x)))?)?;
    bit.set(
        "band",
        lua.create_function(|_, a: Variadic<f64>| Ok(fold(&a, -1, |x, y| x & y)))?,
    )?;
    bit.set(
        "bor",
        lua.create_function(|_, a: Variadic<f64>| Ok(fold(&a, 0, |x, y| x | y)))?,
    )?;
    bit.set(
        "bxor",
        lua.create_function(|_, a: Variadic<f64>| Ok(fold(&a, 0, |x, y| x ^ y)))?,
    )?;
    // Shift counts use their low five bits, as on x86 and in LuaBitOp.
    let shift = |f: fn(i32, u32) -> i32| {
        move |_: &Lua, (x, n): (f64, f64)| Ok(f(tobit(x), tobit(n) as u32 & 31))
    };
    bit.set("lshift", lua.create_function(shift(|x, n| x << n))?)?;
    bit.set(
        "rshift",
        lua.create_function(shift(|x, n| ((x as u32) >> n) as i32))?,
    )?;
    bit.set("arshift", lua.create_function(shift(|x, n| x >> n))?)?;
    bit.set(
        "rol",
        lua.create_function(shift(|x, n| (x as u32).rotate_left(n) as i32))?,
    )?;
    bit.set(
        "ror",
        lua.create_function(shift(|x, n| (x as u32).rotate_right(n) as i32))?,
    )?;
    bit.set(
        "bswap",
        lua.create_function(|_, x: f64| Ok(tobit(x).swap_bytes()))?,
    )?;
    bit.set(
        "tohex",
        lua.create_function(|_, (x, n): (f64, Option<f64>)| Ok(tohex(x, n)))?,
    )?;
    lua.globals().set("bit", bit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_luabitop() {
        let lua = Lua::new();
        install(&lua).unwrap();
        let check = |expr: &str, want: f64| {
            let got: f64 = lua.load(format!("return {expr}")).eval().unwrap();
            assert_eq!(got, want, "{expr}");
        };
        check("bit.tobit(0xffffffff)", -1.0);
        check("bit.tobit(0xffffffff + 1)", 0.0);
        check("bit.band(0x12345678, 0xff)", 0x78 as f64);
        check("bit.bor(1, 2, 4)", 7.0);
        check("bit.bxor(0xff, 0x0f)", 0xf0 as f64);
        check("bit.bnot(0)", -1.0);
        check("bit.lshift(1, 31)", i32::MIN as f64);
        check("bit.lshift(1, 33)", 2.0);
        check("bit.rshift(-1, 28)", 15.0);
        check("bit.arshift(-256, 4)", -16.0);
        check("bit.rol(0x80000001, 1)", 3.0);
        check("bit.bswap(0x12345678)", 0x78563412 as f64);
        let hex: String = lua.load("return bit.tohex(-1, -4)").eval().unwrap();
        assert_eq!(hex, "FFFF");
        let hex: String = lua.load("return bit.tohex(255)").eval().unwrap();
        assert_eq!(hex, "000000ff");
    }
}
