//! The `--dump` file of `sim hatris`: one line per finished game, so a long run that is
//! stopped can be resumed (`--resume`) and its games are not played twice.
//!
//! The first line names the configuration (a checksum of the settings and weights, and the
//! cap); resuming under a different configuration is refused.

use super::super::play::RunResult;
use std::io::Write;
use std::sync::Mutex;

pub struct Record {
    file: Mutex<std::fs::File>,
}

/// The header line identifying the configuration whose games a dump holds.
pub fn header(settings_ron: &str, weights_ron: &str, cap: Option<u64>) -> String {
    format!(
        "# hatris sim: settings {:08x} weights {:08x} cap {}",
        crc32fast::hash(settings_ron.as_bytes()),
        crc32fast::hash(weights_ron.as_bytes()),
        cap.map_or("none".to_string(), |c| c.to_string())
    )
}

fn line(seed: u64, r: &RunResult) -> String {
    let fin = r.finished_at.map_or("-".to_string(), |s| s.to_string());
    format!(
        "{seed} {} {fin} {} {} {}\n",
        r.spawns, r.capped, r.cash, r.level
    )
}

fn parse_line(text: &str) -> Option<(u64, RunResult)> {
    let f: Vec<&str> = text.split_whitespace().collect();
    let [seed, spawns, fin, capped, cash, level] = f[..] else {
        return None;
    };
    Some((
        seed.parse().ok()?,
        RunResult {
            spawns: spawns.parse().ok()?,
            finished_at: if fin == "-" {
                None
            } else {
                Some(fin.parse().ok()?)
            },
            capped: capped.parse().ok()?,
            cash: cash.parse().ok()?,
            level: level.parse().ok()?,
        },
    ))
}

/// The games already in the dump at `path` (none if it does not exist yet).
pub fn load(path: &str, header: &str) -> Result<Vec<(u64, RunResult)>, String> {
    let text = match nesmind_host::files::read_capped_text(
        std::path::Path::new(path),
        256 << 20,
        "a Hatris results dump",
    ) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {path}: {e}")),
    };
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(h) if h == header => {}
        Some(h) => {
            return Err(format!(
                "{path} was written for another configuration ({h}); now: {header}"
            ));
        }
    }
    lines
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_line(l).ok_or(format!("{path}:{}: bad game line '{l}'", i + 2)))
        .collect()
}

impl Record {
    /// Opens the dump for appending, writing the header into a new or empty file.
    pub fn open(path: &str, header: &str) -> Result<Record, String> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {path}: {e}"))?;
        let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(false);
        if empty {
            writeln!(file, "{header}").map_err(|e| format!("cannot write {path}: {e}"))?;
        }
        Ok(Record {
            file: Mutex::new(file),
        })
    }

    /// Appends one finished game; a failed write only loses this record, never the summary.
    pub fn add(&self, seed: u64, r: &RunResult) {
        let _ = self
            .file
            .lock()
            .map(|mut f| f.write_all(line(seed, r).as_bytes()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dumps_resume_and_refuse_other_configurations() {
        let dir = std::env::temp_dir().join(format!("hatris-dump-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.txt").to_string_lossy().to_string();
        let h = header("(a)", "(b)", None);
        assert_eq!(load(&path, &h).unwrap(), vec![]);
        let rec = Record::open(&path, &h).unwrap();
        let r = RunResult {
            spawns: 4000,
            finished_at: Some(2300),
            capped: false,
            cash: 12345,
            level: 60,
        };
        rec.add(7, &r);
        rec.add(
            9,
            &RunResult {
                finished_at: None,
                ..r
            },
        );
        drop(rec);
        let back = load(&path, &h).unwrap();
        assert_eq!(back[0], (7, r));
        assert_eq!(back[1].1.finished_at, None);
        let other = header("(a)", "(c)", None);
        assert!(
            load(&path, &other)
                .unwrap_err()
                .contains("another configuration")
        );
        std::fs::write(&path, format!("{h}\n7 x - false 0 0\n")).unwrap();
        assert!(load(&path, &h).unwrap_err().contains(":2: bad game line"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
