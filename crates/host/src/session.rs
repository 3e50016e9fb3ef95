//! The session loop: one machine, at most one plug-in, the pads, replays and savestates.
//!
//! Each [`Session::step`] runs the machine to scanline 240 (picture finished, NMI not yet
//! taken), hands the plug-in a [`Frame`](crate::Frame) view with the watch hits of that frame, then
//! applies human and replay input so the game's next controller read sees it.

use super::replay::{Event, Player, Recorder, ReplayError};
use super::savestate::StateError;
use super::view::{AttachSetup, PadOwner, View};
use super::{AccessKind, Buttons, Plugin, Request, WatchHit};
use nesmind_emu::{Machine, MachineError, Rom};
use std::fmt;
use std::ops::RangeInclusive;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// Why a frame could not be stepped.
#[derive(Debug)]
pub enum StepError {
    Machine(MachineError),
    /// The plug-in reported a failure or panicked; `message` says which.
    Plugin {
        name: String,
        message: String,
    },
    Replay(ReplayError),
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::Machine(e) => e.fmt(f),
            StepError::Plugin { name, message } => write!(f, "plug-in '{name}' {message}"),
            StepError::Replay(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StepError {}

impl From<StepError> for String {
    fn from(e: StepError) -> String {
        e.to_string()
    }
}

/// A plug-in's `Request::Quit`: the run ends with this exit status and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quit {
    pub code: i32,
    pub message: String,
}

/// Frames (5 s) a status line stays shown after the plug-in last set it.
pub const STATUS_FRAMES: u64 = 300;

/// The text of a caught panic.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

pub struct Session {
    machine: Machine,
    rom: Rom,
    plugin: Option<Box<dyn Plugin>>,
    watches: Vec<(AccessKind, RangeInclusive<u16>)>,
    hits: Vec<WatchHit>,
    status: String,
    /// The step at which the plug-in last set its status.
    status_step: u64,
    owners: [PadOwner; 4],
    human: [Buttons; 4],
    /// Frames stepped since the session started (replays count from here).
    steps: u64,
    recorder: Option<Recorder>,
    player: Option<Player>,
    /// Resets and power cycles to apply before the next frame.
    pending: Vec<Event>,
    requests: Vec<Request>,
    quit: Option<Quit>,
    /// Set when the plug-in panicked: it is never called again.
    poisoned: bool,
    /// The machine the plug-in replaced this frame (`Frame::restore`), for the recording.
    replaced: Option<Machine>,
    /// What the plug-in drew over this frame's picture.
    drawing: Vec<super::Shape>,
}

impl Session {
    /// Powers on `rom`. Unsupported boards give the loader's message.
    pub fn new(rom: Rom) -> Result<Session, String> {
        let machine = Machine::new(&rom)
            .map_err(|e| format!("cannot start '{}': {e}", rom.info.file_name))?;
        Ok(Session {
            machine,
            rom,
            plugin: None,
            watches: Vec::new(),
            hits: Vec::new(),
            status: String::new(),
            status_step: 0,
            owners: [PadOwner::Human; 4],
            human: [Buttons::NONE; 4],
            steps: 0,
            recorder: None,
            player: None,
            pending: Vec::new(),
            requests: Vec::new(),
            quit: None,
            poisoned: false,
            replaced: None,
            drawing: Vec::new(),
        })
    }

    /// Attaches a plug-in; it drives every pad not in `human_pads`. A refusal names the reason.
    pub fn attach(
        &mut self,
        mut plugin: Box<dyn Plugin>,
        human_pads: &[usize],
    ) -> Result<(), String> {
        let mut setup = AttachSetup {
            pads: 1,
            ..Default::default()
        };
        let name = plugin.name().to_string();
        let refused = |why: String| {
            format!(
                "plug-in '{name}' refused '{}': {why}",
                self.rom.info.file_name
            )
        };
        match catch_unwind(AssertUnwindSafe(|| {
            plugin.on_attach(&self.rom.info, &mut setup)
        })) {
            Ok(Ok(())) => {}
            Ok(Err(why)) => return Err(refused(why)),
            Err(p) => return Err(refused(format!("it panicked: {}", panic_text(&*p)))),
        }
        for (pad, owner) in self.owners.iter_mut().enumerate() {
            *owner = if human_pads.contains(&pad) {
                PadOwner::Human
            } else {
                PadOwner::Plugin
            };
        }
        if setup.pads > 2 {
            self.machine.set_four_score(true);
        }
        log::info!(
            "attached plug-in '{}' ({} watches, {} pads)",
            plugin.name(),
            setup.watches.len(),
            setup.pads
        );
        self.watches = setup.watches;
        self.install_watches();
        self.plugin = Some(plugin);
        Ok(())
    }

    fn install_watches(&mut self) {
        self.machine.set_watches(self.watches.clone());
    }

    /// Runs one frame and the plug-in callback. A jammed CPU, a failed or panicking
    /// plug-in, or a diverging replay ends the run; the session stays usable (for a
    /// screenshot, a savestate, the recording so far).
    pub fn step(&mut self) -> Result<(), StepError> {
        self.apply_events();
        if let Some(rec) = self.recorder.as_mut() {
            rec.configure(self.machine.four_score());
        }
        self.machine.run_frame().map_err(StepError::Machine)?;
        self.call_plugin()?;
        for pad in 0..4 {
            if self.owners[pad] == PadOwner::Human {
                self.machine.set_buttons(pad, self.human[pad]);
            }
        }
        if let Some(player) = self.player.as_mut() {
            // The replay overrides every pad so the recorded run is reproduced exactly.
            if let Some(pads) = player.pads(self.steps) {
                for (pad, b) in pads.iter().enumerate() {
                    self.machine.set_buttons(pad, *b);
                }
            }
            player
                .check(self.steps, &self.machine)
                .map_err(StepError::Replay)?;
        }
        let replaced = self.replaced.take();
        if let Some(rec) = self.recorder.as_mut() {
            // A machine the plug-in put in place is recorded as a state load after this
            // frame's line, which describes the machine it replaced: a replay then runs the
            // frame as the run did and continues from the same machine.
            let m = replaced.as_ref().unwrap_or(&self.machine);
            let pads = [0, 1, 2, 3].map(|p| m.buttons(p));
            rec.frame(self.steps, pads, m);
            if replaced.is_some() {
                match super::savestate::encode(&self.machine, &self.rom) {
                    Ok(state) => rec.event(&Event::Load(state.into())),
                    Err(e) => log::error!("cannot record the plug-in's state load: {e}"),
                }
            }
        }
        self.steps += 1;
        Ok(())
    }

    fn call_plugin(&mut self) -> Result<(), StepError> {
        let Some(plugin) = self.plugin.as_mut().filter(|_| !self.poisoned) else {
            return Ok(());
        };
        self.machine.take_watch_hits(&mut self.hits);
        // A drawing lasts one frame: the plug-in draws again for the next.
        self.drawing.clear();
        let mut view = View {
            machine: &mut self.machine,
            hits: &self.hits,
            status: &mut self.status,
            owners: self.owners,
            requests: &mut self.requests,
            watches: &self.watches,
            replaced: &mut self.replaced,
            drawing: &mut self.drawing,
        };
        let name = plugin.name().to_string();
        let fail = |message| StepError::Plugin { name, message };
        let said = view.status.clone();
        view.status.clear();
        let outcome = catch_unwind(AssertUnwindSafe(|| plugin.on_frame(&mut view)));
        if self.status.is_empty() {
            self.status = said;
        } else {
            // Counted as of the end of this step.
            self.status_step = self.steps + 1;
        }
        if let Err(p) = outcome {
            self.poisoned = true;
            return Err(fail(format!("panicked: {}", panic_text(&*p))));
        }
        if let Some(err) = plugin.error() {
            return Err(fail(format!("failed: {err}")));
        }
        for request in std::mem::take(&mut self.requests) {
            match request {
                Request::Reset => self.pending.push(Event::Reset),
                Request::Power => self.pending.push(Event::Power),
                Request::Quit { code, message } => {
                    self.quit.get_or_insert(Quit { code, message });
                }
            }
        }
        Ok(())
    }

    /// Applies the resets and power cycles asked for since the last frame (by the plug-in,
    /// the window, or the replay being played) and records them.
    fn apply_events(&mut self) {
        let mut events = std::mem::take(&mut self.pending);
        if let Some(player) = &self.player {
            events.extend_from_slice(player.events(self.steps));
        }
        for event in events {
            match &event {
                Event::Reset => self.machine.reset(),
                Event::Power => self.power_cycle(),
                Event::Load(state) => match super::savestate::decode(state, &self.rom) {
                    Ok(m) => self.replace_machine(m),
                    // Checked when the replay was read.
                    Err(e) => log::error!("the replay's state load failed: {e}"),
                },
            }
            if let Some(rec) = self.recorder.as_mut() {
                rec.event(&event);
            }
        }
    }

    /// A fresh machine from the same ROM, keeping the configuration and the host's settings.
    fn power_cycle(&mut self) {
        let Ok(mut fresh) = Machine::new(&self.rom) else {
            // Session::new built a machine from this ROM, so this cannot fail.
            return;
        };
        // The rate was accepted by this machine, so the fresh one accepts it too.
        let _ = fresh.set_host_settings(self.machine.host_settings());
        self.machine = fresh;
        self.install_watches();
    }

    /// The plug-in's request to end the run, if it made one.
    pub fn quit(&self) -> Option<&Quit> {
        self.quit.as_ref()
    }

    /// Buttons a human holds on `pad` (applied only while the human owns it).
    pub fn set_human_buttons(&mut self, pad: usize, buttons: Buttons) {
        if let Some(b) = self.human.get_mut(pad) {
            *b = buttons;
        }
    }

    /// Gives a pad to the human or back to the plug-in (no plug-in: always human).
    pub fn set_owner(&mut self, pad: usize, owner: PadOwner) {
        if pad < 4 {
            self.owners[pad] = if self.plugin.is_some() {
                owner
            } else {
                PadOwner::Human
            };
        }
    }
    pub fn owner(&self, pad: usize) -> PadOwner {
        self.owners.get(pad).copied().unwrap_or(PadOwner::Human)
    }

    /// The reset button, pressed before the next frame (recorded in a recording).
    pub fn reset(&mut self) {
        self.pending.push(Event::Reset);
    }

    /// Power off and on, before the next frame (recorded in a recording): a fresh machine
    /// from the same ROM, keeping the host's settings and watches.
    pub fn power(&mut self) {
        self.pending.push(Event::Power);
    }

    pub fn record(&mut self, recorder: Recorder) {
        self.recorder = Some(recorder);
    }
    /// Plays `player`'s input; the machine is configured as it was when it was recorded.
    pub fn replay(&mut self, player: Player) {
        self.machine.set_four_score(player.four_score());
        self.player = Some(player);
    }
    /// Frames left in the replay being played, if any.
    pub fn replay_len(&self) -> Option<u64> {
        self.player.as_ref().map(Player::len)
    }
    /// Hash checks passed so far by `--verify`; `None` when no replay is verified (none
    /// plays, or it plays without `--verify`).
    pub fn verified(&self) -> Option<usize> {
        self.player
            .as_ref()
            .filter(|p| p.verifies())
            .map(Player::checked)
    }
    /// `--verify`'s verdict on the run so far (see [`Player::verdict`]); `None` when no
    /// replay is verified.
    pub fn verdict(&self) -> Option<Result<usize, ReplayError>> {
        let player = self.player.as_ref().filter(|p| p.verifies())?;
        Some(player.verdict(self.steps))
    }
    /// The replay being played, if any.
    pub fn player(&self) -> Option<&Player> {
        self.player.as_ref()
    }
    /// Writes the recording (atomically) if one is running.
    pub fn finish_recording(&mut self) -> Result<(), ReplayError> {
        match self.recorder.take() {
            Some(r) => r.finish(),
            None => Ok(()),
        }
    }

    /// Saves the machine to `path` atomically.
    pub fn save_state(&self, path: &Path) -> Result<(), StateError> {
        super::savestate::save(path, &self.machine, &self.rom)?;
        log::info!(
            "saved state to {} at frame {}",
            path.display(),
            self.machine.frame_number()
        );
        Ok(())
    }

    /// Loads a savestate; on any error the running game is left exactly as it was.
    pub fn load_state(&mut self, path: &Path) -> Result<(), StateError> {
        let loaded = super::savestate::load(path, &self.rom)?;
        self.load_machine(loaded)?;
        log::info!(
            "loaded state {} (frame {})",
            path.display(),
            self.machine.frame_number()
        );
        Ok(())
    }

    /// Continues from `loaded`, a machine built for this session's ROM elsewhere (a
    /// savestate, another emulator's state). A recording keeps the state itself, so that
    /// the replay loads it where this did.
    pub fn load_machine(&mut self, loaded: Machine) -> Result<(), StateError> {
        if let Some(rec) = self.recorder.as_mut() {
            rec.event(&Event::Load(
                super::savestate::encode(&loaded, &self.rom)?.into(),
            ));
        }
        self.replace_machine(loaded);
        Ok(())
    }

    /// Puts a loaded machine in place. A state holds no host settings (speed-ups
    /// included): the session's stay as they are.
    fn replace_machine(&mut self, mut loaded: Machine) {
        let _ = loaded.set_host_settings(self.machine.host_settings());
        self.machine = loaded;
        self.install_watches();
    }

    /// Detaches the plug-in (calls `on_detach`) and returns its result line.
    pub fn detach(&mut self) -> Option<String> {
        let mut plugin = self.plugin.take()?;
        self.machine.set_watches(Vec::new());
        if self.poisoned {
            return None;
        }
        catch_unwind(AssertUnwindSafe(|| {
            plugin.on_detach();
            plugin.result()
        }))
        .ok()
        .flatten()
    }

    pub fn machine(&self) -> &Machine {
        &self.machine
    }
    /// Mutable access for the frontend's own use (audio settings and draining samples).
    pub fn machine_mut(&mut self) -> &mut Machine {
        &mut self.machine
    }
    pub fn rom(&self) -> &Rom {
        &self.rom
    }
    pub fn steps(&self) -> u64 {
        self.steps
    }
    /// The plug-in's status line; empty once it has not been repeated or replaced for
    /// `STATUS_FRAMES` frames, so a line about a finished game does not stay on screen.
    pub fn status(&self) -> &str {
        if self.steps.saturating_sub(self.status_step) > STATUS_FRAMES {
            return "";
        }
        &self.status
    }
    /// The shapes the plug-in drew over the current picture.
    pub fn drawing(&self) -> &[super::Shape] {
        &self.drawing
    }
    pub fn plugin_name(&self) -> Option<&str> {
        self.plugin.as_deref().map(|p| p.name())
    }
    pub fn plugin_result(&self) -> Option<String> {
        let plugin = self.plugin.as_deref().filter(|_| !self.poisoned)?;
        catch_unwind(AssertUnwindSafe(|| plugin.result()))
            .ok()
            .flatten()
    }
}
