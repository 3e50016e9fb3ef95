//! Just enough gzip (RFC 1952) to open savestates: the header, the deflate stream, and the
//! trailer's CRC-32 and length, so a damaged file is refused rather than half-read.

/// Why a gzip file could not be opened.
#[derive(Debug)]
pub enum GzipError {
    TooLarge,
    Bad(String),
}

const FHCRC: u8 = 2;
const FEXTRA: u8 = 4;
const FNAME: u8 = 8;
const FCOMMENT: u8 = 16;

/// Inflates a one-member gzip file of at most `limit` bytes once inflated.
pub fn inflate(file: &[u8], limit: usize) -> Result<Vec<u8>, GzipError> {
    let bad = |s: &str| GzipError::Bad(s.to_string());
    if file.len() < 18 || file[0] != 0x1F || file[1] != 0x8B {
        return Err(bad("no gzip header"));
    }
    if file[2] != 8 {
        return Err(bad("compression method is not deflate"));
    }
    let flags = file[3];
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let n = file
            .get(at..at + 2)
            .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))
            .ok_or_else(|| bad("extra field cut short"))?;
        at += 2 + n;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            let end = file
                .get(at..)
                .and_then(|rest| rest.iter().position(|&b| b == 0))
                .ok_or_else(|| bad("file name or comment not terminated"))?;
            at += end + 1;
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    if at + 8 > file.len() {
        return Err(bad("cut short before the compressed data"));
    }
    let (stream, trailer) = file[at..].split_at(file.len() - at - 8);
    let data = miniz_oxide::inflate::decompress_to_vec_with_limit(stream, limit).map_err(|e| {
        if matches!(e.status, miniz_oxide::inflate::TINFLStatus::HasMoreOutput) {
            GzipError::TooLarge
        } else {
            GzipError::Bad(format!("compressed data damaged ({:?})", e.status))
        }
    })?;
    let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
    let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
    if crc32fast::hash(&data) != crc || data.len() as u32 != size {
        return Err(bad(
            "CRC-32 or length in the trailer does not match the data",
        ));
    }
    Ok(data)
}

/// Wraps `data` in gzip (for tests and for writing states back).
pub fn deflate(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF];
    out.extend(miniz_oxide::deflate::compress_to_vec(data, 6));
    out.extend(crc32fast::hash(data).to_le_bytes());
    out.extend((data.len() as u32).to_le_bytes());
    out
}
