//! 16-bit mono PCM WAV output, written as the samples come: a long run's sound is never
//! held in memory (but for a pipe, whose header cannot be filled in afterwards).

use crate::host::files::AtomicFile;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

/// Header bytes before the samples.
const HEADER: usize = 44;
/// The most sample bytes one file can describe (its RIFF size field is 32 bits).
const MAX_DATA: u64 = u32::MAX as u64 - 36;

/// The header of a file with `data_len` bytes of samples.
fn header(rate: u32, data_len: u32) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    let fields: [&[u8]; 12] = [
        b"RIFF",
        &(36 + data_len).to_le_bytes(),
        b"WAVEfmt ",
        &16u32.to_le_bytes(),
        &1u16.to_le_bytes(), // PCM
        &1u16.to_le_bytes(), // mono
        &rate.to_le_bytes(),
        &(rate * 2).to_le_bytes(), // bytes per second
        &2u16.to_le_bytes(),       // block align
        &16u16.to_le_bytes(),      // bits per sample
        b"data",
        &data_len.to_le_bytes(),
    ];
    let mut at = 0;
    for f in fields {
        h[at..at + f.len()].copy_from_slice(f);
        at += f.len();
    }
    h
}

/// A WAV file being written: complete after `finish`, absent (or as it was) if dropped
/// before, or if any write fails.
pub struct WavWriter {
    file: std::io::BufWriter<AtomicFile>,
    rate: u32,
    data_len: u64,
    /// A pipe's samples, held until `finish` writes the header with their count.
    held: Option<Vec<u8>>,
    /// A write failed: the file is not to be finished.
    broken: Option<String>,
}

impl WavWriter {
    /// Opens `path` (errors name it) for samples at `rate` Hz.
    pub fn create(path: &Path, rate: u32) -> Result<WavWriter, String> {
        let mut file = AtomicFile::create(path)?;
        let held = if file.seekable() {
            // The sizes are filled in by `finish`.
            file.write_all(&header(rate, 0))
                .map_err(|e| file.error(e))?;
            None
        } else {
            Some(Vec::new())
        };
        Ok(WavWriter {
            file: std::io::BufWriter::with_capacity(1 << 16, file),
            rate,
            data_len: 0,
            held,
            broken: None,
        })
    }

    /// Appends `samples`. Past the format's size limit nothing is written and the file
    /// stays finishable with what it has.
    pub fn write(&mut self, samples: &[i16]) -> Result<(), String> {
        if let Some(why) = &self.broken {
            return Err(why.clone());
        }
        let bytes = 2 * samples.len() as u64;
        if self.data_len + bytes > MAX_DATA {
            return Err(format!(
                "{} samples are too many for one WAV file",
                (self.data_len + bytes) / 2
            ));
        }
        self.data_len += bytes;
        let mut chunk = [0u8; 4096];
        for part in samples.chunks(chunk.len() / 2) {
            for (dst, s) in chunk.chunks_exact_mut(2).zip(part) {
                dst.copy_from_slice(&s.to_le_bytes());
            }
            let bytes = &chunk[..2 * part.len()];
            match &mut self.held {
                Some(held) => held.extend_from_slice(bytes),
                None => {
                    if let Err(e) = self.file.write_all(bytes) {
                        let why = self.file.get_ref().error(e);
                        self.broken = Some(why.clone());
                        return Err(why);
                    }
                }
            }
        }
        Ok(())
    }

    /// Fills in the header and puts the file in place.
    pub fn finish(self) -> Result<(), String> {
        let WavWriter {
            file,
            rate,
            data_len,
            held,
            broken,
        } = self;
        if let Some(why) = broken {
            return Err(why);
        }
        let mut file = file.into_inner().map_err(|e| {
            let (e, file) = e.into_parts();
            file.get_ref().error(e)
        })?;
        // `write` kept the size within 32 bits.
        let head = header(rate, data_len as u32);
        let written = match held {
            Some(held) => file.write_all(&head).and_then(|()| file.write_all(&held)),
            None => file
                .seek(SeekFrom::Start(0))
                .and_then(|_| file.write_all(&head)),
        };
        written.map_err(|e| file.error(e))?;
        file.commit()
    }
}

/// Writes `samples` as a WAV file, complete or not at all.
pub fn write_wav(path: &Path, rate: u32, samples: &[i16]) -> Result<(), String> {
    let mut w = WavWriter::create(path, rate)?;
    w.write(samples)?;
    w.finish()
}
