//! Shapes a plug-in draws over the picture for one frame (Lua's `gui.box`, `gui.text`
//! ...). The host keeps them; the frontend paints them on the window and into
//! screenshots. Coordinates are the picture's (0-255, 0-239); colours are 0xAARRGGBB,
//! alpha 0 transparent, 255 opaque.

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Pixel {
        x: i32,
        y: i32,
        color: u32,
    },
    Line {
        from: (i32, i32),
        to: (i32, i32),
        color: u32,
    },
    /// Corners included; `fill` inside, `outline` on the edge.
    Box {
        from: (i32, i32),
        to: (i32, i32),
        fill: u32,
        outline: u32,
    },
    /// Text from its top-left corner, on `background`.
    Text {
        x: i32,
        y: i32,
        text: String,
        color: u32,
        background: u32,
    },
}

/// Shapes kept per frame: a plug-in that draws a lot each frame (a runaway loop of
/// `gui.pixel`) stops adding here rather than growing without bound.
pub const MAX_SHAPES: usize = 65_536;
