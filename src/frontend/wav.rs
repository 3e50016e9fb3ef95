//! 16-bit mono PCM WAV output.

use std::path::Path;

/// The bytes of a 16-bit mono PCM WAV file.
pub fn wav_bytes(rate: u32, samples: &[i16]) -> Result<Vec<u8>, String> {
    let data_len = u32::try_from(samples.len() * 2)
        .ok()
        .filter(|n| *n <= u32::MAX - 36)
        .ok_or_else(|| format!("{} samples are too many for one WAV file", samples.len()))?;
    let mut b = Vec::with_capacity(44 + samples.len() * 2);
    b.extend_from_slice(b"RIFF");
    b.extend_from_slice(&(36 + data_len).to_le_bytes());
    b.extend_from_slice(b"WAVEfmt ");
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes()); // PCM
    b.extend_from_slice(&1u16.to_le_bytes()); // mono
    b.extend_from_slice(&rate.to_le_bytes());
    b.extend_from_slice(&(rate * 2).to_le_bytes()); // bytes per second
    b.extend_from_slice(&2u16.to_le_bytes()); // block align
    b.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    b.extend_from_slice(b"data");
    b.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        b.extend_from_slice(&s.to_le_bytes());
    }
    Ok(b)
}

/// Writes `samples` as a WAV file, complete or not at all.
pub fn write_wav(path: &Path, rate: u32, samples: &[i16]) -> Result<(), String> {
    crate::host::files::write_atomic(path, &wav_bytes(rate, samples)?)
}
