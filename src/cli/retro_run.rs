//! `nesmind run ROM --retro GAME`: a run scored as stable-retro scores it. The integration's
//! ROM check, start state and scenario are stable-retro's (`retro.make(GAME, state=...,
//! scenario=...)`); after every frame its variables, reward and end are evaluated over the
//! RAM, as stable-retro does after each step, and the run ends with the episode.
//!
//! The evaluation wraps the plug-in (if any) rather than being one: the plug-in still sees
//! and drives the game as it would without `--retro`, and the evaluation reads the RAM of
//! the frame just finished before the plug-in chooses the next frame's buttons.

use crate::host::files;
use crate::host::{Frame, Plugin, Request, Setup};
use nesmind_emu::RomInfo;
use nesmind_retro::integration::{self, Integration};
use nesmind_retro::{Evaluator, RAM_SIZE, Scenario, find_data, library};
use std::path::{Path, PathBuf};

/// What `--retro` and its companions name.
pub struct RetroRun {
    pub integration: Integration,
    /// The state to start from: the one named, else the integration's default, if any.
    pub state: Option<PathBuf>,
    pub evaluator: Evaluator,
}

/// Finds `game` (an integration folder's name) under `data` (default: as `nesmind retro`
/// finds it), checks `rom` is the ROM it was made for, and resolves the state (a file, or
/// a state of the integration by name) and the scenario (a file, or NAME.json beside it).
pub fn prepare(
    game: &str,
    data: Option<&Path>,
    rom: &Path,
    state: Option<&Path>,
    scenario: Option<&str>,
) -> Result<RetroRun, String> {
    let root = find_data(data).map_err(|e| format!("--retro: {e}"))?;
    let dirs = integration::nes_integrations(&root.path, &integration::SETS)?;
    let Some(dir) = dirs
        .iter()
        .find(|d| d.file_name().is_some_and(|n| n == game))
    else {
        let near: Vec<String> = dirs
            .iter()
            .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .filter(|n| {
                n.to_lowercase()
                    .contains(&game.to_lowercase().replace("-nes", ""))
            })
            .take(5)
            .collect();
        return Err(format!(
            "--retro: no NES integration '{game}' in {} ({}){}",
            root.path.display(),
            root.source,
            match near.is_empty() {
                true => String::new(),
                false => format!("; similar: {}", near.join(", ")),
            }
        ));
    };
    let integration = Integration::load(dir)?;
    let bytes = files::read_capped(rom, nesmind_emu::rom::MAX_FILE, "a ROM")
        .map_err(|e| format!("cannot read '{}': {e}", rom.display()))?;
    if !library::rom_hashes(&bytes)
        .iter()
        .any(|h| integration.rom_sha1.contains(h))
    {
        return Err(format!(
            "--retro: '{}' is not the ROM {game} was made for (its SHA-1 is not in {}); \
             its addresses would be another game's. `nesmind retro import DIR` finds the \
             right dump among your files",
            rom.display(),
            dir.join("rom.sha").display()
        ));
    }
    let state = match state {
        Some(s) if s.is_file() => Some(s.to_path_buf()),
        Some(s) => Some(named_state(&integration, &s.to_string_lossy())?),
        None => match &integration.default_state {
            Some(name) => Some(named_state(&integration, name)?),
            None => None,
        },
    };
    let evaluator = match scenario {
        None => integration.evaluator()?,
        Some(name) => {
            let file = match Path::new(name).is_file() {
                true => PathBuf::from(name),
                false => dir.join(format!("{name}.json")),
            };
            let text = files::read_capped_text(&file, 1 << 20, "a scenario")
                .map_err(|e| format!("--scenario '{}': {e}", file.display()))?;
            let scenario = Scenario::parse(&text)
                .map_err(|e| format!("--scenario '{}': {e}", file.display()))?;
            let base = file.parent().unwrap_or(dir);
            Evaluator::load(integration.data.clone(), scenario, base)
                .map_err(|e| format!("--scenario '{}': {e}", file.display()))?
        }
    };
    Ok(RetroRun {
        integration,
        state,
        evaluator,
    })
}

fn named_state(g: &Integration, name: &str) -> Result<PathBuf, String> {
    let name = name.strip_suffix(".state").unwrap_or(name);
    if g.states.iter().any(|s| s == name) {
        return Ok(g.state_path(name));
    }
    Err(format!(
        "--state: '{name}' is neither a file nor a state of {} (it has: {})",
        g.name,
        if g.states.is_empty() {
            "none".to_string()
        } else {
            g.states.join(", ")
        }
    ))
}

/// The evaluation around the plug-in (or alone, with the keyboard or a replay playing).
pub struct Scored {
    game: String,
    evaluator: Evaluator,
    inner: Option<Box<dyn Plugin>>,
    steps: u64,
    done_at: Option<u64>,
    last_info: String,
    error: Option<String>,
}

impl Scored {
    pub fn new(run: RetroRun, inner: Option<Box<dyn Plugin>>) -> Scored {
        Scored {
            game: run.integration.name,
            evaluator: run.evaluator,
            inner,
            steps: 0,
            done_at: None,
            last_info: String::new(),
            error: None,
        }
    }

    fn total(&self) -> String {
        let totals: Vec<String> = self
            .evaluator
            .totals()
            .iter()
            .map(|t| format!("{t}"))
            .collect();
        totals.join(" / ")
    }
}

impl Plugin for Scored {
    fn name(&self) -> &str {
        self.inner.as_ref().map_or("retro", |p| p.name())
    }
    fn description(&self) -> &str {
        "a stable-retro integration's rewards and episode end"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        match &mut self.inner {
            Some(p) => p.on_attach(rom, setup),
            None => Ok(()),
        }
    }
    fn on_frame(&mut self, frame: &mut dyn Frame) {
        if self.done_at.is_none() && self.error.is_none() {
            match self.evaluator.update(&frame.ram()[..RAM_SIZE]) {
                Ok(step) => {
                    self.steps += 1;
                    let info: Vec<String> =
                        step.info.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    self.last_info = info.join(" ");
                    frame.set_status(&format!(
                        "{}: step {} reward {}  {}",
                        self.game,
                        self.steps,
                        self.total(),
                        self.last_info
                    ));
                    if step.done {
                        self.done_at = Some(self.steps);
                        frame.request(Request::Quit {
                            code: 0,
                            message: format!(
                                "{}: the episode ended after {} steps, reward {}",
                                self.game,
                                self.steps,
                                self.total()
                            ),
                        });
                    }
                }
                Err(e) => self.error = Some(format!("--retro {}: {e}", self.game)),
            }
        }
        if let Some(p) = &mut self.inner {
            p.on_frame(frame);
        }
    }
    fn on_detach(&mut self) {
        if let Some(p) = &mut self.inner {
            p.on_detach();
        }
    }
    fn result(&self) -> Option<String> {
        let ended = match self.done_at {
            Some(n) => format!("ended at step {n}"),
            None => "not ended".to_string(),
        };
        let mut line = format!(
            "retro {}: {} steps, reward {}, episode {ended}; {}",
            self.game,
            self.steps,
            self.total(),
            self.last_info
        );
        if let Some(r) = self.inner.as_ref().and_then(|p| p.result()) {
            line = format!("{r}\n{line}");
        }
        Some(line)
    }
    fn error(&self) -> Option<String> {
        self.error
            .clone()
            .or_else(|| self.inner.as_ref().and_then(|p| p.error()))
    }
}
