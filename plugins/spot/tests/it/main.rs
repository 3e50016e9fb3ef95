//! The Spot player's integration tests, one test binary (one link) with a module per
//! subject: move generation counted against a naive board (perft), the rules, the search,
//! and the plug-in on its RAM maps.

mod perft;
mod plugin;
mod rules;
mod search;
