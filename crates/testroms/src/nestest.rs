//! nestest: run the automation entry point and compare every instruction with the log.

use nesmind_emu::trace::TraceLine;
use nesmind_emu::{Rom, Speedups};

/// Compares the trace against `log`; Ok(lines matched) or the first mismatch described.
pub fn run(rom: &Rom, log: &str, speedups: Speedups) -> Result<usize, String> {
    let mut m = crate::machine(rom, speedups)?;
    // Automation mode: start at $C000 instead of the reset vector (which waits for input).
    m.cpu_mut().pc = 0xC000;
    let mut count = 0;
    for (i, text) in log.lines().enumerate() {
        let want = TraceLine::parse_nestest(text)
            .ok_or_else(|| format!("nestest.log line {} is unreadable", i + 1))?;
        m.sync();
        let got = TraceLine::capture(&m);
        if got != want {
            return Err(format!(
                "line {}:\n  expected {want}\n  got      {got}",
                i + 1
            ));
        }
        m.step().map_err(|e| format!("line {}: {e}", i + 1))?;
        count += 1;
    }
    let (r2, r3) = (m.peek(0x02), m.peek(0x03));
    if r2 != 0 || r3 != 0 {
        return Err(format!(
            "trace matched but nestest reports errors: $02={r2:02X} $03={r3:02X}"
        ));
    }
    Ok(count)
}
