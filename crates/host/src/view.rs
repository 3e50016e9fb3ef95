//! The session's side of the plug-in contract: what `on_attach` may ask for and what
//! `on_frame` sees, and the `Frame` methods shared by every host that owns a machine.

use super::{AccessKind, Buttons, Fork, Frame, Request, Setup, WatchHit};
use nesmind_emu::Machine;
use std::ops::RangeInclusive;

/// Who drives a pad.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadOwner {
    Plugin,
    /// A human (keyboard or game controller in the window; nobody in headless runs).
    Human,
}

/// The `Frame` methods that read or write a `machine` field directly: one definition for
/// the session's view and for forks.
macro_rules! machine_frame_methods {
    () => {
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
        fn buttons(&self, pad: usize) -> $crate::Buttons {
            self.machine.buttons(pad)
        }
    };
}
pub(crate) use machine_frame_methods;

/// The plug-in's requests collected during `on_attach`.
#[derive(Default)]
pub(crate) struct AttachSetup {
    pub watches: Vec<(AccessKind, RangeInclusive<u16>)>,
    pub pads: usize,
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
pub(crate) struct View<'a> {
    pub machine: &'a mut Machine,
    pub hits: &'a [WatchHit],
    pub status: &'a mut String,
    pub owners: [PadOwner; 4],
    pub requests: &'a mut Vec<Request>,
    pub watches: &'a [(AccessKind, RangeInclusive<u16>)],
    /// The machine as it was before the plug-in's first `restore` this frame: a recording
    /// hashes it for this frame and loads the new one before the next.
    pub replaced: &'a mut Option<Machine>,
    pub drawing: &'a mut Vec<crate::Shape>,
}

impl Frame for View<'_> {
    machine_frame_methods!();
    fn set_buttons(&mut self, pad: usize, buttons: Buttons) {
        // A pad a human has taken ignores the plug-in until it is given back.
        if self.owners.get(pad) == Some(&PadOwner::Plugin) {
            self.machine.set_buttons(pad, buttons);
        }
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
    fn request(&mut self, request: Request) {
        self.requests.push(request);
    }
    fn draw(&mut self, shape: crate::Shape) {
        if self.drawing.len() < crate::draw::MAX_SHAPES {
            self.drawing.push(shape);
        }
    }
    fn restore(&mut self, state: &Fork) -> Result<(), String> {
        let mut loaded = state.machine().clone();
        // A state holds no host settings: the session's stay as they are.
        loaded.set_four_score(self.machine.four_score());
        loaded.set_audio_enabled(self.machine.audio_enabled());
        let _ = loaded.set_sample_rate(self.machine.sample_rate());
        loaded.set_watches(self.watches.to_vec());
        let old = std::mem::replace(self.machine, loaded);
        self.replaced.get_or_insert(old);
        Ok(())
    }
}
