//! AccuracyCoin (100thCoin): 141 tests in one ROM behind a menu. Start pressed on the page
//! header runs them all; each test leaves a result byte in RAM, named by the test table in
//! the ROM's source (`table "Name", $FF, result_X, TEST_Y` with `result_X = $ADDR`).
//!
//! Result bytes: $01 pass, `(code << 2) | 1` a pass by an accepted variant, `(code << 2) | 2`
//! a failure with error code `code` (the README lists them per test), $FF skipped, $00 not
//! run. $37 counts the tests run and $38 holds the pass tally once the table is drawn.

use nesmind_emu::Buttons;
use nesmind_emu::{Machine, Rom, Speedups};
use std::collections::HashMap;

const TESTS_RUN: u16 = 0x37;
const PASS_TALLY: u16 = 0x38;
/// Frames Start is held for.
const PRESS_FRAMES: u32 = 2;

/// One test of the table: its name and where its result byte lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    pub name: String,
    pub addr: u16,
}

/// One run's result: the ROM's own tally and the tests that did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    pub passed: u32,
    pub total: u32,
    /// Name and what the result byte says ("fail 7", "not run", ...).
    pub failing: Vec<(String, String)>,
}

/// The tests in the order of the table, without the DRAW entries (results on page $03,
/// which the ROM leaves out of its own count).
pub fn tests(asm: &str) -> Result<Vec<Test>, String> {
    let mut addrs = HashMap::new();
    for line in asm.lines() {
        let code = line.split(';').next().unwrap_or("");
        if let Some((name, value)) = code.split_once('=') {
            let name = name.trim();
            let value = value.trim();
            if let (true, Some(hex)) = (name.starts_with("result_"), value.strip_prefix('$'))
                && let Ok(a) = u16::from_str_radix(hex, 16)
            {
                addrs.insert(name.to_string(), a);
            }
        }
    }
    let mut out = Vec::new();
    for line in asm.lines() {
        let code = line.trim_start();
        let Some(rest) = code.strip_prefix("table \"") else {
            continue;
        };
        let Some((name, rest)) = rest.split_once('"') else {
            continue;
        };
        let fields: Vec<&str> = rest.split(',').map(str::trim).collect();
        let Some(result) = fields.get(2) else {
            return Err(format!("test table line without a result address: {line}"));
        };
        let addr = *addrs
            .get(*result)
            .ok_or_else(|| format!("test '{name}': no address for {result}"))?;
        if addr >= 0x0400 {
            out.push(Test {
                name: name.split_whitespace().collect::<Vec<_>>().join(" "),
                addr,
            });
        }
    }
    if out.is_empty() {
        return Err("no test table found in the AccuracyCoin source".into());
    }
    Ok(out)
}

/// What a result byte means.
pub fn verdict(byte: u8) -> Result<(), String> {
    let code = byte >> 2;
    let code_text = if code < 10 {
        char::from(b'0' + code)
    } else {
        char::from(b'A' + code - 10)
    };
    match byte {
        0x00 => Err("not run".into()),
        0xFF => Err("skipped".into()),
        b if b & 3 == 1 => Ok(()),
        b if b & 3 == 2 => Err(format!("fail {code_text}")),
        b => Err(format!("result byte {b:#04X}")),
    }
}

/// Powers on, presses Start at frame `start_frame` (the cursor starts on the page header)
/// and reads every result once the ROM has drawn its table.
pub fn run(
    rom: &Rom,
    tests: &[Test],
    start_frame: u32,
    frames: u32,
    speedups: Speedups,
) -> Result<Score, String> {
    let mut m = crate::machine(rom, speedups)?;
    let frame = |m: &mut Machine| {
        m.run_frame()
            .map_err(|e| format!("frame {}: {e}", m.frame_number()))
    };
    for _ in 0..start_frame {
        frame(&mut m)?;
    }
    m.set_buttons(0, Buttons::START);
    for _ in 0..PRESS_FRAMES {
        frame(&mut m)?;
    }
    m.set_buttons(0, Buttons::NONE);
    let total = tests.len() as u32;
    let mut f = start_frame + PRESS_FRAMES;
    // The tally is written when the table is drawn, after the last test.
    while m.peek(PASS_TALLY) == 0 || u32::from(m.peek(TESTS_RUN)) < total {
        if f >= frames {
            return Err(format!(
                "no result table after {frames} frames ({} of {total} tests run)",
                m.peek(TESTS_RUN)
            ));
        }
        frame(&mut m)?;
        f += 1;
    }
    let failing = tests
        .iter()
        .filter_map(|t| verdict(m.peek(t.addr)).err().map(|e| (t.name.clone(), e)))
        .collect();
    Ok(Score {
        passed: u32::from(m.peek(PASS_TALLY)),
        total,
        failing,
    })
}

/// Runs at every Start frame in `starts`; the verdict line names the lowest score and the
/// failing tests (those failing at only some alignments marked with the count).
pub fn check(
    rom: &Rom,
    asm: &str,
    starts: &[u32],
    frames: u32,
    min: u32,
    speedups: Speedups,
) -> Result<String, String> {
    let tests = tests(asm)?;
    let mut scores = Vec::new();
    for &s in starts {
        scores.push(run(rom, &tests, s, frames, speedups)?);
    }
    let lowest = scores.iter().map(|s| s.passed).min().unwrap_or(0);
    let highest = scores.iter().map(|s| s.passed).max().unwrap_or(0);
    let total = scores.first().map_or(0, |s| s.total);
    let mut named: Vec<(String, String, usize)> = Vec::new();
    for s in &scores {
        for (name, why) in &s.failing {
            match named.iter_mut().find(|(n, w, _)| n == name && w == why) {
                Some(entry) => entry.2 += 1,
                None => named.push((name.clone(), why.clone(), 1)),
            }
        }
    }
    let list: Vec<String> = named
        .iter()
        .map(|(n, w, k)| {
            if *k == scores.len() {
                format!("{n} ({w})")
            } else {
                format!("{n} ({w}, {k} of {} runs)", scores.len())
            }
        })
        .collect();
    let range = if lowest == highest {
        format!("{lowest}/{total}")
    } else {
        format!("{lowest}-{highest}/{total}")
    };
    let text = format!(
        "{range} over {} Start frames; failing: {}",
        scores.len(),
        if list.is_empty() {
            "none".into()
        } else {
            list.join(", ")
        }
    );
    if lowest >= min {
        Ok(text)
    } else {
        Err(format!("{text} (needs {min})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_each_result_address_and_leaves_out_draw_entries() {
        let asm = "result_A = $0405 ; comment\nresult_B = $40A\nresult_DrawTest = $03FF\n\
                   Suite:\n\ttable \"First, one\",  $FF, result_A, TEST_A\n\
                   \ttable \"Draw\", $FF, result_DrawTest, TEST_D\n\
                   \ttable \"Second\", $FF, result_B, TEST_B\n";
        let t = tests(asm).unwrap();
        assert_eq!(
            t,
            [
                Test {
                    name: "First, one".into(),
                    addr: 0x405
                },
                Test {
                    name: "Second".into(),
                    addr: 0x40A
                }
            ]
        );
        assert!(
            tests("table \"X\", $FF, result_Q, T\n")
                .unwrap_err()
                .contains("result_Q")
        );
    }

    #[test]
    fn result_bytes_decode_as_the_readme_says() {
        assert_eq!(verdict(0x01), Ok(()));
        assert_eq!(verdict((3 << 2) | 1), Ok(()));
        assert_eq!(verdict((7 << 2) | 2), Err("fail 7".into()));
        assert_eq!(verdict((14 << 2) | 2), Err("fail E".into()));
        assert_eq!(verdict(0x00), Err("not run".into()));
        assert_eq!(verdict(0xFF), Err("skipped".into()));
    }
}
