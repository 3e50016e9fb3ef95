//! `gui.*` drawing: shapes handed to the host (`Frame::draw`), which paints them over the
//! picture in the window and in screenshots, for one frame. Colours as scripts give them.

use crate::shared::{Dialect, with_frame, with_shared};
use mlua::{Lua, Result, Table, Value};
use nesmind_host::Shape;

const WHITE: u32 = 0xFFFF_FFFF;

/// Colour names both emulators accept.
const NAMES: &[(&str, u32)] = &[
    ("white", 0xFFFFFF),
    ("black", 0x000000),
    ("red", 0xFF0000),
    ("green", 0x00FF00),
    ("blue", 0x0000FF),
    ("yellow", 0xFFFF00),
    ("orange", 0xFF8000),
    ("purple", 0x800080),
    ("gray", 0x808080),
    ("grey", 0x808080),
    ("cyan", 0x00FFFF),
    ("magenta", 0xFF00FF),
    ("pink", 0xFFC0CB),
];

/// A script's colour as 0xAARRGGBB. Numbers and 8-digit `#` strings are 0xRRGGBBAA in
/// FCEUX and 0xAARRGGBB in BizHawk; 6 digits are opaque; `{r=, g=, b=, a=}` tables and
/// names (`"clear"` is transparent) are the same in both.
pub fn color(value: &Value, dialect: Dialect, default: u32) -> Result<u32> {
    let from_bits = |bits: u32, digits: usize| match (digits, dialect) {
        (..=6, _) => 0xFF00_0000 | bits,
        (_, Dialect::Fceux) => bits.rotate_right(8),
        (_, Dialect::BizHawk) => bits,
    };
    let bad = || mlua::Error::runtime(format!("'{value:?}' is not a colour"));
    Ok(match value {
        Value::Nil => default,
        Value::Integer(i) => from_bits(*i as u32, 8),
        Value::Number(n) => from_bits(*n as i64 as u32, 8),
        Value::String(s) => {
            let s = s.to_str()?.trim().to_ascii_lowercase();
            if s == "clear" {
                0
            } else if let Some(hex) = s.strip_prefix('#') {
                let bits = u32::from_str_radix(hex, 16).map_err(|_| bad())?;
                match hex.len() {
                    6 | 8 => from_bits(bits, hex.len()),
                    _ => return Err(bad()),
                }
            } else {
                let (_, rgb) = NAMES.iter().find(|(n, _)| *n == s).ok_or_else(bad)?;
                0xFF00_0000 | rgb
            }
        }
        Value::Table(t) => {
            let part = |k: &str, d: u32| -> Result<u32> {
                Ok(t.get::<Option<f64>>(k)?
                    .map_or(d, |v| v.clamp(0.0, 255.0) as u32))
            };
            part("a", 255)? << 24 | part("r", 0)? << 16 | part("g", 0)? << 8 | part("b", 0)?
        }
        _ => return Err(bad()),
    })
}

fn draw(lua: &Lua, shape: Shape) -> Result<()> {
    with_frame(lua, |f| f.draw(shape))
}

fn dialect(lua: &Lua) -> Result<Dialect> {
    with_shared(lua, |s| s.dialect)
}

fn xy(x: f64, y: f64) -> (i32, i32) {
    (x as i32, y as i32)
}

/// The drawing primitives, in the table `nesmind` beside the others.
pub fn install(lua: &Lua, n: &Table) -> Result<()> {
    n.set(
        "parse_color",
        lua.create_function(|lua, c: Value| {
            let argb = color(&c, dialect(lua)?, WHITE)?;
            let part = |shift: u32| (argb >> shift) & 0xFF;
            Ok((part(16), part(8), part(0), part(24)))
        })?,
    )?;
    n.set(
        "draw_pixel",
        lua.create_function(|lua, (x, y, c): (f64, f64, Value)| {
            let color = color(&c, dialect(lua)?, WHITE)?;
            let (x, y) = xy(x, y);
            draw(lua, Shape::Pixel { x, y, color })
        })?,
    )?;
    n.set(
        "draw_line",
        lua.create_function(|lua, (x0, y0, x1, y1, c): (f64, f64, f64, f64, Value)| {
            let color = color(&c, dialect(lua)?, WHITE)?;
            draw(
                lua,
                Shape::Line {
                    from: xy(x0, y0),
                    to: xy(x1, y1),
                    color,
                },
            )
        })?,
    )?;
    // FCEUX fills boxes with a faint white by default; BizHawk leaves them empty.
    n.set(
        "draw_box",
        lua.create_function(
            |lua, (x0, y0, x1, y1, fill, outline): (f64, f64, f64, f64, Value, Value)| {
                let d = dialect(lua)?;
                let faint = if d == Dialect::Fceux { 0x3FFF_FFFF } else { 0 };
                let fill = color(&fill, d, faint)?;
                let outline = color(&outline, d, WHITE)?;
                let (from, to) = (xy(x0, y0), xy(x1, y1));
                draw(
                    lua,
                    Shape::Box {
                        from,
                        to,
                        fill,
                        outline,
                    },
                )
            },
        )?,
    )?;
    n.set(
        "draw_text",
        lua.create_function(
            |lua, (x, y, text, fg, bg): (f64, f64, mlua::String, Value, Value)| {
                let d = dialect(lua)?;
                let back = if d == Dialect::Fceux { 0xFF00_0000 } else { 0 };
                let (x, y) = xy(x, y);
                let shape = Shape::Text {
                    x,
                    y,
                    text: text.to_string_lossy(),
                    color: color(&fg, d, WHITE)?,
                    background: color(&bg, d, back)?,
                };
                draw(lua, shape)
            },
        )?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_in_both_dialects() {
        let lua = Lua::new();
        let v = |code: &str| lua.load(code).eval::<Value>().unwrap();
        let c = |code: &str, d| color(&v(code), d, 7).unwrap();
        assert_eq!(c("'red'", Dialect::Fceux), 0xFFFF0000);
        assert_eq!(c("'#00FF00'", Dialect::BizHawk), 0xFF00FF00);
        assert_eq!(c("'#11223344'", Dialect::Fceux), 0x44112233);
        assert_eq!(c("0x11223344", Dialect::BizHawk), 0x11223344);
        assert_eq!(c("'clear'", Dialect::Fceux), 0);
        assert_eq!(c("nil", Dialect::Fceux), 7);
        assert_eq!(c("{r=1, g=2, b=3}", Dialect::Fceux), 0xFF010203);
        assert!(color(&v("'mauve'"), Dialect::Fceux, 0).is_err());
    }
}
