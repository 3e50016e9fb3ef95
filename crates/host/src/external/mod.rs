//! External plug-ins: any program that speaks the line protocol of
//! `docs/plugin-protocol.md` on its stdin and stdout.
//!
//! Attach with `--plugin ext:COMMAND` (COMMAND split into words as a shell would, quotes
//! and backslashes included; `--plugin-opt k=v` become extra `--k=v` arguments, except
//! `timeout=SECONDS`, the host's patience for each read and write, default 10).
//!
//! Whatever the program does, the host stays in charge: lines are bounded
//! (`protocol::MAX_LINE`), so is the number of lines per frame, a plug-in that stops
//! answering or stops reading meets the timeout, and the program runs in a process group
//! of its own that is ended, with anything it started, when the run ends. Each failure
//! ends the run with a message naming the plug-in and what it did.

mod process;
pub mod protocol;

use super::{Frame, Plugin, PluginOptions, Request, RomInfo, Setup};
use process::Process;
use protocol::{Attach, MAX_LINES_PER_FRAME, Reply, shorten};
use std::ops::RangeInclusive;
use std::time::Duration;

pub const PREFIX: &str = "ext:";

pub struct External {
    name: String,
    process: Process,
    ranges: Vec<RangeInclusive<u16>>,
    failed: Option<String>,
    /// The last status line, reported as the plug-in's result.
    last_status: Option<String>,
    out: String,
}

impl External {
    /// Starts `command` (e.g. `python3 plugins/examples/start_presser.py`).
    pub fn spawn(command: &str, opts: &PluginOptions) -> Result<External, String> {
        let mut words = protocol::split_command(command)?;
        let mut timeout = 10.0;
        for (k, v) in opts {
            if k == "timeout" {
                timeout = v
                    .parse::<f64>()
                    .ok()
                    .filter(|t| *t > 0.0 && *t < 1e6)
                    .ok_or_else(|| {
                        format!("--plugin-opt timeout={v}: expected seconds, e.g. timeout=10")
                    })?;
            } else {
                words.push(format!("--{k}={v}"));
            }
        }
        let process = Process::spawn(&words, Duration::from_secs_f64(timeout))
            .map_err(|e| format!("cannot start external plug-in '{command}': {e}"))?;
        Ok(External {
            name: format!("{PREFIX}{command}"),
            process,
            ranges: Vec::new(),
            failed: None,
            last_status: None,
            out: String::new(),
        })
    }

    fn frame(&mut self, frame: &mut dyn Frame) -> Result<(), String> {
        if let Some(line) = self.process.unasked() {
            return Err(format!(
                "sent '{}' before frame {} was sent (the protocol is lockstep: one answer per frame)",
                shorten(&line?),
                frame.frame_number()
            ));
        }
        let mut out = std::mem::take(&mut self.out);
        protocol::frame_line(&mut out, frame.frame_number(), &self.ranges, |a| {
            frame.peek(a)
        });
        let sent = self.process.send(&out);
        self.out = out;
        sent?;
        for _ in 0..MAX_LINES_PER_FRAME {
            let line = self.process.receive()?;
            let reply = protocol::parse_reply(&line)?;
            let ends = reply.ends_frame();
            match reply {
                Reply::Status(text) => {
                    frame.set_status(&text);
                    self.last_status = Some(text);
                }
                Reply::Buttons(pads) => {
                    for (pad, b) in pads.iter().enumerate() {
                        if let Some(b) = b {
                            frame.set_buttons(pad, *b);
                        }
                    }
                }
                Reply::Reset => frame.request(Request::Reset),
                Reply::Power => frame.request(Request::Power),
                Reply::Quit { code, message } => frame.request(Request::Quit { code, message }),
                Reply::Version => self.process.send(&protocol::version_line())?,
            }
            if ends {
                return Ok(());
            }
        }
        Err(format!(
            "sent {MAX_LINES_PER_FRAME} lines for frame {} without 'buttons' or 'quit'",
            frame.frame_number()
        ))
    }
}

impl Plugin for External {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        "external program speaking the nesmind line protocol"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.process.send(&protocol::hello(rom))?;
        for _ in 0..MAX_LINES_PER_FRAME {
            match protocol::parse_attach(&self.process.receive()?)? {
                Attach::Version => self.process.send(&protocol::version_line())?,
                Attach::Refuse(reason) => return Err(reason),
                Attach::Ok { pads, ranges } => {
                    if let Some(n) = pads {
                        setup.use_pads(n);
                    }
                    self.ranges = ranges;
                    return Ok(());
                }
            }
        }
        Err(format!(
            "sent {MAX_LINES_PER_FRAME} lines without 'ok' or 'refuse'"
        ))
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        if self.failed.is_none()
            && let Err(e) = self.frame(frame)
        {
            self.failed = Some(e);
        }
    }
    fn on_detach(&mut self) {
        // A plug-in that failed gets no goodbye and no time to leave: it is not listening.
        let grace = if self.failed.is_none() && self.process.send("bye").is_ok() {
            Duration::from_secs(1)
        } else {
            Duration::ZERO
        };
        self.process.end(grace);
    }
    fn result(&self) -> Option<String> {
        self.last_status.clone()
    }
    fn error(&self) -> Option<String> {
        self.failed.clone()
    }
}
