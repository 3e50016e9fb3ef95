//! The crates may only depend on each other downwards: emu <- host <- plug-ins <- the
//! `nesmind` binary crate (frontend, cli). Cargo already refuses cycles; this test also
//! refuses a new edge that skips a layer, e.g. a plug-in depending on the emulator crate.
//! The test-ROM crate (`nesmind-testroms`, over the machine) is what every crate's tests
//! share: any crate may have it as a dev-dependency.

use std::path::Path;

/// Each workspace crate and the `nesmind-*` crates it may depend on.
const ALLOWED: &[(&str, &[&str])] = &[
    ("crates/emu", &[]),
    // The conformance table, result readers and corpus lookup: over the machine only.
    ("crates/testroms", &["nesmind-emu"]),
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
            "nesmind-testroms",
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
            "nesmind-lua",
        ],
    ),
];

/// Any crate's tests may use it.
const SHARED_BY_TESTS: &str = "nesmind-testroms";

/// The `nesmind-*` names under the manifest's dependency tables, each with whether it is
/// a dev-dependency (for the tests only).
fn nesmind_dependencies(manifest: &str) -> Vec<(String, bool)> {
    let mut table: Option<bool> = None;
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            table = line
                .ends_with("dependencies]")
                .then(|| line.ends_with("dev-dependencies]"));
            continue;
        }
        if let Some(dev) = table
            && let Some(name) = line.split(['=', '.', ' ']).next()
            && name.starts_with("nesmind-")
        {
            found.push((name.to_string(), dev));
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
        for (dep, dev) in nesmind_dependencies(own) {
            if dev && dep == SHARED_BY_TESTS && *dir != "crates/testroms" {
                continue;
            }
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

#[test]
fn dev_dependencies_are_told_apart() {
    let manifest = "[package]\n[dependencies]\nnesmind-emu.workspace = true\n\
                    [dev-dependencies]\nnesmind-testroms.workspace = true\n\
                    [target.'cfg(unix)'.dependencies]\nnesmind-host = { path = \"x\" }\n";
    assert_eq!(
        nesmind_dependencies(manifest),
        [
            ("nesmind-emu".to_string(), false),
            ("nesmind-testroms".to_string(), true),
            ("nesmind-host".to_string(), false),
        ]
    );
}
