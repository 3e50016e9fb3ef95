//! The line protocol's grammar (docs/plugin-protocol.md): parsing what a plug-in sends and
//! formatting what the host sends. Pure functions, so they can be fuzzed.

use crate::{Buttons, RomInfo};
use std::ops::RangeInclusive;

/// The protocol version this host speaks (named in its hello line).
pub const VERSION: u32 = 2;
/// The longest line a plug-in may send, newline excluded.
pub const MAX_LINE: usize = 4096;
/// The most lines a plug-in may send for one frame (or while attaching).
pub const MAX_LINES_PER_FRAME: usize = 64;
/// The most address ranges a plug-in may ask for.
pub const MAX_RANGES: usize = 256;

/// The plug-in's answer to the hello line.
#[derive(Debug, PartialEq, Eq)]
pub enum Attach {
    Ok {
        pads: Option<usize>,
        ranges: Vec<RangeInclusive<u16>>,
    },
    Refuse(String),
    /// `version`: the plug-in asks which host this is before it answers.
    Version,
}

/// One line of a plug-in's answer to a frame.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    Status(String),
    /// Pads 1-4 in order; `None` for pads the line does not mention (left as they are).
    Buttons([Option<Buttons>; 4]),
    Reset,
    Power,
    Quit {
        code: i32,
        message: String,
    },
    Version,
}

impl Reply {
    /// True for the lines that end a frame's answer.
    pub fn ends_frame(&self) -> bool {
        matches!(self, Reply::Buttons(_) | Reply::Quit { .. })
    }
}

/// `nesmind 2 crc32=... prg-crc32=... sha1=... mapper=N file=NAME` (the file name last,
/// as it may hold spaces).
pub fn hello(rom: &RomInfo) -> String {
    format!(
        "nesmind {VERSION} crc32={:08X} prg-crc32={:08X} sha1={} mapper={} file={}",
        rom.crc32,
        rom.prg_crc32,
        rom.sha1_hex(),
        rom.mapper,
        rom.file_name.replace(['\n', '\r'], " ")
    )
}

/// The host's answer to `version`.
pub fn version_line() -> String {
    format!("version {VERSION} nesmind {}", env!("CARGO_PKG_VERSION"))
}

/// First word and the rest, the rest without its leading spaces.
fn split_word(line: &str) -> (&str, &str) {
    let line = line.trim_start();
    match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim_start()),
        None => (line, ""),
    }
}

pub fn parse_attach(line: &str) -> Result<Attach, String> {
    let (word, rest) = split_word(line);
    match word {
        "refuse" => Ok(Attach::Refuse(rest.trim_end().to_string())),
        "version" if rest.is_empty() => Ok(Attach::Version),
        "ok" => {
            let (mut pads, mut ranges) = (None, Vec::new());
            for word in rest.split_whitespace() {
                if let Some(n) = word.strip_prefix("pads=") {
                    let n = n
                        .parse()
                        .ok()
                        .filter(|n| (1..=4).contains(n))
                        .ok_or_else(|| format!("bad '{word}' (pads=1..4)"))?;
                    pads = Some(n);
                } else if ranges.len() == MAX_RANGES {
                    return Err(format!("more than {MAX_RANGES} address ranges"));
                } else {
                    ranges.push(parse_range(word)?);
                }
            }
            Ok(Attach::Ok { pads, ranges })
        }
        _ => Err(format!(
            "expected 'ok ...' or 'refuse ...', got '{}'",
            shorten(line)
        )),
    }
}

pub fn parse_reply(line: &str) -> Result<Reply, String> {
    let (word, rest) = split_word(line);
    match word {
        "status" => Ok(Reply::Status(rest.trim_end().to_string())),
        "buttons" => {
            let mut pads = [None; 4];
            for (i, word) in rest.split_whitespace().enumerate() {
                let slot = pads.get_mut(i).ok_or_else(|| {
                    format!("'buttons' names more than 4 pads: '{}'", shorten(line))
                })?;
                *slot = Some(if word == "-" {
                    Buttons::NONE
                } else {
                    Buttons::parse(word)?
                });
            }
            Ok(Reply::Buttons(pads))
        }
        "reset" if rest.is_empty() => Ok(Reply::Reset),
        "power" if rest.is_empty() => Ok(Reply::Power),
        "version" if rest.is_empty() => Ok(Reply::Version),
        "quit" => {
            let (code, message) = split_word(rest);
            let code = if code.is_empty() {
                0
            } else {
                code.parse::<i32>()
                    .ok()
                    .filter(|c| (0..=125).contains(c))
                    .ok_or_else(|| format!("bad exit code in '{}' (0-125)", shorten(line)))?
            };
            Ok(Reply::Quit {
                code,
                message: message.trim_end().to_string(),
            })
        }
        _ => Err(format!(
            "expected 'buttons', 'status', 'reset', 'power', 'quit' or 'version', got '{}'",
            shorten(line)
        )),
    }
}

/// Parses `XXXX` or `XXXX-YYYY` (hex CPU addresses).
pub fn parse_range(word: &str) -> Result<RangeInclusive<u16>, String> {
    let bad = || format!("bad address range '{}'", shorten(word));
    let hex = |s: &str| {
        if s.is_empty() || s.len() > 4 {
            return Err(bad());
        }
        u16::from_str_radix(s, 16).map_err(|_| bad())
    };
    let (a, b) = match word.split_once('-') {
        Some((a, b)) => (hex(a)?, hex(b)?),
        None => (hex(word)?, hex(word)?),
    };
    if a > b {
        return Err(format!("address range '{word}' runs backwards"));
    }
    Ok(a..=b)
}

/// `frame N HEX ...`: one hex string per range, bytes as `peek` reads them.
pub fn frame_line(
    out: &mut String,
    number: u64,
    ranges: &[RangeInclusive<u16>],
    peek: impl Fn(u16) -> u8,
) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.clear();
    out.push_str("frame ");
    out.push_str(&number.to_string());
    for r in ranges {
        out.push(' ');
        for addr in r.clone() {
            let b = peek(addr);
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
}

/// Splits a command line as a POSIX shell would for words: spaces separate, '...' keeps
/// everything literally, "..." keeps spaces (with \" and \\ escapes), and a backslash
/// outside quotes escapes the next character. No variables, globs or pipes.
pub fn split_command(command: &str) -> Result<Vec<String>, String> {
    let (mut words, mut word, mut in_word) = (Vec::new(), String::new(), false);
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in '{command}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in '{command}'")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in '{command}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(
                    chars
                        .next()
                        .ok_or_else(|| format!("'{command}' ends with a lone backslash"))?,
                );
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A line cut to a readable length for an error message.
pub fn shorten(line: &str) -> String {
    const MAX: usize = 80;
    match line.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        let w = split_command(r#"python3 "my bot.py" --name='a b' x\ y "q\"uote""#).unwrap();
        assert_eq!(w, ["python3", "my bot.py", "--name=a b", "x y", "q\"uote"]);
        assert_eq!(split_command("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(
            split_command("bot 'open")
                .unwrap_err()
                .contains("unclosed '")
        );
        assert!(split_command("bot \\").unwrap_err().contains("backslash"));
    }

    #[test]
    fn replies_parse_and_bad_ones_are_named() {
        assert_eq!(
            parse_reply("status a  b "),
            Ok(Reply::Status("a  b".into()))
        );
        assert_eq!(
            parse_reply("buttons A+Right -"),
            Ok(Reply::Buttons([
                Some(Buttons::A | Buttons::RIGHT),
                Some(Buttons::NONE),
                None,
                None
            ]))
        );
        assert!(
            parse_reply("buttons - - - - -")
                .unwrap_err()
                .contains("more than 4")
        );
        assert_eq!(
            parse_reply("quit 3 lost the game"),
            Ok(Reply::Quit {
                code: 3,
                message: "lost the game".into()
            })
        );
        assert_eq!(
            parse_reply("quit"),
            Ok(Reply::Quit {
                code: 0,
                message: String::new()
            })
        );
        assert!(parse_reply("quit 300").is_err());
        assert_eq!(parse_reply("reset"), Ok(Reply::Reset));
        assert!(parse_reply("reset now").is_err());
        assert!(parse_reply("hello").unwrap_err().contains("got 'hello'"));
    }

    #[test]
    fn attach_answers_parse() {
        assert_eq!(
            parse_attach("ok pads=2 0000-00FF 6000"),
            Ok(Attach::Ok {
                pads: Some(2),
                ranges: vec![0..=0xFF, 0x6000..=0x6000]
            })
        );
        assert_eq!(
            parse_attach("refuse not my game"),
            Ok(Attach::Refuse("not my game".into()))
        );
        assert!(
            parse_attach("ok 00FF-0000")
                .unwrap_err()
                .contains("backwards")
        );
        assert!(parse_attach("ok 12345").is_err());
        assert!(parse_attach("ok pads=5").is_err());
    }
}
