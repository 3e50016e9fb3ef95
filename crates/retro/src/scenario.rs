//! `scenario.json`: what a step is worth (rewards as coefficients on variables' changes) and
//! when an episode ends (tests on variables, combined by `any`/`all` in nested nodes), plus
//! the screen crop and the restricted action sets. A reward or end given as a Lua function
//! is recorded as such; running it needs an embedded Lua, which this crate does not have.

use serde_json::{Map, Value};

/// A comparison from stable-retro's list; the names are those `scenario.json` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// No `op`: the measured value itself.
    Noop,
    Equal,
    NegativeEqual,
    NotEqual,
    LessThan,
    GreaterThan,
    LessOrEqual,
    GreaterOrEqual,
    Nonzero,
    Zero,
    Negative,
    Positive,
    /// -1, 0 or 1.
    Sign,
}

impl Op {
    pub fn from_name(name: &str) -> Option<Op> {
        Some(match name {
            "equal" => Op::Equal,
            "negative-equal" => Op::NegativeEqual,
            "not-equal" => Op::NotEqual,
            "less-than" => Op::LessThan,
            "greater-than" => Op::GreaterThan,
            "less-or-equal" => Op::LessOrEqual,
            "greater-or-equal" => Op::GreaterOrEqual,
            "nonzero" => Op::Nonzero,
            "zero" => Op::Zero,
            "negative" => Op::Negative,
            "positive" => Op::Positive,
            "sign" => Op::Sign,
            _ => return None,
        })
    }

    /// The op applied to `value`; tests give 1 for true and 0 for false.
    pub fn apply(self, reference: i64, value: i64) -> i64 {
        let t = |b: bool| i64::from(b);
        match self {
            Op::Noop => value,
            Op::Equal => t(value == reference),
            Op::NegativeEqual => t(value == reference.wrapping_neg()),
            Op::NotEqual => t(value != reference),
            Op::LessThan => t(value < reference),
            Op::GreaterThan => t(value > reference),
            Op::LessOrEqual => t(value <= reference),
            Op::GreaterOrEqual => t(value >= reference),
            Op::Nonzero => t(value != 0),
            Op::Zero => t(value == 0),
            Op::Negative => t(value < 0),
            Op::Positive => t(value > 0),
            Op::Sign => value.signum(),
        }
    }
}

/// Whether a spec looks at a variable's value or at its change since the last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measurement {
    Absolute,
    Delta,
}

/// One variable's part of the reward: the measured figure times `reward` when positive,
/// times `penalty` when negative (so a negative change with no penalty is worth nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct RewardSpec {
    pub measurement: Measurement,
    pub op: Op,
    pub reference: i64,
    pub reward: f32,
    pub penalty: f32,
}

impl RewardSpec {
    pub fn worth(&self, value: i64, delta: i64) -> f32 {
        let m = self.measure(value, delta) as f32;
        if m < 0.0 {
            m * self.penalty
        } else if m > 0.0 {
            m * self.reward
        } else {
            m
        }
    }

    fn measure(&self, value: i64, delta: i64) -> i64 {
        let v = match self.measurement {
            Measurement::Absolute => value,
            Measurement::Delta => delta,
        };
        self.op.apply(self.reference, v)
    }
}

/// One variable's test for the end of an episode: true when the measured figure is positive.
#[derive(Clone, Debug, PartialEq)]
pub struct DoneSpec {
    pub measurement: Measurement,
    pub op: Op,
    pub reference: i64,
}

impl DoneSpec {
    pub fn test(&self, value: i64, delta: i64) -> bool {
        let v = match self.measurement {
            Measurement::Absolute => value,
            Measurement::Delta => delta,
        };
        self.op.apply(self.reference, v) > 0
    }
}

/// A group of done tests: `any` (the default) or `all` of its variables and sub-nodes.
/// An empty `all` group is true, an empty `any` group false, as in stable-retro.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DoneNode {
    pub all: bool,
    pub vars: Vec<(String, DoneSpec)>,
    pub nodes: Vec<(String, DoneNode)>,
}

/// A player's reward.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reward {
    pub vars: Vec<(String, RewardSpec)>,
    /// A reward per step, whatever happens (`time`).
    pub time: Option<RewardSpec>,
    /// `reward.script`: a Lua function's name (with its `scope:` prefix, if any).
    pub script: Option<String>,
}

/// A parsed `scenario.json`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scenario {
    /// One per player (`reward`, or the list `rewards`).
    pub rewards: Vec<Reward>,
    pub done: DoneNode,
    /// `done.script`: a Lua function deciding the end.
    pub done_script: Option<String>,
    /// `x, y, width, height` of the picture the agent sees, per player (`crop`/`crops`).
    pub crops: Vec<[u64; 4]>,
    /// Allowed button combinations: groups of alternatives, each a list of button names.
    pub actions: Option<Vec<Vec<Vec<String>>>>,
    /// Lua files the scenario loads (`scripts`).
    pub scripts: Vec<String>,
}

impl Scenario {
    /// Parses the text of a `scenario.json`; every unknown op or measurement is an error
    /// (stable-retro would quietly treat it as none).
    pub fn parse(text: &str) -> Result<Scenario, String> {
        let json: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let top = json.as_object().ok_or("not a JSON object")?;
        let mut s = Scenario::default();
        if let Some(r) = top.get("reward") {
            s.rewards
                .push(parse_reward(r).map_err(|e| format!("reward: {e}"))?);
        }
        if let Some(rs) = top.get("rewards") {
            let list = rs.as_array().ok_or("\"rewards\" is not a list")?;
            s.rewards.clear();
            for (i, r) in list.iter().enumerate() {
                s.rewards
                    .push(parse_reward(r).map_err(|e| format!("rewards[{i}]: {e}"))?);
            }
        }
        if let Some(d) = top.get("done") {
            let obj = d.as_object().ok_or("\"done\" is not an object")?;
            s.done = parse_node(obj).map_err(|e| format!("done: {e}"))?;
            s.done_script = opt_string(obj, "script").map_err(|e| format!("done: {e}"))?;
        }
        if let Some(c) = top.get("crop") {
            s.crops
                .push(parse_crop(c).map_err(|e| format!("crop: {e}"))?);
        }
        if let Some(cs) = top.get("crops") {
            let list = cs.as_array().ok_or("\"crops\" is not a list")?;
            s.crops = list
                .iter()
                .map(parse_crop)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("crops: {e}"))?;
        }
        if let Some(a) = top.get("actions") {
            s.actions = Some(
                serde_json::from_value(a.clone())
                    .map_err(|e| format!("actions: expected lists of button-name lists: {e}"))?,
            );
        }
        if let Some(sc) = top.get("scripts") {
            s.scripts = serde_json::from_value(sc.clone())
                .map_err(|e| format!("scripts: expected a list of file names: {e}"))?;
        }
        Ok(s)
    }

    /// The Lua functions this scenario needs, if any: such a scenario cannot be evaluated yet.
    pub fn needs_lua(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .rewards
            .iter()
            .filter_map(|r| r.script.clone())
            .collect();
        out.extend(self.done_script.clone());
        out
    }

    /// Every variable name the rewards and ends use.
    pub fn variables(&self) -> Vec<&str> {
        fn walk<'a>(n: &'a DoneNode, out: &mut Vec<&'a str>) {
            out.extend(n.vars.iter().map(|(k, _)| k.as_str()));
            n.nodes.iter().for_each(|(_, c)| walk(c, out));
        }
        let mut out: Vec<&str> = self
            .rewards
            .iter()
            .flat_map(|r| r.vars.iter().map(|(k, _)| k.as_str()))
            .collect();
        walk(&self.done, &mut out);
        out
    }
}

fn opt_string(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match obj.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(|s| Some(s.to_string()))
            .ok_or_else(|| format!("\"{key}\" is not a string")),
    }
}

fn int(obj: &Map<String, Value>, key: &str) -> Result<i64, String> {
    match obj.get(key) {
        None => Ok(0),
        Some(v) => v
            .as_i64()
            .ok_or_else(|| format!("\"{key}\" is not an integer: {v}")),
    }
}

fn float(obj: &Map<String, Value>, key: &str) -> Result<f32, String> {
    match obj.get(key) {
        None => Ok(0.0),
        Some(v) => v
            .as_f64()
            .map(|f| f as f32)
            .ok_or_else(|| format!("\"{key}\" is not a number: {v}")),
    }
}

fn op(obj: &Map<String, Value>) -> Result<Op, String> {
    match opt_string(obj, "op")? {
        None => Ok(Op::Noop),
        Some(name) => Op::from_name(&name).ok_or_else(|| format!("unknown op {name:?}")),
    }
}

fn measurement(obj: &Map<String, Value>, default: Measurement) -> Result<Measurement, String> {
    match opt_string(obj, "measurement")?.as_deref() {
        None => Ok(default),
        Some("absolute") => Ok(Measurement::Absolute),
        Some("delta") => Ok(Measurement::Delta),
        Some(other) => Err(format!("unknown measurement {other:?}")),
    }
}

fn reward_spec(v: &Value) -> Result<RewardSpec, String> {
    let obj = v.as_object().ok_or("not an object")?;
    Ok(RewardSpec {
        measurement: measurement(obj, Measurement::Delta)?,
        op: op(obj)?,
        reference: int(obj, "reference")?,
        reward: float(obj, "reward")?,
        penalty: float(obj, "penalty")?,
    })
}

fn parse_reward(v: &Value) -> Result<Reward, String> {
    let obj = v.as_object().ok_or("not an object")?;
    let mut r = Reward::default();
    if let Some(vars) = obj.get("variables") {
        let vars = vars.as_object().ok_or("\"variables\" is not an object")?;
        for (name, spec) in vars {
            r.vars.push((
                name.clone(),
                reward_spec(spec).map_err(|e| format!("{name}: {e}"))?,
            ));
        }
    }
    if let Some(t) = obj.get("time") {
        r.time = Some(reward_spec(t).map_err(|e| format!("time: {e}"))?);
    }
    r.script = opt_string(obj, "script")?;
    Ok(r)
}

fn parse_node(obj: &Map<String, Value>) -> Result<DoneNode, String> {
    let mut n = DoneNode::default();
    if let Some(vars) = obj.get("variables") {
        let vars = vars.as_object().ok_or("\"variables\" is not an object")?;
        for (name, spec) in vars {
            let o = spec
                .as_object()
                .ok_or_else(|| format!("{name}: not an object"))?;
            let d = (|| {
                Ok::<_, String>(DoneSpec {
                    measurement: measurement(o, Measurement::Absolute)?,
                    op: op(o)?,
                    reference: int(o, "reference")?,
                })
            })()
            .map_err(|e| format!("{name}: {e}"))?;
            n.vars.push((name.clone(), d));
        }
    }
    if let Some(nodes) = obj.get("nodes") {
        let nodes = nodes.as_object().ok_or("\"nodes\" is not an object")?;
        for (name, sub) in nodes {
            let o = sub
                .as_object()
                .ok_or_else(|| format!("node {name}: not an object"))?;
            n.nodes.push((
                name.clone(),
                parse_node(o).map_err(|e| format!("node {name}: {e}"))?,
            ));
        }
    }
    n.all = match obj.get("condition") {
        None => false,
        Some(Value::String(c)) if c == "all" => true,
        Some(Value::String(c)) if c == "any" => false,
        Some(c) => return Err(format!("condition {c} is neither \"any\" nor \"all\"")),
    };
    Ok(n)
}

fn parse_crop(v: &Value) -> Result<[u64; 4], String> {
    let list: Vec<u64> = serde_json::from_value(v.clone())
        .map_err(|_| format!("expected [x, y, width, height], got {v}"))?;
    list.try_into()
        .map_err(|l: Vec<u64>| format!("expected 4 numbers, got {}", l.len()))
}
