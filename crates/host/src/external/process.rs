//! The plug-in's process: started in a process group of its own, talked to through two
//! threads so that neither a silent plug-in nor one that stops reading can block the host
//! (both sides have a timeout), with bounded lines and a bounded queue so a flooding
//! plug-in cannot exhaust memory, and the whole group ended when the host is done with it
//! or is interrupted.

use super::protocol::{MAX_LINE, MAX_LINES_PER_FRAME};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

pub struct Process {
    child: Child,
    /// The process group (the child's pid); 0 once ended.
    group: i32,
    to_child: Option<SyncSender<Vec<u8>>>,
    written: Receiver<Result<(), String>>,
    lines: Receiver<Result<String, String>>,
    pub timeout: Duration,
}

impl Process {
    pub fn spawn(words: &[String], timeout: Duration) -> Result<Process, String> {
        let (program, args) = words
            .split_first()
            .ok_or("ext: needs a command, e.g. ext:python3 bot.py")?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start '{program}': {e}"))?;
        let group = child.id() as i32;
        register(group);
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(format!("cannot connect to '{program}'")),
        };
        let (to_child, from_host) = sync_channel::<Vec<u8>>(1);
        let (ack, written) = sync_channel(1);
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for data in from_host {
                let r = stdin.write_all(&data).and_then(|()| stdin.flush());
                let failed = r.is_err();
                if ack.send(r.map_err(|e| e.to_string())).is_err() || failed {
                    break;
                }
            }
        });
        let (tx, lines) = sync_channel(MAX_LINES_PER_FRAME);
        std::thread::spawn(move || read_lines(stdout, tx));
        Ok(Process {
            child,
            group,
            to_child: Some(to_child),
            written,
            lines,
            timeout,
        })
    }

    /// Writes one line, waiting at most `timeout` for the plug-in to take it.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        let to_child = self.to_child.as_ref().ok_or("its input is closed")?;
        let mut data = Vec::with_capacity(line.len() + 1);
        data.extend_from_slice(line.as_bytes());
        data.push(b'\n');
        let stalled = || {
            format!(
                "stopped reading its input (a line could not be written within {:.1} s)",
                self.timeout.as_secs_f64()
            )
        };
        // The writer holds at most one line: a full queue means the last write is stuck.
        to_child.try_send(data).map_err(|_| stalled())?;
        match self.written.recv_timeout(self.timeout) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("cannot write to it (did it exit?): {e}")),
            Err(RecvTimeoutError::Timeout) => Err(stalled()),
            Err(RecvTimeoutError::Disconnected) => Err("its input is closed".into()),
        }
    }

    /// The next line, waiting at most `timeout`.
    pub fn receive(&mut self) -> Result<String, String> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "no answer within {:.1} s",
                self.timeout.as_secs_f64()
            )),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                Err(format!("closed its output ({status})"))
            }
        }
    }

    /// A line that arrived without being asked for, if any.
    pub fn unasked(&mut self) -> Option<Result<String, String>> {
        self.lines.try_recv().ok()
    }

    /// Closes the plug-in's input, gives it `grace` to exit, then ends its whole process
    /// group (anything it started too).
    pub fn end(&mut self, grace: Duration) {
        self.to_child = None;
        let step = Duration::from_millis(10);
        let mut waited = Duration::ZERO;
        while waited < grace && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(step);
            waited += step;
        }
        end_group(self.group);
        let _ = self.child.kill();
        let _ = self.child.wait();
        unregister(self.group);
        self.group = 0;
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.group != 0 {
            self.end(Duration::ZERO);
        }
    }
}

/// Reads lines of at most `MAX_LINE` bytes into `tx`; a longer line, bytes that are not
/// UTF-8 or a read error end the stream with an error. The bounded queue blocks this
/// thread (not the host) when the plug-in writes faster than the host reads.
fn read_lines(stdout: impl Read, tx: SyncSender<Result<String, String>>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let limit = MAX_LINE as u64 + 2;
        let line = match (&mut reader).take(limit).read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(_) => {
                let ended = buf.last() == Some(&b'\n');
                if ended {
                    buf.pop();
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                if buf.len() > MAX_LINE {
                    Err(format!(
                        "sent a line longer than {MAX_LINE} bytes (no newline within {MAX_LINE} bytes)"
                    ))
                } else {
                    String::from_utf8(std::mem::take(&mut buf))
                        .map_err(|_| "sent a line that is not UTF-8 text".to_string())
                }
            }
            Err(e) => Err(format!("cannot read its output: {e}")),
        };
        let last = line.is_err();
        if tx.send(line).is_err() || last {
            return;
        }
    }
}

/// Process groups of running plug-ins, ended by the signal handler if nesmind is
/// interrupted (their own group does not get the terminal's Ctrl+C).
static GROUPS: [AtomicI32; 16] = [const { AtomicI32::new(0) }; 16];

fn register(group: i32) {
    install_signal_handlers();
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

fn unregister(group: i32) {
    for slot in &GROUPS {
        let _ = slot.compare_exchange(group, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

#[cfg(unix)]
fn end_group(group: i32) {
    if group <= 0 {
        return;
    }
    // SAFETY: kill(2) with a negative pid signals the process group; no memory is shared.
    unsafe {
        if libc::kill(-group, libc::SIGTERM) != 0 {
            return; // the group is gone
        }
    }
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(10));
        // SAFETY: as above; signal 0 only checks that the group still exists.
        if unsafe { libc::kill(-group, 0) } != 0 {
            return;
        }
    }
    // SAFETY: as above.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

#[cfg(not(unix))]
fn end_group(_group: i32) {}

#[cfg(unix)]
fn install_signal_handlers() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    extern "C" fn on_signal(sig: libc::c_int) {
        for slot in &GROUPS {
            let g = slot.load(Ordering::SeqCst);
            if g > 0 {
                // SAFETY: kill(2) is async-signal-safe.
                unsafe { libc::kill(-g, libc::SIGKILL) };
            }
        }
        // SAFETY: signal(2) and raise(3) are async-signal-safe; the default action then
        // ends nesmind as the signal would have.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
    ONCE.call_once(|| {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: only replaces the default action (a frontend's own handler stays).
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                    && old.sa_sigaction == libc::SIG_DFL
                {
                    libc::signal(sig, on_signal as *const () as libc::sighandler_t);
                }
            }
        }
    });
}

#[cfg(not(unix))]
fn install_signal_handlers() {}
