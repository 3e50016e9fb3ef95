//! The Spot player's integration tests, one test binary (one link) with a module per
//! subject: move generation counted against a naive board (perft), the rules, the search,
//! the plug-in on its RAM maps, and the demo cart's wide variants (rebuilt with cc65).

mod perft;
mod plugin;
mod rules;
mod search;
mod wide_variants;
