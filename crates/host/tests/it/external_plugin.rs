//! The Python example plug-in driving a real game over the line protocol (and the
//! command line running it: `tests/cli_run.rs`).

use nesmind_emu::Rom;
use nesmind_host::external::External;
use nesmind_host::{Buttons, PluginOptions, Session};
use nesmind_testroms::support::{cannot_run, corpus, python3, workspace_path};

/// The example plug-in (`plugins/examples/start_presser.py`).
fn example() -> String {
    workspace_path("plugins/examples/start_presser.py")
        .display()
        .to_string()
}

#[test]
fn python_example_reads_ram_and_presses_buttons() {
    let Some(py) = python3() else {
        cannot_run("no python3 on PATH, the external plug-in example cannot run");
        return;
    };
    let corpus = corpus();
    let rom = Rom::load(&corpus.join("homebrew/lawn_mower/lawn_mower.nes")).unwrap();
    let mut s = Session::new(rom).unwrap();
    let mut opts = PluginOptions::new();
    opts.insert("press".into(), "40".into());
    let plugin = External::spawn(&format!("{py} {}", example()), &opts).unwrap();
    s.attach(Box::new(plugin), &[]).unwrap();
    for _ in 0..120 {
        s.step().unwrap();
        let n = s.machine().frame_number();
        // The plug-in's status echoes the zero page it was sent at this frame.
        let want: u32 = s.machine().ram()[..256].iter().map(|&b| u32::from(b)).sum();
        assert_eq!(s.status(), format!("frame {n} zp-sum {want}"));
        let held = s.machine().buttons(0);
        match n {
            40..=44 => assert_eq!(held, Buttons::START, "frame {n}"),
            70.. => assert_eq!(held, Buttons::RIGHT, "frame {n}"),
            _ => assert_eq!(held, Buttons::NONE, "frame {n}"),
        }
    }
    assert_eq!(s.detach(), Some(s.status().to_string()));
}

#[test]
fn a_broken_external_plugin_ends_the_run_with_its_problem() {
    let Some(py) = python3() else {
        cannot_run("no python3 on PATH");
        return;
    };
    let corpus = corpus();
    let rom = Rom::load(&corpus.join("homebrew/lawn_mower/lawn_mower.nes")).unwrap();
    // Answers the handshake, then talks nonsense.
    let script = "import sys\nsys.stdin.readline()\nprint('ok', flush=True)\nsys.stdin.readline()\nprint('jump please', flush=True)\n";
    let path = std::env::temp_dir().join(format!("nesmind-bad-plugin-{}.py", std::process::id()));
    std::fs::write(&path, script).unwrap();
    let mut s = Session::new(rom.clone()).unwrap();
    let p = External::spawn(&format!("{py} {}", path.display()), &PluginOptions::new()).unwrap();
    s.attach(Box::new(p), &[]).unwrap();
    let err = s.step().unwrap_err().to_string();
    assert!(err.contains("jump please"), "{err}");

    // One that refuses the ROM.
    let refuse =
        "import sys\nsys.stdin.readline()\nprint('refuse only plays Tetris', flush=True)\n";
    std::fs::write(&path, refuse).unwrap();
    let mut s = Session::new(rom).unwrap();
    let p = External::spawn(&format!("{py} {}", path.display()), &PluginOptions::new()).unwrap();
    let err = s.attach(Box::new(p), &[]).unwrap_err();
    assert!(err.contains("only plays Tetris"), "{err}");
}
