//! Addresses of the DOTS cartridge's RAM. The Spot RAM map entry (`ram_maps.ron`) covers
//! what the plug-in reads; these are the cart's own bytes the harness uses (see
//! `cart/README.md`), plus the map addresses the harness reads without the decoder.

pub const CURSOR: usize = 0x0029;
pub const CURRENT: usize = 0x0042;
pub const SETTINGS: usize = 0x05C9;
/// The picked-up cell ($FF: none).
pub const SELECTED: usize = 0x0061;

pub const CART_PHASE: usize = 0x0700;
pub const REFUSED: usize = 0x0701;
pub const FIRST_MOVER: usize = 0x0703;
pub const LAYOUT_NUMBER: usize = 0x0704;
pub const WINNER: usize = 0x0706;
pub const MENU_ROW: usize = 0x0707;
pub const LAYOUT_CHOICE: usize = 0x0708;
pub const ANIM_ON: usize = 0x0709;

pub const PHASE_TITLE: u8 = 0;
pub const PHASE_PLAYING: u8 = 1;
pub const PHASE_OVER: u8 = 2;

/// Title menu lines: the four player slots, the layout, animations.
pub const MENU_LINES: usize = 6;
/// Menu value of a slot played through its pad (a person, or the plug-in).
pub const SETTING_HUMAN: u8 = 6;

/// Colour names the cart gives player slots 1-4.
pub const COLOURS: [&str; 4] = ["RED", "BLUE", "GOLD", "GREEN"];
