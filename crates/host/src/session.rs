//! The session loop: one machine, at most one plug-in, the pads, replays and savestates.
//!
//! Each [`Session::step`] runs the machine to scanline 240 (picture finished, NMI not yet
//! taken), hands the plug-in a [`Frame`] view with the watch hits of that frame, then
//! applies human and replay input so the game's next controller read sees it.

use super::replay::{Player, Recorder};
use super::{AccessKind, Buttons, Fork, Frame, Plugin, Setup, WatchHit};
use nesmind_emu::{Machine, Rom};
use std::ops::RangeInclusive;
use std::path::Path;

/// Who drives a pad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadOwner {
    Plugin,
    /// A human (keyboard or game controller in the window; nobody in headless runs).
    Human,
}

/// The plug-in's requests collected during `on_attach`.
#[derive(Default)]
struct AttachSetup {
    watches: Vec<(AccessKind, RangeInclusive<u16>)>,
    pads: usize,
}

impl Setup for AttachSetup {
    fn watch(&mut self, kind: AccessKind, range: RangeInclusive<u16>) -> usize {
        self.watches.push((kind, range));
        self.watches.len() - 1
    }
    fn use_pads(&mut self, count: usize) {
        self.pads = count.clamp(1, 4);
    }
}

/// What `on_frame` sees of the session.
struct View<'a> {
    machine: &'a mut Machine,
    hits: &'a [WatchHit],
    status: &'a mut String,
    owners: [PadOwner; 4],
}

impl Frame for View<'_> {
    fn frame_number(&self) -> u64 {
        self.machine.frame_number()
    }
    fn peek(&self, addr: u16) -> u8 {
        self.machine.peek(addr)
    }
    fn ram(&self) -> &[u8] {
        self.machine.ram()
    }
    fn poke(&mut self, addr: u16, value: u8) {
        self.machine.poke(addr, value);
    }
    fn picture(&self) -> &[u16] {
        self.machine.picture()
    }
    fn peek_ppu(&self, addr: u16) -> u8 {
        self.machine.peek_ppu(addr)
    }
    fn oam(&self) -> &[u8] {
        self.machine.oam()
    }
    fn ppu_ctrl(&self) -> u8 {
        self.machine.ppu_ctrl()
    }
    fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        // A pad a human has taken ignores the plug-in until it is given back.
        if self.owners.get(pad) == Some(&PadOwner::Plugin) {
            self.machine.set_buttons(pad, buttons);
        }
    }
    fn buttons(&self, pad: usize) -> Buttons {
        self.machine.buttons(pad)
    }
    fn watch_hits(&self) -> &[WatchHit] {
        self.hits
    }
    fn set_status(&mut self, line: &str) {
        self.status.clear();
        self.status.push_str(line.lines().next().unwrap_or(""));
    }
    fn fork(&self) -> Option<Fork> {
        Some(Fork::new(self.machine))
    }
}

pub struct Session {
    machine: Machine,
    rom: Rom,
    plugin: Option<Box<dyn Plugin>>,
    watches: Vec<(AccessKind, RangeInclusive<u16>)>,
    hits: Vec<WatchHit>,
    status: String,
    owners: [PadOwner; 4],
    human: [Buttons; 4],
    /// Frames stepped since the session started (replays count from here).
    steps: u64,
    recorder: Option<Recorder>,
    player: Option<Player>,
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
            owners: [PadOwner::Human; 4],
            human: [Buttons::NONE; 4],
            steps: 0,
            recorder: None,
            player: None,
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
        plugin
            .on_attach(&self.rom.info, &mut setup)
            .map_err(|why| {
                format!(
                    "plug-in '{}' refused '{}': {why}",
                    plugin.name(),
                    self.rom.info.file_name
                )
            })?;
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
        let bus = &mut self.machine.bus;
        bus.watches.list = self.watches.clone();
        bus.watches.hits.clear();
        // No watches: the bus skips the check entirely.
        bus.watching = !self.watches.is_empty();
    }

    /// Runs one frame and the plug-in callback. A jammed CPU or a failed plug-in ends the run.
    pub fn step(&mut self) -> Result<(), String> {
        self.machine.run_frame().map_err(|e| e.to_string())?;
        if let Some(plugin) = self.plugin.as_mut() {
            std::mem::swap(&mut self.hits, &mut self.machine.bus.watches.hits);
            self.machine.bus.watches.hits.clear();
            let mut view = View {
                machine: &mut self.machine,
                hits: &self.hits,
                status: &mut self.status,
                owners: self.owners,
            };
            plugin.on_frame(&mut view);
            if let Some(err) = plugin.error() {
                return Err(format!("plug-in '{}' failed: {err}", plugin.name()));
            }
        }
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
            player.check(self.steps, &self.machine)?;
        }
        if let Some(rec) = self.recorder.as_mut() {
            let pads = [0, 1, 2, 3].map(|p| self.machine.buttons(p));
            rec.frame(self.steps, pads, &self.machine);
        }
        self.steps += 1;
        Ok(())
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

    pub fn reset(&mut self) {
        self.machine.reset();
    }

    pub fn record(&mut self, recorder: Recorder) {
        self.recorder = Some(recorder);
    }
    pub fn replay(&mut self, player: Player) {
        self.player = Some(player);
    }
    /// Frames left in the replay being played, if any.
    pub fn replay_len(&self) -> Option<u64> {
        self.player.as_ref().map(Player::len)
    }
    /// Hash checks passed so far by `--verify`.
    pub fn verified(&self) -> Option<usize> {
        self.player.as_ref().map(Player::checked)
    }
    /// Writes the recording (atomically) if one is running.
    pub fn finish_recording(&mut self) -> Result<(), String> {
        match self.recorder.take() {
            Some(r) => r.finish(),
            None => Ok(()),
        }
    }

    /// Saves the machine to `path` atomically.
    pub fn save_state(&self, path: &Path) -> Result<(), String> {
        super::savestate::save(path, &self.machine, &self.rom)?;
        log::info!(
            "saved state to {} at frame {}",
            path.display(),
            self.machine.frame_number()
        );
        Ok(())
    }

    /// Loads a savestate; on any error the running game is left exactly as it was.
    pub fn load_state(&mut self, path: &Path) -> Result<(), String> {
        let loaded = super::savestate::load(path, &self.rom)?;
        let keep_four_score = self.machine.bus.input.four_score;
        self.machine = loaded;
        self.machine.set_four_score(keep_four_score);
        self.install_watches();
        log::info!(
            "loaded state {} (frame {})",
            path.display(),
            self.machine.frame_number()
        );
        Ok(())
    }

    /// Detaches the plug-in (calls `on_detach`) and returns its result line.
    pub fn detach(&mut self) -> Option<String> {
        let mut plugin = self.plugin.take()?;
        plugin.on_detach();
        self.machine.bus.watching = false;
        plugin.result()
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
    pub fn status(&self) -> &str {
        &self.status
    }
    pub fn plugin_name(&self) -> Option<&str> {
        self.plugin.as_deref().map(|p| p.name())
    }
    pub fn plugin_result(&self) -> Option<String> {
        self.plugin.as_deref().and_then(|p| p.result())
    }
}
