//! The plug-in API's view of PPU memory: pattern tables (CHR RAM included), nametables,
//! palette and OAM, read without side effects from the session and from forks.
//! Uses the Hatris-like demo cartridge, which draws its piles into CHR RAM while it runs.

use nesmind::emu::{Machine, Rom};
use nesmind::host::{Buttons, Frame, Plugin, RomInfo, Session, Setup, savestate};
use nesmind::plugins::hatris::demo::DEMO;
use std::sync::{Arc, Mutex};

fn demo_rom() -> Rom {
    Rom::parse(DEMO.image, DEMO.file_name).unwrap()
}

/// Every PPU address and all of OAM, as a frame shows them.
fn ppu_image(f: &dyn Frame) -> (Vec<u8>, Vec<u8>) {
    (
        (0..0x4000).map(|a| f.peek_ppu(a)).collect(),
        f.oam().to_vec(),
    )
}

#[test]
fn ppu_peeks_have_no_side_effects() {
    let rom = demo_rom();
    let mut m = Machine::new(&rom).unwrap();
    for _ in 0..300 {
        m.run_frame().unwrap();
    }
    // Mid-frame, inside the game's own VRAM traffic.
    for _ in 0..3000 {
        m.step().unwrap();
    }
    let before = savestate::encode(&m, &rom).unwrap();
    let mut sum = 0u32;
    for addr in 0..=0xFFFFu16 {
        sum = sum.wrapping_add(u32::from(m.peek_ppu(addr)));
    }
    sum = m
        .oam()
        .iter()
        .fold(sum, |s, &b| s.wrapping_add(u32::from(b)));
    assert_eq!(
        savestate::encode(&m, &rom).unwrap(),
        before,
        "PPU peeks changed the machine (sum {sum})"
    );
}

#[derive(Default)]
struct Seen {
    checked: usize,
    drawn_on_fork: bool,
}

struct PpuProbe(Arc<Mutex<Seen>>);

impl Plugin for PpuProbe {
    fn name(&self) -> &str {
        "ppu-probe"
    }
    fn description(&self) -> &str {
        "test plug-in reading PPU memory"
    }
    fn on_attach(&mut self, _: &RomInfo, _: &mut dyn Setup) -> Result<(), String> {
        Ok(())
    }
    fn on_frame(&mut self, f: &mut dyn Frame) {
        let n = f.frame_number();
        if n < 260 || !n.is_multiple_of(40) {
            return;
        }
        let (vram, oam) = ppu_image(&*f);
        // What the cart's start-up wrote: palette 1 is white, the left wall is tile 48 on
        // nametable row 2, column 6, and the font's first glyph ("0", tile 1) has ink.
        assert_eq!(vram[0x3F01], 0x30);
        assert_eq!(vram[0x2000 + 2 * 32 + 6], 48);
        assert!(vram[0x0010..0x0020].iter().any(|&b| b != 0));
        // Vertical mirroring: $2800 shows $2000, and $3000-$3EFF mirror $2000-$2EFF.
        assert_eq!(vram[0x2000..0x2400], vram[0x2800..0x2C00]);
        assert_eq!(vram[0x2000..0x2F00], vram[0x3000..0x3F00]);
        assert_eq!(f.peek_ppu(0x4000 + 0x2046), vram[0x2046]);
        assert_eq!(oam.len(), 256);
        let mut fork = f.fork().expect("sessions fork");
        assert_eq!(ppu_image(&fork), (vram.clone(), oam.clone()));
        // Dropping the pair on the fork draws hats into the piles' CHR RAM tiles
        // (64-255 in the background table) and moves the falling pair's sprites.
        fork.set_buttons(0, Buttons::DOWN);
        fork.run_frames(60).unwrap();
        let (after, after_oam) = ppu_image(&fork);
        let mut seen = self.0.lock().unwrap();
        seen.drawn_on_fork |= after[0x0400..0x1000] != vram[0x0400..0x1000];
        assert_ne!(after_oam, oam);
        // ... and the real machine did not see any of it.
        assert_eq!(ppu_image(&*f), (vram, oam));
        seen.checked += 1;
    }
}

#[test]
fn frames_and_forks_show_ppu_memory() {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut s = Session::new(demo_rom()).unwrap();
    s.attach(Box::new(PpuProbe(seen.clone())), &[]).unwrap();
    for _ in 0..600 {
        s.step().unwrap();
    }
    let seen = seen.lock().unwrap();
    assert!(seen.checked >= 8, "only {} checks ran", seen.checked);
    assert!(seen.drawn_on_fork, "no hat was ever drawn into CHR RAM");
}

#[test]
fn hosts_without_a_ppu_show_none() {
    use nesmind::plugins::hatris::game::Game;
    use nesmind::plugins::hatris::ram_map;
    use nesmind::plugins::hatris::ramhost::RamHost;
    use nesmind::plugins::hatris::rules::Settings;
    use rand::SeedableRng;
    let game = Game::new(
        Settings::default(),
        &mut rand::rngs::StdRng::seed_from_u64(1),
    );
    let map = ram_map::shipped()
        .into_iter()
        .find(|m| m.crc32 == [0x48415452])
        .unwrap();
    let host = RamHost::new(game, map).unwrap();
    assert_eq!(host.peek_ppu(0x3F00), 0);
    assert!(host.oam().is_empty());
}
