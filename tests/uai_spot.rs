//! `nesmind uai spot` as a process: the command line reaches the UAI engine, a piped session
//! ends with the answers in order, and bad arguments are refused.

use std::io::Write;
use std::process::{Command, Stdio};

fn uai(args: &[&str], input: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(["uai", "spot"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nesmind starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_piped_session_answers_in_order() {
    let o = uai(
        &[],
        "uai\nisready\nposition startpos moves f2\ngo depth 3\nposition startpos\nnonsense\ngo nodes 3000\n",
    );
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[2..4], ["uaiok", "readyok"], "{text}");
    let bestmoves: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    assert_eq!(bestmoves.len(), 2, "{text}");
    assert!(text.contains("info depth 3 score "), "{text}");
    assert!(
        text.contains("info string error: unknown command 'nonsense'"),
        "{text}"
    );
}

#[test]
fn arguments_are_refused_and_help_is_printed() {
    let o = uai(&["--depth", "3"], "");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("takes no arguments"));
    let o = uai(&["--help"], "");
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("Universal Ataxx Interface"));
}
