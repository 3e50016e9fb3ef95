//! CPU bus access watches: which accesses a plug-in asked to be told about, and the
//! ones that matched during the frame.

use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// Which CPU bus access a watch reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessKind {
    Read,
    Write,
    Execute,
}

/// One watched access, collected during the frame and handed over in the next `on_frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchHit {
    pub watch: usize,
    pub kind: AccessKind,
    pub addr: u16,
    pub value: u8,
    /// CPU cycle count at the access.
    pub cycle: u64,
}

/// CPU access watches requested by plug-ins. Empty costs one predictable branch per access.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct Watches {
    pub list: Vec<(AccessKind, RangeInclusive<u16>)>,
    pub hits: Vec<WatchHit>,
}

impl Watches {
    /// Notes one access against every watch that covers it.
    pub fn record(&mut self, kind: AccessKind, addr: u16, value: u8, cycle: u64) {
        for (i, (k, range)) in self.list.iter().enumerate() {
            if *k == kind && range.contains(&addr) {
                self.hits.push(WatchHit {
                    watch: i,
                    kind,
                    addr,
                    value,
                    cycle,
                });
            }
        }
    }
}
