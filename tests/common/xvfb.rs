//! A private X server (Xvfb) for the window tests.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Stops the Xvfb this test started when the test ends, pass or fail.
pub struct Server(Child);
impl Drop for Server {
    fn drop(&mut self) {
        // SIGTERM lets it remove its socket and lock file; SIGKILL would leave them behind.
        // Sent directly: a minimal Debian has no `kill` program (procps), and waiting on a
        // server that was never signalled hung the test for ever after it had passed.
        let pid = self.0.id() as libc::pid_t;
        // SAFETY: kill(2) with a child's pid, which `wait` below has not reaped yet.
        if unsafe { libc::kill(pid, libc::SIGTERM) } != 0 {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

/// An Xvfb of its own for each test. It picks a free display itself (`-displayfd`) and
/// names it once it accepts connections, so parallel tests and stale sockets from killed
/// servers cannot get in the way.
pub fn start_xvfb() -> Result<(Server, String), String> {
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
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("Xvfb is not installed ({e}); apt-get install xvfb"))?;
    let stdout = child.stdout.take().expect("piped");
    let server = Server(child);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(line) if !line.trim().is_empty() => Ok((server, format!(":{}", line.trim()))),
        _ => Err("Xvfb did not come up within 10 s".into()),
    }
}
