//! The crates may only depend on each other downwards: emu <- host <- plug-ins <- the
//! `nesmind` binary crate (frontend, cli). Cargo already refuses cycles; this test also
//! refuses a new edge that skips a layer, e.g. a plug-in depending on the emulator crate.

use std::path::Path;

/// Each workspace crate and the `nesmind-*` crates it may depend on.
const ALLOWED: &[(&str, &[&str])] = &[
    ("crates/emu", &[]),
    ("crates/host", &["nesmind-emu"]),
    // stable-retro integrations: beside the host, over the machine.
    ("crates/retro", &["nesmind-emu", "nesmind-host"]),
    // Lua scripts as plug-ins: the host's API, and the machine's savestate and ROM types.
    ("crates/lua", &["nesmind-emu", "nesmind-host"]),
    ("plugins/search", &[]),
    ("plugins/spot", &["nesmind-host", "nesmind-search"]),
    ("plugins/hatris", &["nesmind-host", "nesmind-search"]),
    (
        ".",
        &[
            "nesmind-emu",
            "nesmind-host",
            "nesmind-search",
            "nesmind-spot",
            "nesmind-hatris",
            "nesmind-retro",
            "nesmind-lua",
        ],
    ),
    // The Python package sits on top of everything, the `nesmind` crate included.
    (
        "python",
        &[
            "nesmind-emu",
            "nesmind-host",
            "nesmind-spot",
            "nesmind-hatris",
            "nesmind-retro",
        ],
    ),
];

/// The `nesmind-*` names under the manifest's dependency tables.
fn nesmind_dependencies(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line.ends_with("dependencies]");
            continue;
        }
        if in_deps
            && let Some(name) = line.split(['=', '.', ' ']).next()
            && name.starts_with("nesmind-")
        {
            found.push(name.to_string());
        }
    }
    found
}

#[test]
fn crates_depend_only_downwards() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let top = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = top
        .lines()
        .find(|l| l.starts_with("members"))
        .expect("the workspace lists its members");
    for (dir, _) in ALLOWED.iter().filter(|(d, _)| *d != ".") {
        assert!(
            members.contains(&format!("\"{dir}\"")),
            "{dir} is not a workspace member"
        );
    }
    for (dir, allowed) in ALLOWED {
        let text = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
        // The root manifest's [workspace.dependencies] declares every crate; only the
        // package's own tables count.
        let own = match text.find("[package]") {
            Some(at) => &text[at..],
            None => &text[..],
        };
        for dep in nesmind_dependencies(own) {
            assert!(
                allowed.contains(&dep.as_str()),
                "{dir} depends on {dep}, which its layer may not import (allowed: {allowed:?})"
            );
        }
    }
}

/// Every workspace member must be named in ALLOWED, so a new crate gets a layer too.
#[test]
fn every_member_has_a_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let top = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = top.lines().find(|l| l.starts_with("members")).unwrap();
    for quoted in members.split('"').skip(1).step_by(2) {
        assert!(
            ALLOWED.iter().any(|(d, _)| *d == quoted),
            "workspace member {quoted} has no entry in tests/layering.rs"
        );
    }
}
