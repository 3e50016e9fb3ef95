//! Seed inputs (valid ROM images, savestates, a replay) and the mutations applied to them.

use nesmind::emu::{Machine, Rom};
use nesmind::host::replay::Recorder;
use nesmind::host::savestate;
use nesmind::host::{Buttons, Session};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub const DOTS: &[u8] = include_bytes!("../../plugins/spot/cart/dots.nes");
pub const HATRIS: &[u8] = include_bytes!("../../plugins/hatris/cart/hatris-like.nes");
pub const MMC3_WORKLOAD: &[u8] = include_bytes!("../../benches/carts/mmc3/mmc3-workload.nes");

/// Boards the synthetic images exercise (beside the two NROM demo carts).
const MAPPERS: [u16; 26] = [
    1, 2, 3, 4, 7, 9, 34, 69, 78, 87, 184, 185, 140, 206, 75, 32, 65, 67, 21, 22, 23, 25, 33, 48,
    18, 68,
];

/// A program at the start of every 8 KiB PRG bank that writes a counter to every bank
/// register window for ever (with vectors at each bank's end), so whatever the board maps
/// where, the CPU keeps running it and the board's registers keep changing.
fn synthetic(mapper: u16, chr_ram: bool) -> Vec<u8> {
    let code = [
        0xE6, 0x00, // INC $00
        0xA6, 0x00, // LDX $00
        0x8A, // TXA
        0x9D, 0x00, 0x80, // STA $8000,X
        0x9D, 0x00, 0xA0, // STA $A000,X
        0x9D, 0x00, 0xC0, // STA $C000,X
        0x9D, 0x00, 0xE0, // STA $E000,X
        0x9D, 0x00, 0x60, // STA $6000,X
        0x8D, 0x06, 0x20, // STA $2006 (PPU address bus activity for MMC2/MMC3)
        0xAD, 0x07, 0x20, // LDA $2007
        0xB8, // CLV
        0x50, 0xE4, // BVC to the start
    ];
    let mut prg = vec![0u8; 16 * 0x2000];
    for (i, bank) in prg.chunks_mut(0x2000).enumerate() {
        bank[..code.len()].copy_from_slice(&code);
        // Vectors point at the bank mapped at $E000 (or the window holding the code).
        let base = [0x80u8, 0xA0, 0xC0, 0xE0][i % 4];
        for v in [0x1FFA, 0x1FFC, 0x1FFE] {
            bank[v] = 0;
            bank[v + 1] = base.max(0xE0);
        }
    }
    let mut image = b"NES\x1A".to_vec();
    image.push(8); // 128 KiB PRG
    image.push(if chr_ram { 0 } else { 8 }); // 64 KiB CHR
    image.push(((mapper & 0x0F) << 4) as u8 | 0x02); // battery-backed PRG RAM
    image.push((mapper & 0xF0) as u8);
    image.resize(16, 0);
    image.extend_from_slice(&prg);
    if !chr_ram {
        image.extend((0..8 * 0x2000).map(|i| (i * 7 % 251) as u8));
    }
    image
}

pub fn rom_images() -> Vec<Vec<u8>> {
    let mut v = vec![DOTS.to_vec(), HATRIS.to_vec()];
    for (i, m) in MAPPERS.iter().enumerate() {
        v.push(synthetic(*m, i % 2 == 0));
    }
    v
}

/// (ROM, savestate body) pairs from each seed image after some frames, so the states
/// hold the board registers, the PPU and the APU mid-flight.
pub fn saved_states() -> Vec<(Rom, String)> {
    let mut out = Vec::new();
    for image in rom_images() {
        let rom = Rom::parse(&image, "seed.nes").unwrap();
        let mut m = Machine::new(&rom).unwrap();
        m.set_audio_enabled(false);
        for f in 0..40 {
            m.set_buttons(
                0,
                if f % 8 < 4 {
                    Buttons::START
                } else {
                    Buttons::A
                },
            );
            let _ = m.run_frame();
        }
        // Mid-frame too: the PPU between lines, the CPU between instructions.
        for _ in 0..3000 {
            let _ = m.step();
        }
        let text = savestate::encode(&m, &rom).unwrap();
        let body = text.splitn(4, '\n').nth(3).unwrap().to_string();
        out.push((rom, body));
    }
    out
}

/// A savestate file around `body` with a correct header (or a wrong body checksum).
pub fn state_file(rom: &Rom, body: &str, wrong_crc: bool) -> String {
    let crc = crc32fast::hash(body.as_bytes()) ^ u32::from(wrong_crc);
    format!(
        "{} {}\nrom-crc32 {:08X}\nbody-crc32 {crc:08X} len {}\n{body}",
        savestate::MAGIC,
        savestate::VERSION,
        rom.info.crc32,
        body.len()
    )
}

/// A 120-frame recording on DOTS with a reset, pads and hashes every 10 frames.
pub fn replay() -> (Rom, String) {
    let rom = Rom::parse(DOTS, "dots.nes").unwrap();
    let path = std::env::temp_dir().join(format!("nesmind-fuzz-{}.replay", std::process::id()));
    let mut s = Session::new(rom.clone()).unwrap();
    s.machine_mut().set_audio_enabled(false);
    s.record(Recorder::new(&path, &rom, 10));
    for f in 0..120u64 {
        if f == 50 {
            s.reset();
        }
        s.set_human_buttons(0, Buttons((f * 37 % 256) as u8));
        s.step().unwrap();
    }
    s.finish_recording().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    (rom, text)
}

pub struct Mutator {
    rng: StdRng,
}

impl Mutator {
    pub fn new(seed: u64) -> Mutator {
        Mutator {
            rng: StdRng::seed_from_u64(seed),
        }
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.gen_range(0..items.len())]
    }
    /// True about once in `n`.
    pub fn chance(&mut self, n: u32) -> bool {
        self.rng.gen_range(0..n) == 0
    }

    /// An iNES header for any supported board with random PRG and CHR contents.
    pub fn random_image(&mut self) -> Vec<u8> {
        const SUPPORTED: [u8; 17] = [
            0, 1, 2, 3, 4, 7, 9, 10, 11, 28, 30, 34, 66, 69, 78, 118, 180,
        ];
        let mapper = *self.pick(&SUPPORTED);
        let (prg, chr) = (self.rng.gen_range(1..=8u8), self.rng.gen_range(0..=4u8));
        let flags6 = (mapper << 4) | self.rng.gen_range(0..16);
        let mut v = vec![b'N', b'E', b'S', 0x1A, prg, chr, flags6, mapper & 0xF0];
        v.resize(16, 0);
        let body = usize::from(prg) * 16384 + usize::from(chr) * 8192;
        v.extend((0..body).map(|_| self.rng.r#gen::<u8>()));
        v
    }

    /// A number a field could hold, biased to edges.
    fn number(&mut self) -> u64 {
        match self.rng.gen_range(0..10) {
            0 => 0,
            1 => 1,
            2 => u64::from(self.rng.r#gen::<u8>()),
            3 => [255, 256, 1023, 1024, 8191, 8192, 65535, 65536][self.rng.gen_range(0..8)],
            4 => u64::from(u32::MAX),
            5 => u64::MAX,
            6 => self.rng.gen_range(0..64),
            _ => self.rng.r#gen::<u64>() >> self.rng.gen_range(0..64),
        }
    }

    /// Byte flips, runs of random bytes, header fields, truncation and extension.
    pub fn mutate_bytes(&mut self, data: &mut Vec<u8>, header: bool) {
        for _ in 0..self.rng.gen_range(1..6) {
            match self.rng.gen_range(0..6) {
                0 if !data.is_empty() => {
                    let i = self.rng.gen_range(0..data.len());
                    data[i] ^= 1 << self.rng.gen_range(0..8);
                }
                1 if header && data.len() >= 16 => {
                    let i = self.rng.gen_range(4..16);
                    data[i] = self.rng.r#gen();
                }
                2 => data.truncate(self.rng.gen_range(0..=data.len())),
                3 => {
                    let n = self.rng.gen_range(0..0x4000);
                    data.extend((0..n).map(|_| self.rng.r#gen::<u8>()));
                }
                4 if !data.is_empty() => {
                    let i = self.rng.gen_range(0..data.len());
                    let end = (i + self.rng.gen_range(1..64)).min(data.len());
                    self.rng.fill(&mut data[i..end]);
                }
                _ => {}
            }
        }
    }

    /// Structure-aware edits of a RON body: numbers replaced, list elements removed or
    /// repeated, booleans and options flipped; sometimes a raw byte edit too.
    pub fn mutate_ron(&mut self, body: &mut String) {
        for _ in 0..self.rng.gen_range(1..4) {
            // A raw edit may have truncated the body to nothing.
            if body.is_empty() {
                break;
            }
            let mut at = self.rng.gen_range(0..body.len());
            while !body.is_char_boundary(at) {
                at -= 1;
            }
            let bytes = body.as_bytes();
            match self.rng.gen_range(0..8) {
                0..=3 => {
                    // The number token at or after `at`.
                    let Some(start) = (at..bytes.len()).find(|&i| bytes[i].is_ascii_digit()) else {
                        continue;
                    };
                    let end = (start..bytes.len())
                        .find(|&i| !bytes[i].is_ascii_digit())
                        .unwrap_or(bytes.len());
                    let n = self.number().to_string();
                    body.replace_range(start..end, &n);
                }
                4 => {
                    // Drop one element of a list: the text from a ',' to the next ','.
                    let Some(a) = body[at..].find(',').map(|i| at + i) else {
                        continue;
                    };
                    if let Some(b) = body[a + 1..].find([',', ']', ')']).map(|i| a + 1 + i) {
                        body.replace_range(a..b, "");
                    }
                }
                5 => {
                    // Repeat one list element.
                    if let Some(a) = body[at..].find(',').map(|i| at + i)
                        && let Some(b) = body[a + 1..].find(',').map(|i| a + 1 + i)
                    {
                        let el = body[a..b].to_string();
                        body.insert_str(b, &el);
                    }
                }
                6 => {
                    let pairs = [("true", "false"), ("false", "true"), ("None", "Some(7)")];
                    let (from, to) = *self.pick(&pairs);
                    if let Some(i) = body[at..].find(from).map(|i| at + i) {
                        body.replace_range(i..i + from.len(), to);
                    }
                }
                _ => {
                    let mut raw = std::mem::take(body).into_bytes();
                    self.mutate_bytes(&mut raw, false);
                    *body = String::from_utf8_lossy(&raw).into_owned();
                }
            }
        }
    }

    /// Line-level edits of a text file: lines dropped, repeated, swapped, replaced by
    /// protocol-like junk, numbers changed; sometimes raw bytes.
    pub fn mutate_lines(&mut self, data: &mut Vec<u8>) {
        let text = String::from_utf8_lossy(data).into_owned();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        for _ in 0..self.rng.gen_range(1..5) {
            if lines.is_empty() {
                lines.push(String::new());
            }
            let i = self.rng.gen_range(0..lines.len());
            match self.rng.gen_range(0..7) {
                0 => {
                    lines.remove(i);
                }
                1 => lines.insert(i, lines[i].clone()),
                2 => {
                    let j = self.rng.gen_range(0..lines.len());
                    lines.swap(i, j);
                }
                3 => lines[i] = self.protocol_line(),
                4 => {
                    let n = self.number();
                    let line = &mut lines[i];
                    if let Some(sp) = line.rfind(' ') {
                        line.replace_range(sp + 1.., &format!("{n:X}"));
                    }
                }
                5 => {
                    let event = *self.pick(&["reset", "power", "four-score 1", "h 3 0", "p 0"]);
                    lines.insert(i, event.to_string());
                }
                _ => {}
            }
        }
        *data = lines.join("\n").into_bytes();
        if self.chance(5) {
            self.mutate_bytes(data, false);
        }
    }

    /// A line built from the protocol's words, numbers, quotes and junk.
    pub fn protocol_line(&mut self) -> String {
        const WORDS: [&str; 24] = [
            "ok",
            "refuse",
            "status",
            "buttons",
            "quit",
            "reset",
            "power",
            "version",
            "frame",
            "pads=",
            "-",
            "A+B",
            "Start",
            "Up,Left",
            "0000-07FF",
            "FFFF",
            "6000-5FFF",
            "'",
            "\"",
            "\\",
            " ",
            "é",
            "\t",
            "+",
        ];
        let mut line = String::new();
        for _ in 0..self.rng.gen_range(0..12) {
            match self.rng.gen_range(0..4) {
                0 => line.push_str(&self.number().to_string()),
                1 => line.push(char::from(self.rng.gen_range(0x20u8..0x7F))),
                _ => {
                    let w: &str = WORDS[self.rng.gen_range(0..WORDS.len())];
                    line.push_str(w);
                }
            }
            if self.rng.gen_bool(0.6) {
                line.push(' ');
            }
        }
        line
    }
}

/// A small FCEUmm savestate, inflated: CPU, PPU and an MMC1 board section, as FCEUmm lays
/// them out (the wheel's real states are not ours to commit).
pub fn fceumm_state() -> Vec<u8> {
    fn section(out: &mut Vec<u8>, kind: u8, entries: &[(&str, usize)]) {
        let mut body = Vec::new();
        for (i, (name, len)) in entries.iter().enumerate() {
            let mut n = [0u8; 4];
            n[..name.len()].copy_from_slice(name.as_bytes());
            body.extend(n);
            body.extend((*len as u32).to_le_bytes());
            body.extend((0..*len).map(|b| (b * 7 + i) as u8));
        }
        out.push(kind);
        out.extend((body.len() as u32).to_le_bytes());
        out.extend(body);
    }
    let mut body = Vec::new();
    let cpu = [
        ("PC", 2),
        ("A", 1),
        ("X", 1),
        ("Y", 1),
        ("S", 1),
        ("P", 1),
        ("DB", 1),
        ("RAM", 0x800),
    ];
    section(&mut body, 1, &cpu);
    let ppu = [
        ("NTAR", 0x800),
        ("PRAM", 32),
        ("SPRA", 256),
        ("PPUR", 4),
        ("XOFF", 1),
        ("VTGL", 1),
        ("RADD", 2),
        ("TADD", 2),
        ("VBUF", 1),
        ("PGEN", 1),
    ];
    section(&mut body, 3, &ppu);
    let board = [
        ("WRAM", 0x2000),
        ("CHRR", 0x2000),
        ("DREG", 4),
        ("LRST", 8),
        ("BFFR", 1),
        ("BFRS", 1),
    ];
    section(&mut body, 0x10, &board);
    // The serial port holds one bit (BFFR, then BFRS, end the state), so the seed builds a
    // machine for the Hatris cart.
    let end = body.len();
    body[end - 10] = 1;
    body[end - 1] = 1;
    let mut raw = b"FCS\xFF".to_vec();
    raw.extend((body.len() as u32).to_le_bytes());
    raw.extend(9813u32.to_le_bytes());
    raw.extend([0; 4]);
    raw.extend(body);
    raw
}

/// The same CPU and PPU with an MMC3 board section, its IRQ raised (FCEUmm's `IQLB`) and
/// the frame counter's mode (`IQFM`): a state the MMC3 workload cart loads.
pub fn fceumm_mmc3_state() -> Vec<u8> {
    fceumm_state_of_board(&[
        ("WRAM", vec![0x5A; 0x2000]),
        ("KTEX", vec![0]),
        ("REGS", vec![0, 2, 4, 5, 6, 7, 0, 1]),
        ("CMD", vec![0x46]),
        ("A000", vec![1]),
        ("A001", vec![0x80]),
        ("IRQR", vec![0]),
        ("IRQC", vec![3]),
        ("IRQL", vec![190]),
        ("IRQA", vec![1]),
    ])
}

/// The same with an FME-7 board section (set through register writes), counting with its
/// IRQ raised, and the Hatris cart's 8 KiB of CHR RAM.
pub fn fceumm_fme7_state() -> Vec<u8> {
    fceumm_state_of_board(&[
        ("CHRR", vec![0xA5; 0x2000]),
        ("SCMD", vec![0]),
        ("SREG", vec![0; 14]),
        ("CMDR", vec![0x0D]),
        ("PREG", vec![1, 2, 3, 0xC0]),
        ("CREG", vec![0, 1, 2, 3, 4, 5, 6, 7]),
        ("MIRR", vec![2]),
        ("IRQA", vec![0x81]),
        ("IRQC", vec![0x10, 0x20, 0, 0]),
        ("SCMD", vec![0]),
        ("SREG", vec![0; 14]),
    ])
}

/// The MMC1 state's CPU and PPU sections with this board section, the board's IRQ raised
/// (FCEUmm's `IQLB`) and the frame counter's mode (`IQFM`).
fn fceumm_state_of_board(board: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mmc1 = fceumm_state();
    // Everything up to the board section (its kind byte), which is replaced.
    let board_at = {
        let mut at = 16;
        loop {
            let len = u32::from_le_bytes(mmc1[at + 1..at + 5].try_into().unwrap()) as usize;
            if mmc1[at] == 0x10 {
                break at;
            }
            at += 5 + len;
        }
    };
    let mut body = mmc1[16..board_at].to_vec();
    let mut section = |kind: u8, entries: &[(&str, Vec<u8>)]| {
        let mut data = Vec::new();
        for (name, bytes) in entries {
            let mut n = [0u8; 4];
            n[..name.len()].copy_from_slice(name.as_bytes());
            data.extend(n);
            data.extend((bytes.len() as u32).to_le_bytes());
            data.extend(bytes);
        }
        body.push(kind);
        body.extend((data.len() as u32).to_le_bytes());
        body.extend(data);
    };
    section(2, &[("IQLB", vec![1, 0, 0, 0])]);
    section(5, &[("IQFM", vec![1])]);
    section(0x10, board);
    let mut raw = b"FCS\xFF".to_vec();
    raw.extend((body.len() as u32).to_le_bytes());
    raw.extend(9813u32.to_le_bytes());
    raw.extend([0; 4]);
    raw.extend(body);
    raw
}

/// A stable-retro `data.json` and `scenario.json` using every type family and done feature.
pub fn retro_integration() -> (String, String) {
    let data = r#"{"info": {"a": {"address": 0, "type": "|u1"}, "b": {"address": 1, "type": ">n6"},
        "c": {"address": 8, "type": "<d4", "mask": 65535}, "d": {"address": 16, "type": "<i2"}}}"#;
    let scenario = r#"{"reward": {"variables": {"a": {"reward": 1.5, "penalty": 2},
        "b": {"measurement": "absolute", "op": "greater-than", "reference": 5, "reward": 1}},
        "time": {"reward": -0.5}},
        "done": {"condition": "all", "variables": {"d": {"op": "negative"}},
        "nodes": {"n": {"variables": {"c": {"op": "equal", "reference": 99}, "a": {"op": "sign"}}}}},
        "crop": [0, 8, 256, 224], "actions": [[[], ["A"]], [["LEFT"], ["RIGHT"]]]}"#;
    (data.to_string(), scenario.to_string())
}
