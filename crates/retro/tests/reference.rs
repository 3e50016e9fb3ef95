//! nesmind's evaluation against stable-retro's own: `retro_reference.py` drives each
//! integration's RAM through a random walk under stable-retro's GameData and records info,
//! rewards and done per step (a new episode halfway); the same writes are replayed here and
//! every figure must agree, `script.lua` rewards included. Rewards may differ by float
//! rounding only (stable-retro sums in hash order).

mod common;

use nesmind_retro::{Integration, RAM_SIZE};
use serde_json::Value;
use std::path::Path;

#[test]
fn rewards_and_ends_match_stable_retro() {
    let Some(root) = common::data_root() else {
        return;
    };
    let (python, _) = match common::python() {
        Ok(p) => p,
        Err(e) => return common::cannot_run(&e),
    };
    let out = std::env::temp_dir().join(format!("nesmind-retro-ref-{}.json", std::process::id()));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/retro_reference.py");
    let status = std::process::Command::new(&python)
        .arg(&script)
        .arg(&root)
        .arg(&out)
        .arg("200")
        .status()
        .expect("python runs");
    assert!(status.success(), "{} failed", script.display());
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let reference: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();

    let mut failures = Vec::new();
    let (mut games, mut scripted, mut steps, mut rewarded, mut ended) = (0, 0, 0, 0, 0);
    for (name, record) in &reference {
        let game = Integration::load(&root.join("stable").join(name)).unwrap();
        scripted += usize::from(!game.scenario.needs_lua().is_empty());
        let mut eval = game.evaluator().unwrap();
        let mut ram = [0u8; RAM_SIZE];
        let mut first = None;
        for (i, step) in record.as_array().unwrap().iter().enumerate() {
            if step["restart"].as_bool().unwrap() {
                eval.restart().unwrap();
            }
            for w in step["writes"].as_array().unwrap() {
                ram[w[0].as_u64().unwrap() as usize] = w[1].as_u64().unwrap() as u8;
            }
            let got = eval.update(&ram).unwrap();
            steps += 1;
            rewarded += usize::from(got.rewards.iter().any(|r| *r != 0.0));
            ended += usize::from(got.done);
            let want_done = step["done"].as_bool().unwrap();
            let want_rewards: Vec<f64> = step["rewards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_f64().unwrap())
                .collect();
            let rewards_agree = want_rewards.len() == got.rewards.len()
                && want_rewards
                    .iter()
                    .zip(&got.rewards)
                    .all(|(w, g)| (w - f64::from(*g)).abs() <= 1e-3 * w.abs().max(1.0));
            let info_agrees = step["info"]
                .as_object()
                .unwrap()
                .iter()
                .all(|(k, v)| got.info.get(k).copied() == v.as_i64());
            if first.is_none() && !(rewards_agree && info_agrees && want_done == got.done) {
                first = Some(format!(
                    "{name} step {i}: stable-retro rewards {want_rewards:?} done {want_done}, \
                     nesmind {:?} {}; info {} / {:?}",
                    got.rewards, got.done, step["info"], got.info
                ));
            }
        }
        games += 1;
        failures.extend(first);
    }
    println!(
        "{} of {games} integrations ({scripted} through their script.lua) agree with \
         stable-retro on every one of {steps} steps ({rewarded} with a reward, {ended} done)",
        games - failures.len()
    );
    // The walk must exercise what is compared.
    assert!(rewarded > steps / 10 && ended > steps / 10);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(games, 298, "NES integrations in stable-retro 1.0.1");
    assert_eq!(scripted, 22, "integrations with a script.lua reward");
}
