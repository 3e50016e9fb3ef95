//! Sound through cpal: the audio callback pops from the lock-free ring, the emulation
//! thread pushes once per frame. A missing or failing device only produces a warning.

use super::rate::RateControl;
use super::ring::{Consumer, Producer, ring};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SizedSample};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Queue target: about 50 ms, enough to ride out frame-time jitter.
const TARGET_SECONDS: f64 = 0.05;

pub struct AudioOut {
    _stream: cpal::Stream,
    producer: Producer,
    rate: u32,
    control: RateControl,
    target: usize,
    volume: Arc<AtomicU32>,
    muted: Arc<AtomicBool>,
    adjust: f64,
}

/// State the callback owns.
struct Playback {
    consumer: Consumer,
    scratch: Vec<i16>,
    last: f32,
    volume: Arc<AtomicU32>,
    muted: Arc<AtomicBool>,
}

impl Playback {
    fn fill<T: SizedSample + FromSample<f32>>(&mut self, data: &mut [T], channels: usize) {
        let frames = data.len() / channels.max(1);
        self.scratch.resize(frames, 0);
        let got = self.consumer.pop(&mut self.scratch);
        let gain = if self.muted.load(Ordering::Relaxed) {
            0.0
        } else {
            f32::from_bits(self.volume.load(Ordering::Relaxed))
        };
        for (i, frame) in data.chunks_mut(channels.max(1)).enumerate() {
            let v = if i < got {
                f32::from(self.scratch[i]) / 32768.0
            } else {
                // Underrun: glide from the last sample toward silence instead of clicking.
                self.last * 0.995
            };
            self.last = v;
            let s = T::from_sample(v * gain);
            frame.iter_mut().for_each(|d| *d = s);
        }
    }
}

/// How a missing sound device is reported (once, as a warning).
const NO_DEVICE: &str = "no sound device";

/// libasound prints its own errors to stderr: eight `ALSA lib ...` lines on a machine
/// without a sound card, before nesmind can say anything. Its messages are dropped, and
/// nesmind says once what it means (`open_or_warn`).
#[cfg(target_os = "linux")]
fn quiet_alsa() {
    use std::os::raw::{c_char, c_int};
    unsafe extern "C" fn ignore(
        _: *const c_char,
        _: c_int,
        _: *const c_char,
        _: c_int,
        _: *const c_char,
    ) {
    }
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: the handler type is C-variadic; a function taking only the named
        // arguments and reading none of the rest is called correctly on the C ABIs Linux
        // uses (the caller sets up and removes the variadic part). Set before any other
        // ALSA call of ours, from one thread (Once).
        unsafe {
            let handler: alsa_sys::snd_lib_error_handler_t = Some(std::mem::transmute::<
                unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char),
                unsafe extern "C" fn(
                    *const c_char,
                    c_int,
                    *const c_char,
                    c_int,
                    *const c_char,
                    ...
                ),
            >(ignore));
            alsa_sys::snd_lib_error_set_handler(handler);
        }
    });
}

impl AudioOut {
    /// Opens the default output device near `preferred_rate`.
    pub fn open(preferred_rate: u32) -> Result<AudioOut, String> {
        #[cfg(target_os = "linux")]
        quiet_alsa();
        let host = cpal::default_host();
        let device = host
            .default_output_device()
            .ok_or_else(|| format!("{NO_DEVICE} (the audio host has no default output)"))?;
        // ALSA's "default" exists as a name even where no card answers to it.
        let configs: Vec<_> = device
            .supported_output_configs()
            .map_err(|e| format!("{NO_DEVICE} (the default device: {e})"))?
            .collect();
        let supported = choose_config(&configs, preferred_rate).ok_or_else(|| {
            let offered: Vec<String> = configs.iter().map(|c| c.sample_format().to_string()).collect();
            format!(
                "the audio device offers no sample format nesmind writes (f32, i16, u16, i32); it offers {}",
                offered.join(", ")
            )
        })?;
        let format = supported.sample_format();
        let config: cpal::StreamConfig = supported.into();
        let rate = config.sample_rate.0;
        let channels = usize::from(config.channels);
        let target = (f64::from(rate) * TARGET_SECONDS) as usize;
        let (producer, consumer) = ring(target * 4);
        let volume = Arc::new(AtomicU32::new(1.0f32.to_bits()));
        let muted = Arc::new(AtomicBool::new(false));
        let playback = Playback {
            consumer,
            scratch: Vec::with_capacity(4096),
            last: 0.0,
            volume: volume.clone(),
            muted: muted.clone(),
        };
        let stream = match format {
            cpal::SampleFormat::F32 => build::<f32>(&device, &config, channels, playback),
            cpal::SampleFormat::I16 => build::<i16>(&device, &config, channels, playback),
            cpal::SampleFormat::U16 => build::<u16>(&device, &config, channels, playback),
            cpal::SampleFormat::I32 => build::<i32>(&device, &config, channels, playback),
            other => return Err(format!("unsupported audio sample format {other}")),
        }?;
        stream
            .play()
            .map_err(|e| format!("cannot start audio playback: {e}"))?;
        Ok(AudioOut {
            _stream: stream,
            producer,
            rate,
            control: RateControl::new(target),
            target,
            volume,
            muted,
            adjust: 1.0,
        })
    }

    /// `open`, or a logged warning and `None` so the emulator runs silent.
    pub fn open_or_warn(preferred_rate: u32) -> Option<AudioOut> {
        match AudioOut::open(preferred_rate) {
            Ok(a) => Some(a),
            Err(e) if e.starts_with(NO_DEVICE) => {
                log::warn!("{NO_DEVICE}: running silent");
                log::debug!("sound output: {e}");
                None
            }
            Err(e) => {
                log::warn!("sound output failed ({e}): running silent");
                None
            }
        }
    }

    /// The device's rate: give it to `Machine::set_sample_rate`.
    pub fn sample_rate(&self) -> u32 {
        self.rate
    }

    /// Queues one frame's samples (excess beyond the ring is dropped) and updates the
    /// rate nudge.
    pub fn push(&mut self, samples: &[i16]) {
        self.producer.push(samples);
        self.adjust = self.control.update(self.producer.fill());
    }

    /// Factor for `Machine::set_audio_rate_adjust`, from the latest fill level. Use it
    /// when a timer paces the frames; when the frames wait for the queue to drain (the
    /// device's clock paces them), keep the factor at 1: the wait already holds the fill,
    /// and a second controller on it would only bias the speed.
    pub fn rate_adjust(&self) -> f64 {
        self.adjust
    }

    /// Samples queued and not yet played.
    pub fn queued(&self) -> usize {
        self.producer.fill()
    }

    /// The fill level the queue is kept at (about 50 ms).
    pub fn target(&self) -> usize {
        self.target
    }

    /// 0.0 (silent) to 1.0 (full).
    pub fn set_volume(&self, volume: f32) {
        let v = if volume.is_finite() {
            volume.clamp(0.0, 1.0)
        } else {
            1.0
        };
        self.volume.store(v.to_bits(), Ordering::Relaxed);
    }

    pub fn set_muted(&self, muted: bool) {
        self.muted.store(muted, Ordering::Relaxed);
    }
}

/// Formats the callback can write, best first.
const FORMATS: [cpal::SampleFormat; 4] = [
    cpal::SampleFormat::F32,
    cpal::SampleFormat::I16,
    cpal::SampleFormat::I32,
    cpal::SampleFormat::U16,
];

/// A configuration with a format we write, preferring one that plays `rate` exactly,
/// then the better format, then fewer channels (the output is mono).
fn choose_config(
    configs: &[cpal::SupportedStreamConfigRange],
    rate: u32,
) -> Option<cpal::SupportedStreamConfig> {
    let best = configs
        .iter()
        .filter_map(|c| {
            let format = FORMATS.iter().position(|&f| f == c.sample_format())?;
            let exact = c.min_sample_rate().0 <= rate && rate <= c.max_sample_rate().0;
            Some(((!exact, format, c.channels()), c))
        })
        .min_by_key(|(rank, _)| *rank)?
        .1;
    let rate = rate.clamp(best.min_sample_rate().0, best.max_sample_rate().0);
    Some(best.with_sample_rate(cpal::SampleRate(rate)))
}

fn build<T: SizedSample + FromSample<f32>>(
    device: &cpal::Device,
    config: &cpal::StreamConfig,
    channels: usize,
    mut playback: Playback,
) -> Result<cpal::Stream, String> {
    device
        .build_output_stream(
            config,
            move |data: &mut [T], _: &cpal::OutputCallbackInfo| playback.fill(data, channels),
            |e| log::warn!("audio stream error (continuing): {e}"),
            None,
        )
        .map_err(|e| format!("cannot open the audio stream: {e}"))
}
