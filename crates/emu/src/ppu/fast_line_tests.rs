//! A line drawn whole (`fast_line.rs`) against 341 single dots, from random states: pixels
//! (with a random palette and mask), sprite 0 hit and overflow, v, the latches and shifters,
//! secondary OAM and the sprite units. Two lines each, so the second draws the sprites the
//! first one's evaluation found.

use super::{Ctrl, DOTS_PER_LINE, Mask, POST_RENDER_LINE, Ppu, WIDTH};
use crate::cart::Cart;
use crate::rom::Rom;
use crate::test_rng::Rng;

/// NROM with random CHR ROM and nametables.
fn cart(rng: &mut Rng) -> Cart {
    let mut data = vec![0u8; 16 + 0x8000 + 0x2000];
    data[..8].copy_from_slice(&[b'N', b'E', b'S', 0x1A, 2, 1, 0, 0]);
    for b in &mut data[16 + 0x8000..] {
        // Sparse patterns: plenty of transparent pixels on both layers.
        *b = rng.byte() & rng.byte();
    }
    let rom = Rom::parse(&data, "fast-line-test").unwrap();
    let mut cart = Cart::new(&rom).unwrap();
    for i in 0..cart.core.vram.len() {
        cart.core.vram.set(i, rng.byte());
    }
    cart
}

fn ppu(rng: &mut Rng, line: u16) -> Ppu {
    let mut p = Ppu::new();
    p.ctrl = Ctrl::from_bits_retain(rng.byte() & 0x38);
    // Rendering on (background, sprites or both), random clips, greyscale and emphasis.
    let show = [0x08, 0x10, 0x18, 0x18][rng.below(4) as usize];
    p.mask = Mask::from_bits_retain(rng.byte() & 0xE7 | show);
    p.settle_enable();
    p.scanline = line;
    p.dots = 1_000_000;
    p.v = rng.next() as u16 & 0x7FFF;
    p.t = rng.next() as u16 & 0x7FFF;
    p.x = rng.byte() & 7;
    p.sprite0_hit = rng.below(4) == 0;
    for b in &mut p.palette {
        *b = rng.byte() & 0x3F;
    }
    let crowded = rng.below(2) == 0;
    for (n, sprite) in p.oam.chunks_exact_mut(4).enumerate() {
        sprite[0] = if crowded || n == 0 {
            (line as u8).wrapping_sub(rng.byte() & 15)
        } else {
            rng.byte()
        };
        sprite[1] = rng.byte();
        sprite[2] = rng.byte() & 0xE3;
        sprite[3] = rng.byte();
    }
    // Usually evaluation starts at OAM address 0; otherwise the line path replays it.
    p.oam_addr = if rng.below(8) == 0 { rng.byte() } else { 0 };
    p
}

/// Everything a line leaves that the next line or the CPU can see.
fn state(p: &Ppu) -> String {
    let s = &p.sprites;
    format!(
        "v {:04X} t {:04X} hit {} overflow {} oam_addr {} latches {:?} shifters {:?} \
         secondary {:?} sprites {} {} {:?} {:?} {:?} {:?} {:?} flat {}",
        p.v,
        p.t,
        p.sprite0_hit,
        p.sprite_overflow,
        p.oam_addr,
        [
            p.nt_latch,
            p.at_latch,
            p.pt_lo_latch,
            p.pt_hi_latch,
            p.at_feed
        ],
        [p.bg_lo, p.bg_hi, p.at_lo, p.at_hi],
        p.secondary_oam,
        s.count_next,
        s.sprite0_line,
        s.pattern_lo,
        s.pattern_hi,
        s.attrs,
        s.x_counter,
        s.line,
        s.flat,
    )
}

#[test]
fn whole_lines_draw_and_leave_what_single_dots_do() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for case in 0..400 {
        let mut cart = cart(&mut rng);
        let line = rng.below(u64::from(POST_RENDER_LINE) - 1) as u16;
        let mut stepped = ppu(&mut rng, line);
        let mut whole = stepped.clone();
        let mut cart_whole = cart.clone();
        for l in line..line + 2 {
            let hit = whole.fast_line(&mut cart_whole);
            let mut hit_dot = None;
            for dot in 0..DOTS_PER_LINE as u16 {
                let before = stepped.sprite0_hit;
                stepped.step(&mut cart);
                if !before && stepped.sprite0_hit {
                    hit_dot = Some(dot);
                }
            }
            let context = format!("case {case}, line {l}");
            let row = usize::from(l) * WIDTH..usize::from(l + 1) * WIDTH;
            assert!(
                whole.frame_buffer[row.clone()] == stepped.frame_buffer[row],
                "{context}: pixels"
            );
            assert_eq!(hit, hit_dot, "{context}: sprite 0 hit dot");
            assert_eq!(state(&whole), state(&stepped), "{context}");
            assert_eq!(
                (whole.scanline, whole.dots),
                (stepped.scanline, stepped.dots)
            );
        }
    }
}
