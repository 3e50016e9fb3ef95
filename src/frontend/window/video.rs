//! Drawing: the picture widened to the chosen aspect on the CPU (see
//! [`crate::frontend::layout`]), scaled by an integer vertically by SDL (nearest), and the
//! status strip below it. Read-backs of the picture happen before the overlay is drawn.

use crate::frontend::drawing;
use crate::frontend::layout::{Aspect, Layout, PIC_H, PIC_W, Resampler};
use crate::frontend::overlay::{self, Line};
use crate::frontend::palette::build_palette;
use crate::host::Shape;
use sdl2::pixels::PixelFormatEnum;
use sdl2::rect::Rect;
use sdl2::render::{BlendMode, Texture, TextureCreator, WindowCanvas};
use sdl2::video::WindowContext;

/// What to read back while drawing a frame.
#[derive(Default, Clone, Copy)]
pub struct Wanted {
    /// The picture, sampled back to 256x240 (for `--screenshot`).
    pub picture: bool,
    /// The whole window as shown, overlay included.
    pub window: bool,
}

#[derive(Default)]
pub struct Captured {
    /// 256x240 0xRRGGBB pixels; `None` when the layout cannot give the picture back
    /// exactly (8:7 at scale 1, or a window smaller than the picture).
    pub picture: Option<Vec<u32>>,
    pub window: Option<(usize, usize, Vec<u32>)>,
}

pub struct Video<'t> {
    creator: &'t TextureCreator<WindowContext>,
    aspect: Aspect,
    palette: Vec<u32>,
    picture: Option<(Texture<'t>, Resampler)>,
    overlay: Option<(Texture<'t>, usize, usize)>,
    /// What the overlay texture currently shows (redrawn only when this changes).
    overlay_lines: (Vec<Line>, usize),
    row: Vec<u32>,
    wide: Vec<u32>,
}

impl<'t> Video<'t> {
    pub fn new(creator: &'t TextureCreator<WindowContext>, aspect: Aspect) -> Video<'t> {
        Video {
            creator,
            aspect,
            palette: build_palette(),
            picture: None,
            overlay: None,
            overlay_lines: (Vec::new(), 0),
            row: vec![0; PIC_W],
            wide: Vec::new(),
        }
    }

    /// Draws `picture` (palette indices) with a plug-in's `shapes` over it and the overlay
    /// `lines`, and presents the frame.
    pub fn draw(
        &mut self,
        canvas: &mut WindowCanvas,
        picture: &[u16],
        shapes: &[Shape],
        lines: &[Line],
        wanted: Wanted,
    ) -> Result<Captured, String> {
        let (ow, oh) = canvas.output_size()?;
        let layout = Layout::fit(ow, oh, self.aspect);
        self.upload_picture(layout.width as usize, picture, shapes)?;
        canvas.set_draw_color(sdl2::pixels::Color::BLACK);
        canvas.clear();
        let dst = Rect::new(layout.x, layout.y, layout.width, layout.height);
        if let Some((texture, _)) = &self.picture {
            canvas.copy(texture, None, dst)?;
        }
        let mut captured = Captured::default();
        if wanted.picture {
            captured.picture = read_picture(canvas, &layout)?;
        }
        self.draw_overlay(canvas, &layout, lines)?;
        if wanted.window {
            let pixels = read_rgb(canvas)?;
            captured.window = Some((ow as usize, oh as usize, pixels));
        }
        canvas.present();
        Ok(captured)
    }

    fn upload_picture(
        &mut self,
        width: usize,
        picture: &[u16],
        shapes: &[Shape],
    ) -> Result<(), String> {
        if self
            .picture
            .as_ref()
            .is_none_or(|(_, r)| r.width() != width)
        {
            let texture = self
                .creator
                .create_texture_streaming(PixelFormatEnum::RGB888, width as u32, PIC_H as u32)
                .map_err(|e| e.to_string())?;
            self.picture = Some((texture, Resampler::new(width)));
            self.wide = vec![0; width];
        }
        let Some((texture, resampler)) = &mut self.picture else {
            return Ok(());
        };
        let (palette, row, wide) = (&self.palette, &mut self.row, &mut self.wide);
        // Only a frame with shapes is composed whole; the rest convert row by row.
        let drawn = (!shapes.is_empty()).then(|| drawing::compose(picture, palette, shapes));
        texture.with_lock(None, |bytes, pitch| {
            for (y, indices) in picture.chunks_exact(PIC_W).take(PIC_H).enumerate() {
                match &drawn {
                    Some(rgb) => row.copy_from_slice(&rgb[y * PIC_W..(y + 1) * PIC_W]),
                    None => {
                        for (px, &c) in row.iter_mut().zip(indices) {
                            *px = palette[usize::from(c & 0x1FF)];
                        }
                    }
                }
                resampler.row(row, wide);
                let line = &mut bytes[y * pitch..y * pitch + wide.len() * 4];
                for (out, px) in line.chunks_exact_mut(4).zip(wide.iter()) {
                    out.copy_from_slice(&px.to_le_bytes());
                }
            }
        })
    }

    fn draw_overlay(
        &mut self,
        canvas: &mut WindowCanvas,
        layout: &Layout,
        lines: &[Line],
    ) -> Result<(), String> {
        let width = layout.width as usize / layout.scale as usize;
        if self.overlay_lines.0 != lines || self.overlay_lines.1 != width {
            self.overlay_lines = (lines.to_vec(), width);
            self.overlay = match overlay::render(lines, width) {
                None => None,
                Some(strip) => Some(self.strip_texture(&strip)?),
            };
        }
        if let Some((texture, w, h)) = &self.overlay {
            let s = layout.scale;
            let dst = Rect::new(layout.x, layout.strip_top(*h), *w as u32 * s, *h as u32 * s);
            canvas.copy(texture, None, dst)?;
        }
        Ok(())
    }

    fn strip_texture(
        &mut self,
        strip: &overlay::Strip,
    ) -> Result<(Texture<'t>, usize, usize), String> {
        // Reuse the texture when the size is unchanged (the status text changes often).
        let reuse = self
            .overlay
            .take()
            .filter(|(_, w, h)| (*w, *h) == (strip.width, strip.height));
        let mut texture = match reuse {
            Some((t, _, _)) => t,
            None => {
                let mut t = self
                    .creator
                    .create_texture_streaming(
                        PixelFormatEnum::ARGB8888,
                        strip.width as u32,
                        strip.height as u32,
                    )
                    .map_err(|e| e.to_string())?;
                t.set_blend_mode(BlendMode::Blend);
                t
            }
        };
        let bytes: Vec<u8> = strip.pixels.iter().flat_map(|p| p.to_le_bytes()).collect();
        texture
            .update(None, &bytes, strip.width * 4)
            .map_err(|e| e.to_string())?;
        Ok((texture, strip.width, strip.height))
    }
}

/// The renderer's pixels as 0xRRGGBB, row by row.
fn read_rgb(canvas: &WindowCanvas) -> Result<Vec<u32>, String> {
    let bytes = canvas.read_pixels(None, PixelFormatEnum::RGB888)?;
    Ok(bytes
        .chunks_exact(4)
        .map(|p| u32::from_le_bytes([p[0], p[1], p[2], 0]))
        .collect())
}

/// The picture as drawn, one sample per NES pixel: the middle row of its scaled rows,
/// and the output column wholly inside it.
fn read_picture(canvas: &WindowCanvas, layout: &Layout) -> Result<Option<Vec<u32>>, String> {
    let (ow, oh) = canvas.output_size()?;
    let inside = layout.x >= 0
        && layout.y >= 0
        && layout.x as u32 + layout.width <= ow
        && layout.y as u32 + layout.height <= oh;
    if !inside || !layout.exact_read_back() {
        return Ok(None);
    }
    let all = read_rgb(canvas)?;
    let (x0, y0, s) = (layout.x as usize, layout.y as usize, layout.scale as usize);
    let columns: Vec<usize> = (0..PIC_W).map(|x| x0 + layout.column_of(x)).collect();
    let mut out = Vec::with_capacity(PIC_W * PIC_H);
    for y in 0..PIC_H {
        let row = (y0 + y * s + s / 2) * ow as usize;
        out.extend(columns.iter().map(|&c| all[row + c]));
    }
    Ok(Some(out))
}
