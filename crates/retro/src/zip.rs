//! Just enough zip to open a `.bk2` movie: the central directory's entries, each stored or
//! deflated. Sizes are taken from the central directory (local headers may leave them to
//! a trailing descriptor), and every length is checked against the file.

/// A file inside the archive: its name and where its data lies.
struct Entry {
    name: String,
    method: u16,
    compressed: usize,
    size: usize,
    local_header: usize,
}

const END_OF_DIRECTORY: u32 = 0x0605_4B50;
const DIRECTORY_ENTRY: u32 = 0x0201_4B50;
const LOCAL_HEADER: u32 = 0x0403_4B50;

fn u16_at(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| format!("cut short at byte {at}"))
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| format!("cut short at byte {at}"))
}

fn entries(zip: &[u8]) -> Result<Vec<Entry>, String> {
    // The end record is the last 22 bytes plus a comment of up to 64 KiB.
    let lowest = zip.len().saturating_sub(22 + 0xFFFF);
    let end = (lowest..zip.len().saturating_sub(21))
        .rev()
        .find(|&at| u32_at(zip, at) == Ok(END_OF_DIRECTORY))
        .ok_or("not a zip file (no end of central directory)")?;
    let count = usize::from(u16_at(zip, end + 10)?);
    let mut at = u32_at(zip, end + 16)? as usize;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(zip, at)? != DIRECTORY_ENTRY {
            return Err(format!("a damaged central directory at byte {at}"));
        }
        let name_len = usize::from(u16_at(zip, at + 28)?);
        let skip = usize::from(u16_at(zip, at + 30)?) + usize::from(u16_at(zip, at + 32)?);
        let name = zip
            .get(at + 46..at + 46 + name_len)
            .ok_or_else(|| format!("cut short at byte {at}"))?;
        out.push(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            method: u16_at(zip, at + 10)?,
            compressed: u32_at(zip, at + 20)? as usize,
            size: u32_at(zip, at + 24)? as usize,
            local_header: u32_at(zip, at + 42)? as usize,
        });
        at += 46 + name_len + skip;
    }
    Ok(out)
}

/// The names of the files in `zip`.
pub fn names(zip: &[u8]) -> Result<Vec<String>, String> {
    Ok(entries(zip)?.into_iter().map(|e| e.name).collect())
}

/// The contents of `name` in `zip` (at most `limit` bytes), or `None` when it holds no such
/// file.
pub fn read(zip: &[u8], name: &str, limit: usize) -> Result<Option<Vec<u8>>, String> {
    let Some(e) = entries(zip)?.into_iter().find(|e| e.name == name) else {
        return Ok(None);
    };
    if e.size > limit {
        return Err(format!(
            "{name}: {} bytes, over the {limit} allowed",
            e.size
        ));
    }
    let at = e.local_header;
    if u32_at(zip, at)? != LOCAL_HEADER {
        return Err(format!("{name}: no local header at byte {at}"));
    }
    let start = at + 30 + usize::from(u16_at(zip, at + 26)?) + usize::from(u16_at(zip, at + 28)?);
    let data = zip
        .get(start..start.saturating_add(e.compressed))
        .ok_or_else(|| format!("{name}: its data runs past the end of the file"))?;
    let out = match e.method {
        0 => data.to_vec(),
        8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, limit)
            .map_err(|err| format!("{name}: a damaged deflate stream ({:?})", err.status))?,
        m => {
            return Err(format!(
                "{name}: compression method {m} (only stored and deflate)"
            ));
        }
    };
    if out.len() != e.size {
        return Err(format!(
            "{name}: {} bytes, the directory says {}",
            out.len(),
            e.size
        ));
    }
    Ok(Some(out))
}

/// A zip archive of `files` (name, contents), stored uncompressed: what a `.bk2` writer
/// and the tests need.
pub fn store(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut directory = Vec::new();
    for (name, data) in files {
        let at = out.len() as u32;
        let crc = crc32fast::hash(data);
        let len = data.len() as u32;
        // Version 2.0, no flags, stored, no time, the sizes, the name, no extra field.
        let fixed = |out: &mut Vec<u8>| {
            out.extend(20u16.to_le_bytes());
            out.extend([0u8; 4]);
            out.extend([0u8; 4]);
            out.extend(crc.to_le_bytes());
            out.extend(len.to_le_bytes());
            out.extend(len.to_le_bytes());
            out.extend((name.len() as u16).to_le_bytes());
            out.extend(0u16.to_le_bytes());
        };
        out.extend(LOCAL_HEADER.to_le_bytes());
        fixed(&mut out);
        out.extend(name.as_bytes());
        out.extend_from_slice(data);
        directory.extend(DIRECTORY_ENTRY.to_le_bytes());
        directory.extend(20u16.to_le_bytes());
        fixed(&mut directory);
        // No comment, disk 0, no attributes, the local header's offset.
        directory.extend([0u8; 10]);
        directory.extend(at.to_le_bytes());
        directory.extend(name.as_bytes());
    }
    let start = out.len() as u32;
    out.extend_from_slice(&directory);
    out.extend(END_OF_DIRECTORY.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((files.len() as u16).to_le_bytes());
    out.extend((files.len() as u16).to_le_bytes());
    out.extend((directory.len() as u32).to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_archive_reads_back_and_damage_is_an_error() {
        let zip = store(&[("a.txt", b"hello"), ("Input Log.txt", b"|..|")]);
        assert_eq!(names(&zip).unwrap(), ["a.txt", "Input Log.txt"]);
        assert_eq!(read(&zip, "a.txt", 100).unwrap().unwrap(), b"hello");
        assert_eq!(read(&zip, "Input Log.txt", 100).unwrap().unwrap(), b"|..|");
        assert_eq!(read(&zip, "none", 100).unwrap(), None);
        assert!(read(&zip, "a.txt", 3).unwrap_err().contains("over the 3"));
        // Every cut and every flipped byte: an error or an answer, never a panic.
        for len in 0..zip.len() {
            let _ = read(&zip[..len], "a.txt", 100);
        }
        for at in 0..zip.len() {
            let mut bad = zip.clone();
            bad[at] ^= 0xFF;
            let _ = read(&bad, "Input Log.txt", 1 << 20);
        }
        assert!(names(b"not a zip").is_err());
    }
}
