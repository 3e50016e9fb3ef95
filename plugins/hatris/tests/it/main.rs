//! The Hatris player's integration tests, one test binary (one link) with a module per
//! subject: the player on the demo cart, its cart variants (rebuilt with cc65), the wide
//! variants and port reports, and sight (the player told nothing about the cart).

mod player;
mod sight;
mod spy;
mod variants;
mod wide;
