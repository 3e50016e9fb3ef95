//! Result readers: how each kind of test ROM is run and how its verdict is read.

use crate::{Check, Entry};
use nesmind_emu::Buttons;
use nesmind_emu::{Machine, Rom};
use std::path::Path;

/// Frames between looks at the screen for a verdict.
const POLL_FRAMES: u32 = 15;
/// Frames to wait after a $81 reset request before pressing reset (the ROMs ask for 100 ms).
const RESET_DELAY_FRAMES: u64 = 10;

pub fn run(corpus: &Path, rom: &Rom, entry: &Entry) -> Result<String, String> {
    if let Check::Nestest(log) = &entry.check {
        let log_path = corpus.join(log);
        let text = std::fs::read_to_string(&log_path)
            .map_err(|e| format!("cannot read {}: {e}", log_path.display()))?;
        let lines = crate::nestest::run(rom, &text, entry.speedups)?;
        return Ok(format!("{lines} trace lines match"));
    }
    if let Check::AccuracyCoin { asm, starts, min } = &entry.check {
        let asm_path = corpus.join(asm);
        let text = std::fs::read_to_string(&asm_path)
            .map_err(|e| format!("cannot read {}: {e}", asm_path.display()))?;
        return crate::accuracycoin::check(rom, &text, starts, entry.frames, *min, entry.speedups);
    }
    let mut m = crate::machine(rom, entry.speedups)?;
    if let Some(hold) = &entry.hold {
        m.set_buttons(0, Buttons::parse(hold)?);
    }
    match &entry.check {
        Check::Protocol6000 => protocol_6000(&mut m, entry.frames),
        Check::ZeroPage { addr, pass } => zero_page(&mut m, entry.frames, *addr, *pass),
        Check::Screen { pass, fail } => screen(&mut m, entry.frames, pass, fail),
        Check::HolyMapperel => holy_mapperel(&mut m, entry.frames, &entry.path),
        Check::Prompted { pass, fail } => prompted(&mut m, entry.frames, pass, fail),
        Check::NmiSyncLine => nmi_sync_line(&mut m, entry.frames),
        Check::Nestest(_) | Check::AccuracyCoin { .. } => unreachable!("handled above"),
    }
}

fn run_frame(m: &mut Machine) -> Result<(), String> {
    m.run_frame()
        .map_err(|e| format!("frame {}: {e}", m.frame_number()))
}

/// The text at $6004 (NUL-terminated), without ANSI colour escapes.
fn text_6004(m: &Machine) -> String {
    let mut bytes = Vec::new();
    for addr in 0x6004..0x7000u16 {
        let b = m.peek(addr);
        if b == 0 {
            break;
        }
        bytes.push(b);
    }
    let raw = String::from_utf8_lossy(&bytes).into_owned();
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1B' {
            for c2 in chars.by_ref() {
                if c2.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn protocol_6000(m: &mut Machine, frames: u32) -> Result<String, String> {
    let mut previous = 0u8;
    let mut reset_at: Option<u64> = None;
    for _ in 0..frames {
        run_frame(m)?;
        if reset_at.is_some_and(|f| m.frame_number() >= f) {
            reset_at = None;
            m.reset();
            continue;
        }
        if [m.peek(0x6001), m.peek(0x6002), m.peek(0x6003)] != [0xDE, 0xB0, 0x61] {
            continue;
        }
        let status = m.peek(0x6000);
        if status == 0x81 && previous != 0x81 {
            reset_at = Some(m.frame_number() + RESET_DELAY_FRAMES);
        }
        previous = status;
        if status < 0x80 {
            let text = text_6004(m);
            return if status == 0 {
                Ok(text)
            } else {
                Err(format!("code {status}: {text}"))
            };
        }
    }
    Err(format!(
        "no result after {frames} frames (status ${previous:02X}: {})",
        text_6004(m)
    ))
}

/// The first nametable as 30 lines of text. Tile numbers are ASCII in blargg's ROMs;
/// Holy Mapperel puts capitals at tiles $01-$1A.
pub fn screen_text(m: &Machine) -> Vec<String> {
    (0..30u16)
        .map(|row| {
            let line: String = (0..32u16)
                .map(|col| {
                    let b = m.peek_ppu(0x2000 + row * 32 + col);
                    match b {
                        0x01..=0x1A => (b'A' + b - 1) as char,
                        0x20..=0x7E => b as char,
                        _ => ' ',
                    }
                })
                .collect();
            line.trim_end().to_string()
        })
        .collect()
}

fn screen_summary(m: &Machine) -> String {
    screen_text(m)
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Pass (true) or fail (false) when the screen shows one of the texts, else `None`.
fn screen_verdict(lines: &[String], pass: &[String], fail: &[String]) -> Option<bool> {
    let text = lines.join("\n");
    let shows = |texts: &[String]| texts.iter().any(|t| text.contains(t.as_str()));
    if shows(pass) {
        Some(true)
    } else if shows(fail) {
        Some(false)
    } else {
        None
    }
}

fn screen(
    m: &mut Machine,
    frames: u32,
    pass: &[String],
    fail: &[String],
) -> Result<String, String> {
    for f in 1..=frames {
        run_frame(m)?;
        if f % POLL_FRAMES != 0 && f != frames {
            continue;
        }
        if let Some(passed) = screen_verdict(&screen_text(m), pass, fail) {
            return if passed {
                Ok(screen_summary(m))
            } else {
                Err(screen_summary(m))
            };
        }
    }
    Err(format!(
        "no verdict after {frames} frames: {}",
        screen_summary(m)
    ))
}

/// Left and right ends of each row with pixels unlike the row's first one.
fn lit_rows(m: &Machine) -> Vec<(usize, usize, usize)> {
    m.picture()
        .chunks_exact(256)
        .enumerate()
        .filter_map(|(y, row)| {
            let lit: Vec<usize> = (0..256).filter(|&x| row[x] != row[0]).collect();
            Some((y, *lit.first()?, *lit.last()?))
        })
        .collect()
}

fn nmi_sync_line(m: &mut Machine, frames: u32) -> Result<String, String> {
    // Let the demo synchronise, then watch the middle line over a second of frames.
    let settle = frames.saturating_sub(60);
    for _ in 0..settle {
        run_frame(m)?;
    }
    let mut starts = Vec::new();
    for _ in settle..frames {
        run_frame(m)?;
        let rows = lit_rows(m);
        let [top, _, middle, _, bottom] = rows[..] else {
            return Err(format!("expected 5 drawn rows, found {rows:?}"));
        };
        if top.1 != bottom.1 || bottom.0 != top.0 + 4 {
            return Err(format!("reference lines differ: {top:?} {bottom:?}"));
        }
        if middle.1 != top.1 && middle.1 != top.1 + 1 {
            return Err(format!(
                "middle line starts at x={}, the reference lines at x={}",
                middle.1, top.1
            ));
        }
        starts.push(middle.1);
    }
    let left = starts.iter().min().copied().unwrap_or_default();
    if starts.iter().all(|&s| s == left) {
        return Err(format!(
            "the middle line's first pixel never flashes (x={left})"
        ));
    }
    Ok(format!(
        "middle line starts at x={left}, first pixel flashing"
    ))
}

/// Frames a prompted button is held, then released, like a quick press by hand.
const PRESS_FRAMES: u32 = 6;

fn prompted(
    m: &mut Machine,
    frames: u32,
    pass: &[String],
    fail: &[String],
) -> Result<String, String> {
    let mut f = 0;
    let mut answered = Vec::new();
    while f < frames {
        run_frame(m)?;
        f += 1;
        let text = screen_text(m);
        match screen_verdict(&text, pass, fail) {
            Some(true) => {
                let summary = screen_summary(m);
                return Ok(format!("pressed {}: {summary}", answered.join(" ")));
            }
            Some(false) => return Err(screen_summary(m)),
            None => {}
        }
        let Some(prompt) = text.iter().rev().map(|l| l.trim()).find(|l| !l.is_empty()) else {
            continue;
        };
        let Ok(button) = Buttons::parse(prompt) else {
            continue;
        };
        if button.is_empty() {
            continue;
        }
        for (held, n) in [(button, PRESS_FRAMES), (Buttons::NONE, PRESS_FRAMES)] {
            m.set_buttons(0, held);
            for _ in 0..n {
                run_frame(m)?;
            }
            f += n;
        }
        answered.push(prompt.to_string());
    }
    Err(format!(
        "no verdict after {frames} frames (pressed {}): {}",
        answered.join(" "),
        screen_summary(m)
    ))
}

fn zero_page(m: &mut Machine, frames: u32, addr: u16, pass: u8) -> Result<String, String> {
    // The byte holds the sub-test number while running, so only a verdict on screen ends early.
    for f in 1..=frames {
        run_frame(m)?;
        if f % POLL_FRAMES != 0 {
            continue;
        }
        let text = screen_text(m).join("\n");
        if text.contains("PASSED") || text.contains("FAIL") || text.contains('$') {
            // Let the ROM finish writing its result.
            for _ in 0..POLL_FRAMES {
                run_frame(m)?;
            }
            break;
        }
    }
    let value = m.peek(addr);
    if value == pass {
        Ok(screen_summary(m))
    } else {
        Err(format!("${addr:02X} = {value:02X}: {}", screen_summary(m)))
    }
}

/// Holy Mapperel passes when its report matches the board the file name describes
/// (`M<mapper>_P<prg>_C<chr rom>|CR<chr ram>[_W|S<prg ram>]`) and the detail code is 0000.
fn holy_mapperel(m: &mut Machine, frames: u32, path: &str) -> Result<String, String> {
    let name = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("");
    let mut parts = name.split('_');
    let mapper: u32 = parts
        .next()
        .and_then(|s| s.trim_start_matches('M').split('.').next()?.parse().ok())
        .ok_or_else(|| format!("cannot read the mapper number from '{name}'"))?;
    let mut want = vec![
        format!("{mapper:03} "),
        "DETAILED TEST RESULT: 0000".to_string(),
    ];
    let mut has_ram = false;
    for part in parts {
        if let Some(size) = part.strip_prefix("CR") {
            want.push(format!("{size} CHR RAM OK"));
        } else if let Some(size) = part.strip_prefix('C') {
            want.push(format!("{size} CHR ROM OK"));
        } else if let Some(size) = part.strip_prefix('P') {
            want.push(format!("{size} PRG ROM"));
        } else if let Some(size) = part.strip_prefix('W').or_else(|| part.strip_prefix('S')) {
            want.push(format!("{size} PRG RAM OK"));
            has_ram = true;
        }
    }
    if !has_ram {
        want.push("PRG RAM MISSING".to_string());
    }
    let mut missing = String::new();
    for f in 1..=frames {
        run_frame(m)?;
        if f % POLL_FRAMES != 0 && f != frames {
            continue;
        }
        let text = screen_text(m).join("\n");
        match want.iter().find(|w| !text.contains(w.as_str())) {
            None => return Ok(screen_summary(m)),
            Some(w) => missing = w.clone(),
        }
    }
    Err(format!(
        "expected '{missing}' after {frames} frames: {}",
        screen_summary(m)
    ))
}
