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

impl AccessKind {
    /// This kind's bit in a page's mask.
    #[inline(always)]
    pub fn bit(self) -> u8 {
        match self {
            AccessKind::Read => 1,
            AccessKind::Write => 2,
            AccessKind::Execute => 4,
        }
    }
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

/// CPU access watches requested by plug-ins. Empty costs one predictable branch per access;
/// otherwise an access outside every watched 256-byte page costs one bit test.
#[derive(Clone, Serialize, Deserialize)]
pub struct Watches {
    list: Vec<(AccessKind, RangeInclusive<u16>)>,
    pub hits: Vec<WatchHit>,
    /// By 256-byte page, the bits (`AccessKind::bit`) of the kinds some watch there reports.
    #[serde(skip, default = "no_pages")]
    pages: [u8; 256],
    /// Hits recorded since the machine was made (never reset, unlike `hits`): a wait-loop
    /// pass that leaves it unchanged touched no watched address.
    #[serde(skip)]
    total: u64,
}

fn no_pages() -> [u8; 256] {
    [0; 256]
}

impl Default for Watches {
    fn default() -> Watches {
        Watches {
            list: Vec::new(),
            hits: Vec::new(),
            pages: no_pages(),
            total: 0,
        }
    }
}

impl Watches {
    /// Replaces the list; the hits collected so far are dropped.
    pub fn set(&mut self, list: Vec<(AccessKind, RangeInclusive<u16>)>) {
        self.pages = no_pages();
        for (kind, range) in &list {
            for page in (range.start() >> 8)..=(range.end() >> 8) {
                self.pages[usize::from(page)] |= kind.bit();
            }
        }
        self.list = list;
        self.hits.clear();
    }

    pub fn list(&self) -> &[(AccessKind, RangeInclusive<u16>)] {
        &self.list
    }

    /// The kinds (`AccessKind::bit`) some watch reports in the page of `addr`: a cheap
    /// first test before the list is searched.
    #[inline(always)]
    pub fn page_kinds(&self, addr: u16) -> u8 {
        self.pages[usize::from(addr >> 8)]
    }

    /// True when a read or an opcode fetch at `addr` would be reported.
    pub fn read_watched(&self, addr: u16) -> bool {
        self.list.iter().any(|(k, range)| {
            matches!(k, AccessKind::Read | AccessKind::Execute) && range.contains(&addr)
        })
    }

    pub fn total(&self) -> u64 {
        self.total
    }

    /// Notes one access against every watch that covers it.
    pub fn record(&mut self, kind: AccessKind, addr: u16, value: u8, cycle: u64) {
        for (i, (k, range)) in self.list.iter().enumerate() {
            if *k == kind && range.contains(&addr) {
                self.total += 1;
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
