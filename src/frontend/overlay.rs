//! The window's on-screen text: a strip below the picture (the window is taller by
//! `layout::STRIP_H` rows) with the plug-in's status line and short-lived messages ("saved
//! slot 2"); more rows (the full overlay's info, an alert wrapped over up to
//! [`ALERT_ROWS`]) cover the picture's bottom rows. Drawn in picture pixels with the
//! bitmap font in [`super::font`], so it scales with the picture.
//!
//! This is window-only: headless runs never build an overlay. It is drawn after the
//! picture is read back, so screenshots of the emulated picture never contain it.

use super::font::{GLYPH_H, GLYPH_W, glyph, lit};
use std::time::{Duration, Instant};

/// Horizontal advance per character and height per line, in font pixels.
pub const CELL_W: usize = GLYPH_W + 1;
pub const LINE_H: usize = GLYPH_H + 2;
/// Left/right margin of the strip.
const MARGIN: usize = 2;
/// How long a message stays up.
pub const MESSAGE_TIME: Duration = Duration::from_millis(2500);

/// ARGB colours. The background is dark enough that a line drawn over the picture stays
/// readable.
const BACKGROUND: u32 = 0xE000_0000;
pub const STATUS: u32 = 0xFFFF_E680;
const MESSAGE: u32 = 0xFFFF_FFFF;
const INFO: u32 = 0xFF9C_D8FF;
const ALERT: u32 = 0xFFFF_7070;
/// Strip rows an alert may take: what stopped the run (a plug-in's name and its reason)
/// rarely fits one.
pub const ALERT_ROWS: usize = 4;
/// Characters of an alert in the window title, which window managers cut anyway.
const TITLE_ALERT: usize = 100;

/// What the overlay shows; the window's overlay key cycles through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverlayMode {
    /// The plug-in's status (when it reports one), messages and the pause notice.
    Auto,
    /// Auto plus a line with ROM, plug-in, pad owners and fps (useful in fullscreen).
    Full,
    Off,
}

impl std::str::FromStr for OverlayMode {
    type Err = String;
    fn from_str(s: &str) -> Result<OverlayMode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(OverlayMode::Auto),
            "full" => Ok(OverlayMode::Full),
            "off" => Ok(OverlayMode::Off),
            _ => Err(format!(
                "'{s}' is not an overlay mode: use auto, full or off"
            )),
        }
    }
}

impl OverlayMode {
    pub fn next(self) -> OverlayMode {
        match self {
            OverlayMode::Auto => OverlayMode::Full,
            OverlayMode::Full => OverlayMode::Off,
            OverlayMode::Off => OverlayMode::Auto,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub color: u32,
    /// Strip rows it may take: more than one wraps a long text instead of cutting it.
    pub rows: usize,
}

impl Line {
    /// A line of one row.
    pub fn new(text: impl Into<String>, color: u32) -> Line {
        Line {
            text: text.into(),
            color,
            rows: 1,
        }
    }
}

/// An ARGB image in font pixels (one font pixel per picture pixel row).
#[derive(Debug, PartialEq)]
pub struct Strip {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u32>,
}

/// How many characters fit on a line of a strip `width` pixels wide.
pub fn chars_per_line(width: usize) -> usize {
    width.saturating_sub(2 * MARGIN) / CELL_W
}

/// `text` cut to `max` characters, ending in "..." when something was dropped.
fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let keep = max.saturating_sub(3);
    let mut out: String = text.chars().take(keep).collect();
    out.push_str(&"..."[..max.min(3)]);
    out
}

/// `text` in at most `rows` pieces of at most `max` characters, broken after a space
/// where one fits (else mid-word); the last piece ends in "..." when text is left over.
fn wrap(text: &str, max: usize, rows: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    while max > 0 && out.len() + 1 < rows && chars.len() - start > max {
        // A space just past the last character that fits is a break too.
        let room = &chars[start..=start + max];
        let cut = match room.iter().rposition(|&c| c == ' ') {
            Some(i) if i > 0 => i,
            _ => max,
        };
        out.push(chars[start..start + cut].iter().collect::<String>());
        start += cut;
        while chars.get(start) == Some(&' ') {
            start += 1;
        }
    }
    out.push(fit(&chars[start..].iter().collect::<String>(), max));
    out
}

/// The strip rows `lines` take at `max` characters a row: text and colour.
pub fn rows(lines: &[Line], max: usize) -> Vec<(String, u32)> {
    lines
        .iter()
        .flat_map(|l| wrap(&l.text, max, l.rows).into_iter().map(|t| (t, l.color)))
        .collect()
}

/// Draws `lines` onto a strip `width` pixels wide; `None` when there is nothing to show.
pub fn render(lines: &[Line], width: usize) -> Option<Strip> {
    if lines.is_empty() || width == 0 {
        return None;
    }
    let rows = rows(lines, chars_per_line(width));
    let height = rows.len() * LINE_H + 2;
    let mut pixels = vec![BACKGROUND; width * height];
    for (row, (text, color)) in rows.iter().enumerate() {
        let top = 2 + row * LINE_H;
        for (i, c) in text.chars().enumerate() {
            let g = glyph(c);
            let left = MARGIN + i * CELL_W;
            for y in 0..GLYPH_H {
                for x in 0..GLYPH_W {
                    if lit(g, x, y) {
                        pixels[(top + y) * width + left + x] = *color;
                    }
                }
            }
        }
    }
    Some(Strip {
        width,
        height,
        pixels,
    })
}

/// The overlay's state: mode and the current message.
pub struct Osd {
    pub mode: OverlayMode,
    message: Option<(String, Instant)>,
    /// What stopped the run (a plug-in that failed, a jammed CPU): shown until the window
    /// closes, in every mode, so a paused window always says why it is paused.
    alert: Option<String>,
}

impl Osd {
    pub fn new(mode: OverlayMode) -> Osd {
        Osd {
            mode,
            message: None,
            alert: None,
        }
    }

    /// Shows `text` for good (the latest replaces an earlier one).
    pub fn alert(&mut self, text: String) {
        self.alert = Some(text);
    }

    /// The alert as the window title shows it: one line, cut short.
    pub fn title_alert(&self) -> Option<String> {
        let a = self.alert.as_ref()?;
        Some(fit(
            &a.split_whitespace().collect::<Vec<_>>().join(" "),
            TITLE_ALERT,
        ))
    }

    /// Shows `text` for [`MESSAGE_TIME`] from `now` (empty text clears the message).
    pub fn say(&mut self, text: String, now: Instant) {
        self.message = (!text.is_empty()).then_some((text, now));
    }

    /// The message, while it is still up.
    pub fn message(&self, now: Instant) -> Option<&str> {
        match &self.message {
            Some((text, since)) if now.duration_since(*since) < MESSAGE_TIME => Some(text),
            _ => None,
        }
    }

    /// The lines to draw at `now`: `info` is the title-like line, `status` the plug-in's.
    pub fn lines(&self, now: Instant, info: &str, status: &str, paused: bool) -> Vec<Line> {
        let mut out = Vec::new();
        if let Some(a) = &self.alert {
            out.push(Line {
                rows: ALERT_ROWS,
                ..Line::new(a.as_str(), ALERT)
            });
        }
        let mut add = |text: &str, color| out.push(Line::new(text, color));
        if self.mode == OverlayMode::Off {
            return out;
        }
        if self.mode == OverlayMode::Full {
            add(info, INFO);
        }
        if !status.is_empty() {
            add(status, STATUS);
        }
        match self.message(now) {
            Some(m) => add(m, MESSAGE),
            None if paused => add("paused (P resumes, N steps one frame)", MESSAGE),
            None => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line::new(text, MESSAGE)
    }

    #[test]
    fn text_is_drawn_with_the_font_on_a_translucent_strip() {
        let s = render(&[line("A"), line("")], 40).unwrap();
        assert_eq!((s.width, s.height), (40, 2 * LINE_H + 2));
        let at = |x: usize, y: usize| s.pixels[y * s.width + x];
        // 'A' row 0 is ".###." starting at the margin, two pixels down.
        assert_eq!(at(MARGIN, 2), BACKGROUND);
        assert_eq!(at(MARGIN + 1, 2), MESSAGE);
        assert_eq!(at(MARGIN + 3, 2), MESSAGE);
        let lit = s.pixels.iter().filter(|&&p| p == MESSAGE).count();
        let expected: u32 = glyph('A').iter().map(|r| r.count_ones()).sum();
        assert_eq!(lit, expected as usize);
        assert_eq!(render(&[], 40), None);
    }

    #[test]
    fn long_lines_are_cut_with_an_ellipsis() {
        assert_eq!(chars_per_line(256), 42);
        assert_eq!(fit("short", 10), "short");
        assert_eq!(fit("abcdefghijkl", 8), "abcde...");
        assert_eq!(fit("abcdef", 2), "..");
        // Far too long for the strip: still draws without running off the edge.
        let s = render(&[line(&"W".repeat(500))], 64).unwrap();
        assert_eq!(s.pixels.len(), 64 * s.height);
    }

    /// A plug-in's failure names the plug-in first: its reason must not be cut off.
    #[test]
    fn a_long_alert_wraps_and_keeps_its_reason() {
        let mut osd = Osd::new(OverlayMode::Auto);
        let reason = "the plug-in stopped reading its input (no answer for 10 s)";
        let alert = format!("plug-in 'ext:python3 /tmp/x.py' failed: {reason}");
        osd.alert(alert.clone());
        let lines = osd.lines(Instant::now(), "", "move e4", true);
        let shown = rows(&lines, chars_per_line(256));
        let alert_rows: Vec<&str> = shown
            .iter()
            .filter(|(_, c)| *c == ALERT)
            .map(|(t, _)| t.as_str())
            .collect();
        assert!(alert_rows.len() > 1, "{alert_rows:?}");
        assert!(alert_rows.iter().all(|r| r.chars().count() <= 42));
        assert_eq!(alert_rows.join(" "), alert);
        // The status and the pause notice still follow.
        assert_eq!(shown.len(), alert_rows.len() + 2);
        let strip = render(&lines, 256).unwrap();
        assert_eq!(strip.height, shown.len() * LINE_H + 2);
        assert_eq!(osd.title_alert().as_deref(), Some(alert.as_str()));

        // Bounded: what does not fit in its rows ends in an ellipsis.
        let long = wrap(&"word ".repeat(100), 42, ALERT_ROWS);
        assert_eq!(long.len(), ALERT_ROWS);
        assert!(long[3].ends_with("...") && long[3].chars().count() == 42);
        // A word longer than a row is broken inside it; a narrow strip still terminates.
        assert_eq!(wrap(&"x".repeat(50), 42, 2)[1], "x".repeat(8));
        assert_eq!(wrap("abc def", 0, 4), [""]);
        assert_eq!(wrap("abc def", 3, 4), ["abc", "def"]);
    }

    #[test]
    fn messages_expire_and_modes_choose_lines() {
        let t0 = Instant::now();
        let mut osd = Osd::new(OverlayMode::Auto);
        assert!(osd.lines(t0, "info", "", false).is_empty());
        osd.say("saved slot 2".into(), t0);
        let texts = |osd: &Osd, t, paused| -> Vec<String> {
            osd.lines(t, "info", "move e4", paused)
                .into_iter()
                .map(|l| l.text)
                .collect()
        };
        assert_eq!(texts(&osd, t0, false), ["move e4", "saved slot 2"]);
        let later = t0 + MESSAGE_TIME;
        assert_eq!(texts(&osd, later, false), ["move e4"]);
        assert_eq!(
            texts(&osd, later, true)[1],
            "paused (P resumes, N steps one frame)"
        );
        osd.mode = OverlayMode::Full;
        assert_eq!(texts(&osd, later, false), ["info", "move e4"]);
        osd.mode = osd.mode.next();
        assert_eq!(osd.mode, OverlayMode::Off);
        assert!(texts(&osd, t0, true).is_empty());
        assert_eq!(osd.mode.next(), OverlayMode::Auto);
        assert_eq!("Full".parse::<OverlayMode>(), Ok(OverlayMode::Full));
        // What stopped the run stays up, in every mode, above the pause notice.
        osd.alert("plug-in 'x' failed: boom".into());
        let much_later = t0 + 100 * MESSAGE_TIME;
        for mode in [OverlayMode::Auto, OverlayMode::Full] {
            osd.mode = mode;
            let t = texts(&osd, much_later, true);
            assert_eq!(t[0], "plug-in 'x' failed: boom", "{mode:?}");
            assert_eq!(t.last().unwrap(), "paused (P resumes, N steps one frame)");
        }
        osd.mode = OverlayMode::Off;
        assert_eq!(texts(&osd, much_later, true), ["plug-in 'x' failed: boom"]);
        assert!("on".parse::<OverlayMode>().unwrap_err().contains("'on'"));
    }
}
