//! Steps an integration's variables, rewards and ends over successive RAM snapshots, as
//! stable-retro's `update_ram` does after each emulated step: deltas are against the RAM
//! of the previous update (zero on the very first), the reward is summed over each
//! player's variables, and the done test walks the node tree with `any`/`all`.

use crate::data::{GameData, RAM_SIZE};
use crate::scenario::{DoneNode, Scenario};
use crate::script::Scripts;
use std::collections::BTreeMap;
use std::path::Path;

/// What one update yields.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// This step's reward, per player of the scenario (at least one).
    pub rewards: Vec<f32>,
    pub done: bool,
    /// Every `data.json` variable's value (stable-retro's `info`).
    pub info: BTreeMap<String, i64>,
}

/// An integration's data and scenario, with the RAM of the last update.
#[derive(Clone, Debug)]
pub struct Evaluator {
    data: GameData,
    scenario: Scenario,
    last: Option<Box<[u8; RAM_SIZE]>>,
    totals: Vec<f32>,
    /// The scenario's Lua, when it lists scripts.
    scripts: Option<Scripts>,
    /// Updates since the episode began (`scenario.frame` to scripts).
    frame: u64,
}

impl Evaluator {
    /// An evaluator for a scenario whose `scripts` (if any) lie in `base`, the scenario
    /// file's folder (an integration's own folder for its `scenario.json`).
    pub fn load(data: GameData, scenario: Scenario, base: &Path) -> Result<Evaluator, String> {
        let scripts = if scenario.scripts.is_empty() {
            None
        } else {
            Some(Scripts::load(&scenario.scripts, base)?)
        };
        Evaluator::with_scripts(data, scenario, scripts)
    }

    /// An evaluator for a scenario that loads no scripts.
    pub fn new(data: GameData, scenario: Scenario) -> Result<Evaluator, String> {
        Evaluator::with_scripts(data, scenario, None)
    }

    /// Checks that every variable the scenario names exists, and that each Lua function it
    /// calls is defined by `scripts`.
    pub fn with_scripts(
        data: GameData,
        scenario: Scenario,
        scripts: Option<Scripts>,
    ) -> Result<Evaluator, String> {
        let lua = scenario.needs_lua();
        match &scripts {
            None if !lua.is_empty() => {
                return Err(format!(
                    "the scenario calls {} but loads no script (its \"scripts\" list is empty)",
                    lua.join(", ")
                ));
            }
            None => {}
            Some(s) => {
                for f in &lua {
                    s.check_function(f)?;
                }
            }
        }
        for name in scenario.variables() {
            data.get(name)
                .map_err(|e| format!("the scenario uses {name:?}, but there is {e}"))?;
        }
        let players = scenario.rewards.len().max(1);
        Ok(Evaluator {
            data,
            scenario,
            last: None,
            totals: vec![0.0; players],
            scripts,
            frame: 0,
        })
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn data(&self) -> &GameData {
        &self.data
    }

    /// Each player's reward summed since the last `restart`.
    pub fn totals(&self) -> &[f32] {
        &self.totals
    }

    /// A new episode: the totals start again and the scripts run afresh (stable-retro
    /// reloads them). Like stable-retro, the RAM of the last update is kept, so the first
    /// deltas of the new episode are against it.
    pub fn restart(&mut self) -> Result<(), String> {
        self.totals.iter_mut().for_each(|t| *t = 0.0);
        self.frame = 0;
        match &mut self.scripts {
            Some(s) => s.restart(),
            None => Ok(()),
        }
    }

    /// Takes the RAM after a step and evaluates it.
    pub fn update(&mut self, ram: &[u8]) -> Result<Step, String> {
        let ram: &[u8; RAM_SIZE] = ram
            .try_into()
            .map_err(|_| format!("RAM must be {RAM_SIZE} bytes, got {}", ram.len()))?;
        let info = self.data.read_all(ram)?;
        let delta = |name: &str| -> i64 {
            match (&self.last, self.data.vars.get(name)) {
                // Variables were all read above, so these reads succeed.
                (Some(last), Some(v)) => {
                    info[name].wrapping_sub(v.read(&last[..]).unwrap_or(info[name]))
                }
                _ => 0,
            }
        };
        if let Some(s) = &self.scripts {
            s.set_step(&info, ram, self.frame)?;
        }
        // As stable-retro: the end first, then the rewards; a script function replaces
        // the variables' evaluation.
        let done = match (&self.scenario.done_script, &self.scripts) {
            (Some(f), Some(s)) => s.done(f)?,
            _ => node_done(&self.scenario.done, &info, &delta),
        };
        let mut rewards = vec![0.0f32; self.totals.len()];
        for (player, r) in self.scenario.rewards.iter().enumerate() {
            if let (Some(f), Some(s)) = (&r.script, &self.scripts) {
                rewards[player] = s.reward(f)?;
                continue;
            }
            let mut sum = r.time.as_ref().map_or(0.0, |t| t.worth(1, 1));
            for (name, spec) in &r.vars {
                sum += spec.worth(info[name.as_str()], delta(name));
            }
            rewards[player] = sum;
        }
        for (t, r) in self.totals.iter_mut().zip(&rewards) {
            *t += r;
        }
        let mut info = info;
        if let Some(s) = &self.scripts {
            let custom = s.custom_values(&info);
            info.extend(custom);
        }
        self.last = Some(Box::new(*ram));
        self.frame += 1;
        Ok(Step {
            rewards,
            done,
            info,
        })
    }
}

fn node_done(node: &DoneNode, info: &BTreeMap<String, i64>, delta: &dyn Fn(&str) -> i64) -> bool {
    let vars = node
        .vars
        .iter()
        .map(|(name, spec)| spec.test(info[name.as_str()], delta(name)));
    let nodes = node.nodes.iter().map(|(_, n)| node_done(n, info, delta));
    let mut all = vars.chain(nodes);
    if node.all {
        all.all(|d| d)
    } else {
        all.any(|d| d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(data: &str, scen: &str) -> Evaluator {
        Evaluator::new(
            GameData::parse(data).unwrap(),
            Scenario::parse(scen).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn rewards_are_deltas_and_penalties() {
        let mut e = eval(
            r#"{"info": {"x": {"address": 0, "type": "|u1"}, "lives": {"address": 1, "type": "|i1"}}}"#,
            r#"{"reward": {"variables": {"x": {"reward": 2}, "lives": {"penalty": 10}}},
                "done": {"variables": {"lives": {"op": "equal", "reference": -1}}}}"#,
        );
        let mut ram = [0u8; RAM_SIZE];
        ram[1] = 2;
        let s = e.update(&ram).unwrap();
        assert_eq!((s.rewards[0], s.done), (0.0, false));
        ram[0] = 5;
        assert_eq!(e.update(&ram).unwrap().rewards[0], 10.0);
        // A fall with no penalty is worth nothing; a life lost costs the penalty.
        ram[0] = 1;
        ram[1] = 1;
        assert_eq!(e.update(&ram).unwrap().rewards[0], -10.0);
        ram[1] = 0xFF;
        let s = e.update(&ram).unwrap();
        assert!(s.done);
        assert_eq!(e.totals()[0], -10.0 + 10.0 - 20.0);
    }

    #[test]
    fn nested_nodes_any_and_all() {
        let data =
            r#"{"info": {"a": {"address": 0, "type": "|u1"}, "b": {"address": 1, "type": "|u1"}}}"#;
        let mut e = eval(
            data,
            r#"{"done": {"condition": "all", "variables": {"a": {"op": "zero"}},
                 "nodes": {"n": {"variables": {"b": {"op": "greater-than", "reference": 3},
                                               "a": {"op": "nonzero"}}}}}}"#,
        );
        let mut ram = [0u8; RAM_SIZE];
        assert!(!e.update(&ram).unwrap().done);
        ram[1] = 4;
        assert!(e.update(&ram).unwrap().done);
        let mut empty_all = eval(data, r#"{"done": {"condition": "all"}}"#);
        assert!(empty_all.update(&ram).unwrap().done);
        let mut empty_any = eval(data, r#"{"done": {}}"#);
        assert!(!empty_any.update(&ram).unwrap().done);
    }

    #[test]
    fn script_functions_replace_the_variables_evaluation() {
        let data = r#"{"info": {"a": {"address": 0, "type": "|u1"}}}"#;
        let scenario = r#"{"reward": {"script": "lua:best", "variables": {"a": {"reward": 100}}},
            "done": {"script": "lua:over", "variables": {"a": {"op": "equal", "reference": 1}}},
            "scripts": ["script.lua"]}"#;
        let lua = "top = 0
            function best() if data.a > top then local d = data.a - top; top = data.a; return d end return 0 end
            function over() data.flag = data[1] return data[1] == 9 end";
        let scripts = Scripts::from_sources(vec![("script.lua".into(), lua.into())]).unwrap();
        let mut e = Evaluator::with_scripts(
            GameData::parse(data).unwrap(),
            Scenario::parse(scenario).unwrap(),
            Some(scripts),
        )
        .unwrap();
        let mut ram = [0u8; RAM_SIZE];
        let mut got = Vec::new();
        for (a, flag) in [(1, 0), (4, 0), (2, 0), (6, 9)] {
            ram[0] = a;
            ram[1] = flag;
            let s = e.update(&ram).unwrap();
            got.push((s.rewards[0], s.done));
        }
        // The variables would have given 100s and ended at a == 1.
        assert_eq!(got, [(1.0, false), (3.0, false), (0.0, false), (2.0, true)]);
        // What a script stores in `data` is listed with the variables, as stable-retro does.
        ram[1] = 5;
        assert_eq!(e.update(&ram).unwrap().info.get("flag"), Some(&5));
        assert_eq!(e.totals(), [6.0]);
        e.restart().unwrap();
        ram[0] = 5;
        assert_eq!(e.update(&ram).unwrap().rewards, [5.0]);
        // A function the scripts do not define is refused up front.
        let missing = Evaluator::with_scripts(
            GameData::parse(data).unwrap(),
            Scenario::parse(r#"{"reward": {"script": "lua:nope"}}"#).unwrap(),
            Some(Scripts::from_sources(vec![("s.lua".into(), lua.into())]).unwrap()),
        )
        .unwrap_err();
        assert!(missing.contains("no function \"nope\""), "{missing}");
    }

    #[test]
    fn lua_and_missing_variables_are_refused() {
        let data = r#"{"info": {"a": {"address": 0, "type": "|u1"}}}"#;
        let lua = Evaluator::new(
            GameData::parse(data).unwrap(),
            Scenario::parse(r#"{"reward": {"script": "lua:reward"}}"#).unwrap(),
        )
        .unwrap_err();
        assert!(lua.contains("loads no script"), "{lua}");
        let missing = Evaluator::new(
            GameData::parse(data).unwrap(),
            Scenario::parse(r#"{"reward": {"variables": {"zz": {"reward": 1}}}}"#).unwrap(),
        )
        .unwrap_err();
        assert!(missing.contains("zz"), "{missing}");
    }
}
