//! A private X server (Xvfb) for the window tests.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Stops the Xvfb this test started when the test ends, pass or fail.
pub struct Server {
    child: Child,
    display: u32,
    /// Xvfb's own messages: the first thing to read when a client could not connect.
    log: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGTERM lets it remove its socket and lock file; SIGKILL would leave them behind.
        // Sent directly: a minimal Debian has no `kill` program (procps), and waiting on a
        // server that was never signalled hung the test for ever after it had passed.
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with a child's pid, which `wait` below has not reaped yet.
        if unsafe { libc::kill(pid, libc::SIGTERM) } != 0 {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

impl Server {
    /// Whether the server still runs and completes an X connection handshake, with Xvfb's
    /// log when it does not: a window test that fails for want of a display says why.
    pub fn check(&mut self) -> Result<(), String> {
        let log = || std::fs::read_to_string(&self.log).unwrap_or_default();
        if let Ok(Some(status)) = self.child.try_wait() {
            return Err(format!(
                "Xvfb :{} exited ({status}); its log:\n{}",
                self.display,
                log()
            ));
        }
        handshake(self.display).map_err(|e| {
            format!(
                "Xvfb :{} does not answer: {e}; its log:\n{}",
                self.display,
                log()
            )
        })
    }
}

/// Opens an X connection as a client library does (no authorisation, which Xvfb without
/// `-auth` does not ask for) and reads the server's verdict: 1 is success.
fn handshake(display: u32) -> Result<(), String> {
    let path = format!("/tmp/.X11-unix/X{display}");
    let mut s = UnixStream::connect(&path).map_err(|e| format!("connect {path}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    // Byte order 'l', protocol 11.0, empty authorisation name and data.
    s.write_all(&[b'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        .map_err(|e| format!("write: {e}"))?;
    let mut verdict = [0u8; 1];
    s.read_exact(&mut verdict)
        .map_err(|e| format!("read: {e}"))?;
    match verdict[0] {
        1 => Ok(()),
        v => Err(format!(
            "connection setup answered {v} (0 failed, 2 authenticate)"
        )),
    }
}

/// An Xvfb of its own for each test. It picks a free display itself (`-displayfd`) and
/// names it once it accepts connections, so parallel tests and stale sockets from killed
/// servers cannot get in the way. A server that names its display but then does not answer
/// (seen once on CI: nesmind found the socket and SDL could not connect) is replaced; three
/// that fail make the error, with the last one's log.
pub fn start_xvfb() -> Result<(Server, String), String> {
    let mut last = String::new();
    for attempt in 0..3 {
        // `?`: no Xvfb to run is no reason to try again.
        match start_once(attempt)? {
            Ok(mut server) => match server.check() {
                Ok(()) => {
                    let name = format!(":{}", server.display);
                    return Ok((server, name));
                }
                Err(why) => last = why,
            },
            Err(why) => last = why,
        }
    }
    Err(format!("no working Xvfb in 3 tries: {last}"))
}

/// [`start_xvfb`], or `None` after [`cannot_run`](super::cannot_run) says why (which
/// fails the test under CI=true).
pub fn xvfb_or_cannot_run() -> Option<(Server, String)> {
    match start_xvfb() {
        Ok(s) => Some(s),
        Err(why) => {
            super::cannot_run(&why);
            None
        }
    }
}

/// One server: `Err` when Xvfb cannot be run at all, `Ok(Err)` when this one failed.
fn start_once(attempt: u32) -> Result<Result<Server, String>, String> {
    let log = std::env::temp_dir().join(format!(
        "nesmind-xvfb-{}-{attempt}-{:?}.log",
        std::process::id(),
        std::thread::current().id()
    ));
    let err = match std::fs::File::create(&log) {
        Ok(f) => f,
        Err(e) => return Ok(Err(format!("{}: {e}", log.display()))),
    };
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1024x768x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(err)
        .spawn()
        .map_err(|e| format!("Xvfb is not installed ({e}); apt-get install xvfb"))?;
    let stdout = child.stdout.take().expect("piped");
    let mut server = Server {
        child,
        display: 0,
        log,
    };
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    Ok(match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(line) => match line.trim().parse() {
            Ok(n) => {
                server.display = n;
                Ok(server)
            }
            Err(_) => Err(format!(
                "Xvfb named no display ({line:?}); its log:\n{}",
                std::fs::read_to_string(&server.log).unwrap_or_default()
            )),
        },
        Err(_) => Err("Xvfb did not come up within 10 s".into()),
    })
}
