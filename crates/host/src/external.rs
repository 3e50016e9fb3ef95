//! External plug-ins: any program that speaks this line protocol on stdin/stdout.
//!
//! Attach with `--plugin ext:COMMAND` (COMMAND split on spaces; `--plugin-opt k=v` become
//! extra `--k=v` arguments). Lockstep, one text line per message, hex in upper or lower case:
//!
//! ```text
//! host -> plug-in   nesmind 1 crc32=1A2B3C4D prg-crc32=... sha1=... mapper=0 file=game.nes
//! plug-in -> host   ok [pads=N] [RANGE ...]        RANGE = XXXX or XXXX-YYYY (CPU addresses)
//!              or   refuse REASON
//! then every frame:
//! host -> plug-in   frame N HEX ...                one hex string per RANGE, bytes as peeked
//! plug-in -> host   [status TEXT]                  optional, shown by the frontend
//!                   buttons P1 [P2 P3 P4]          e.g. `buttons Start`, `buttons A+Right -`
//! at the end:
//! host -> plug-in   bye                            then stdin closes; the program should exit
//! ```
//! Lines a plug-in writes to stderr go straight to the user's terminal. A plug-in that
//! exits, answers garbage or stays silent for `timeout` seconds (default 10) ends the run
//! with an error naming the problem.

use super::{Buttons, Frame, Plugin, PluginOptions, RomInfo, Setup};
use std::io::{BufRead, BufReader, Write};
use std::ops::RangeInclusive;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

pub const PREFIX: &str = "ext:";

pub struct External {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    timeout: Duration,
    ranges: Vec<RangeInclusive<u16>>,
    failed: Option<String>,
    /// The last status line, reported as the plug-in's result.
    last_status: Option<String>,
    out: String,
}

impl External {
    /// Starts `command` (e.g. `python3 plugins/examples/start_presser.py`).
    pub fn spawn(command: &str, opts: &PluginOptions) -> Result<External, String> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or("ext: needs a command, e.g. ext:python3 bot.py")?;
        let mut timeout = 10.0;
        let mut args: Vec<String> = words.map(String::from).collect();
        for (k, v) in opts {
            if k == "timeout" {
                timeout = v.parse::<f64>().ok().filter(|t| *t > 0.0).ok_or_else(|| {
                    format!("--plugin-opt timeout={v}: expected seconds, e.g. timeout=10")
                })?;
            } else {
                args.push(format!("--{k}={v}"));
            }
        }
        let mut child = Command::new(program)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start external plug-in '{command}': {e}"))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = channel();
        // A reader thread lets the host wait with a timeout instead of blocking forever.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(External {
            name: format!("{PREFIX}{command}"),
            last_status: None,
            stdin: child.stdin.take(),
            child,
            lines: rx,
            timeout: Duration::from_secs_f64(timeout),
            ranges: Vec::new(),
            failed: None,
            out: String::new(),
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("the plug-in's input is closed")?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the plug-in (did it exit?): {e}"))
    }

    fn receive(&mut self) -> Result<String, String> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "no answer within {:.1} s",
                self.timeout.as_secs_f64()
            )),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                Err(format!("the plug-in closed its output ({status})"))
            }
        }
    }

    fn frame(&mut self, frame: &mut dyn Frame) -> Result<(), String> {
        self.out.clear();
        self.out
            .push_str(&format!("frame {}", frame.frame_number()));
        for r in &self.ranges {
            self.out.push(' ');
            for addr in r.clone() {
                let b = frame.peek(addr);
                self.out
                    .push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
                self.out
                    .push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0'));
            }
        }
        let out = std::mem::take(&mut self.out);
        self.send(&out)?;
        self.out = out;
        loop {
            let line = self.receive()?;
            if let Some(text) = line.strip_prefix("status ") {
                frame.set_status(text);
                self.last_status = Some(text.to_string());
            } else if let Some(rest) = line.strip_prefix("buttons") {
                for (pad, word) in rest.split_whitespace().take(4).enumerate() {
                    let b = if word == "-" {
                        Buttons::NONE
                    } else {
                        Buttons::parse(word)?
                    };
                    frame.set_buttons(pad, b);
                }
                return Ok(());
            } else {
                return Err(format!(
                    "expected 'buttons ...' or 'status ...', got '{line}'"
                ));
            }
        }
    }
}

/// Parses `XXXX` or `XXXX-YYYY` (hex CPU addresses).
fn parse_range(word: &str) -> Result<RangeInclusive<u16>, String> {
    let hex =
        |s: &str| u16::from_str_radix(s, 16).map_err(|_| format!("bad address range '{word}'"));
    let (a, b) = match word.split_once('-') {
        Some((a, b)) => (hex(a)?, hex(b)?),
        None => (hex(word)?, hex(word)?),
    };
    if a > b {
        return Err(format!("address range '{word}' runs backwards"));
    }
    Ok(a..=b)
}

impl Plugin for External {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        "external program speaking the nesmind line protocol"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.send(&format!(
            "nesmind 1 crc32={:08X} prg-crc32={:08X} sha1={} mapper={} file={}",
            rom.crc32,
            rom.prg_crc32,
            rom.sha1_hex(),
            rom.mapper,
            rom.file_name
        ))?;
        let line = self.receive()?;
        if let Some(reason) = line.strip_prefix("refuse") {
            return Err(reason.trim().to_string());
        }
        let rest = line
            .strip_prefix("ok")
            .ok_or_else(|| format!("expected 'ok ...' or 'refuse ...', got '{line}'"))?;
        for word in rest.split_whitespace() {
            if let Some(n) = word.strip_prefix("pads=") {
                let n: usize = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| format!("bad '{word}' (pads=1..4)"))?;
                setup.use_pads(n);
            } else {
                self.ranges.push(parse_range(word)?);
            }
        }
        Ok(())
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        if self.failed.is_none()
            && let Err(e) = self.frame(frame)
        {
            self.failed = Some(e);
        }
    }
    fn on_detach(&mut self) {
        let _ = self.send("bye");
        self.stdin = None;
        // Give the program a moment to exit on its own, then make sure it is gone.
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
    fn result(&self) -> Option<String> {
        self.last_status.clone()
    }
    fn error(&self) -> Option<String> {
        self.failed.clone()
    }
}

impl Drop for External {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
