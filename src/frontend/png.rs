//! A small PNG writer and reader for screenshots (8-bit RGB, unfiltered rows, deflate
//! through miniz_oxide); no image crate needed.

fn crc32(parts: &[&[u8]]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc32(&[kind, data]).to_be_bytes());
}

/// Encodes 0xRRGGBB pixels as an RGB PNG.
pub fn encode_rgb(width: usize, height: usize, pixels: &[u32]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(height * (width * 3 + 1));
    for row in pixels.chunks(width).take(height) {
        raw.push(0); // filter: none
        for &p in row {
            raw.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
        }
    }
    // Level 6: NES pictures shrink about 20x; higher levels gain little and cost time.
    let z = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(width as u32).to_be_bytes());
    ihdr.extend_from_slice(&(height as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// Reads back a PNG this module wrote (8-bit RGB, unfiltered rows):
/// (width, height, 0xRRGGBB pixels). Other PNGs are refused with the reason.
pub fn decode_rgb(data: &[u8]) -> Result<(usize, usize, Vec<u32>), String> {
    let body = data
        .strip_prefix(b"\x89PNG\r\n\x1a\n".as_slice())
        .ok_or("not a PNG file")?;
    let (mut at, mut size, mut z) = (0, None, Vec::new());
    while at + 12 <= body.len() {
        let len = u32::from_be_bytes(body[at..at + 4].try_into().unwrap_or_default()) as usize;
        let kind = &body[at + 4..at + 8];
        let chunk = body
            .get(at + 8..at + 8 + len)
            .ok_or("truncated PNG chunk")?;
        match kind {
            b"IHDR" if len == 13 && chunk[8..] == [8, 2, 0, 0, 0] => {
                let w = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                let h = u32::from_be_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
                size = Some((w as usize, h as usize));
            }
            b"IHDR" => return Err("only 8-bit RGB PNGs are supported".into()),
            b"IDAT" => z.extend_from_slice(chunk),
            _ => {}
        }
        at += 12 + len;
    }
    let (w, h) = size.ok_or("PNG without a header")?;
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&z)
        .map_err(|e| format!("bad PNG data: {e:?}"))?;
    if raw.len() != h * (w * 3 + 1) {
        return Err(format!(
            "PNG data holds {} bytes, {w}x{h} needs {}",
            raw.len(),
            h * (w * 3 + 1)
        ));
    }
    let mut pixels = Vec::with_capacity(w * h);
    for row in raw.chunks_exact(w * 3 + 1) {
        if row[0] != 0 {
            return Err("filtered PNG rows are not supported".into());
        }
        pixels.extend(
            row[1..]
                .chunks_exact(3)
                .map(|p| u32::from_be_bytes([0, p[0], p[1], p[2]])),
        );
    }
    Ok((w, h, pixels))
}

/// Converts a 256x240 picture of palette indices and writes it atomically as PNG.
pub fn save_picture(path: &std::path::Path, picture: &[u16]) -> Result<(), String> {
    save_drawn(path, picture, &[])
}

/// As `save_picture`, with a plug-in's shapes painted over the picture.
pub fn save_drawn(
    path: &std::path::Path,
    picture: &[u16],
    shapes: &[crate::host::Shape],
) -> Result<(), String> {
    let palette = super::palette::build_palette();
    let rgb = super::drawing::compose(picture, &palette, shapes);
    crate::host::files::write_atomic(path, &encode_rgb(256, 240, &rgb))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_refusals() {
        let (w, h) = (300, 80);
        let pixels: Vec<u32> = (0..w * h)
            .map(|i| (i as u32).wrapping_mul(2_654_435_761) >> 8)
            .collect();
        let png = encode_rgb(w, h, &pixels);
        assert_eq!(decode_rgb(&png), Ok((w, h, pixels)));
        assert_eq!(decode_rgb(b"GIF89a"), Err("not a PNG file".into()));
        assert!(
            decode_rgb(&png[..png.len() / 2])
                .unwrap_err()
                .contains("truncated")
        );
    }
}
