//! The Spot player's integration tests, one test binary (one link) with a module per
//! subject: move generation counted against a naive board (perft), the rules, the search,
//! the plug-in on its RAM maps, the demo cart's wide variants (rebuilt with cc65), and
//! scripted people playing the demo against the plug-in (`person.rs`, which the window
//! test at the top, tests/window_human.rs, includes too).

mod human;
mod perft;
mod person;
mod plugin;
mod rules;
mod search;
mod wide_variants;
