//! The README's Lua example runs as printed, and Lua plug-ins run side by side on threads.

use nesmind::emu::Rom;
use nesmind::host::{PluginOptions, Session};
use nesmind_lua::LuaPlugin;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The first fenced block of `lang` after `heading` in the README.
fn block(readme: &str, heading: &str, lang: &str) -> String {
    let at = readme.find(heading).expect("the README has the section");
    let fence = format!("```{lang}\n");
    let start = readme[at..].find(&fence).expect("a fenced block") + at + fence.len();
    let end = readme[start..].find("```").unwrap() + start;
    readme[start..end].to_string()
}

#[test]
fn readme_example_runs_as_printed() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let heading = "## Coming from FCEUX/BizHawk Lua";
    let script = block(&readme, heading, "lua");
    let shell = block(&readme, heading, "sh");
    let mut lines = shell.lines();
    let command = lines.next().unwrap().strip_prefix("$ nesmind ").unwrap();
    let dir = std::env::temp_dir().join(format!("nesmind-lua-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bot.lua"), script).unwrap();
    let args: Vec<String> = command
        .split_whitespace()
        .map(|a| match a {
            "bot.lua" => dir.join("bot.lua").display().to_string(),
            a if a.ends_with(".nes") => root().join(a).display().to_string(),
            a => a.to_string(),
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_nesmind"))
        .args(&args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in lines {
        assert!(stdout.contains(want), "no '{want}' in:\n{stdout}");
    }
}

/// Runs the search script on its own session and returns the final RAM.
fn search(target: u8) -> Vec<u8> {
    let image = std::fs::read(root().join("plugins/spot/cart/dots.nes")).unwrap();
    let rom = Rom::parse(&image, "dots.nes").unwrap();
    let mut session = Session::new(rom).unwrap();
    let mut opts = PluginOptions::new();
    opts.insert("target".into(), target.to_string());
    let script = root().join("tests/lua/fceux_search.lua");
    let plugin = LuaPlugin::load(&script, &opts, &image).unwrap();
    session.attach(Box::new(plugin), &[]).unwrap();
    for _ in 0..3000 {
        if let Err(e) = session.step() {
            panic!("target {target}: {e}");
        }
        if session.quit().is_some() {
            break;
        }
    }
    assert!(
        session.quit().is_some(),
        "target {target}: the search did not finish"
    );
    session.machine().ram().to_vec()
}

#[test]
fn sixteen_scripted_machines_run_on_threads() {
    // Sixteen searches, each for a cell of its own, on sixteen threads at once, against the
    // same searches run one after another: every machine ends where it did alone.
    let targets: Vec<u8> = (0..16)
        .map(|i| [0, 3, 42, 45][i % 4] + (i / 4) as u8)
        .collect();
    let alone: Vec<Vec<u8>> = targets.iter().take(4).map(|&t| search(t)).collect();
    let together: Vec<Vec<u8>> = std::thread::scope(|s| {
        let handles: Vec<_> = targets
            .iter()
            .map(|&t| s.spawn(move || search(t)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (i, ram) in together.iter().enumerate() {
        assert_eq!(ram[0x29], targets[i], "machine {i} ended on its own cell");
    }
    assert_eq!(&together[..4], &alone[..]);
}
