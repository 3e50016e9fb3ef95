//! Lua plug-in cost: `cargo bench --bench lua -- [ROM] [FRAMES]`.
//!
//! A script that reads 16 bytes and sets a pad every frame, against a Rust plug-in doing
//! the same, on one machine (fps and the Lua one's overhead), then sixteen machines with
//! the script on sixteen threads (total fps). The DOTS demo cart by default.

use nesmind::emu::Rom;
use nesmind::host::{Buttons, Frame, Plugin, PluginOptions, RomInfo, Session, Setup};
use nesmind_lua::LuaPlugin;
use std::path::{Path, PathBuf};
use std::time::Instant;

const SCRIPT: &str = "\
while true do
  local sum = 0
  for a = 0x0380, 0x038F do sum = sum + memory.readbyte(a) end
  joypad.set(1, { A = sum % 2 == 0, start = emu.framecount() % 120 < 5 })
  emu.frameadvance()
end
";

/// The script's work in Rust.
struct Reader;
impl Plugin for Reader {
    fn name(&self) -> &str {
        "reader"
    }
    fn description(&self) -> &str {
        "reads 16 bytes, sets a pad"
    }
    fn on_attach(&mut self, _: &RomInfo, _: &mut dyn Setup) -> Result<(), String> {
        Ok(())
    }
    fn on_frame(&mut self, f: &mut dyn Frame) {
        let sum: u32 = (0x0380..0x0390).map(|a| u32::from(f.peek(a))).sum();
        let mut b = Buttons::NONE;
        if sum.is_multiple_of(2) {
            b.0 |= Buttons::A.0;
        }
        if f.frame_number() % 120 < 5 {
            b.0 |= Buttons::START.0;
        }
        f.set_buttons(0, b);
    }
}

fn plugin(lua: Option<(&Path, &[u8])>) -> Box<dyn Plugin> {
    match lua {
        Some((script, image)) => {
            Box::new(LuaPlugin::load(script, &PluginOptions::new(), image).unwrap())
        }
        None => Box::new(Reader),
    }
}

fn fps(rom: &Rom, frames: u64, lua: Option<(&Path, &[u8])>) -> f64 {
    let mut s = Session::new(rom.clone()).unwrap();
    s.attach(plugin(lua), &[]).unwrap();
    let start = Instant::now();
    for _ in 0..frames {
        s.step().unwrap();
    }
    frames as f64 / start.elapsed().as_secs_f64()
}

/// Microseconds per `on_frame` alone: the plug-in called on a fork that never runs, so
/// only its own work is timed (steadier than a difference of two busy runs).
fn callback_us(rom: &Rom, calls: u64, lua: Option<(&Path, &[u8])>) -> f64 {
    let mut s = Session::new(rom.clone()).unwrap();
    s.step().unwrap();
    let mut fork = nesmind::host::Fork::new(s.machine());
    let mut p = plugin(lua);
    let start = Instant::now();
    for _ in 0..calls {
        p.on_frame(&mut fork);
    }
    start.elapsed().as_secs_f64() * 1e6 / calls as f64
}

/// Total frames per second of `machines` sessions, each on its own thread.
fn many(rom: &Rom, machines: usize, frames: u64, lua: Option<(&Path, &[u8])>) -> f64 {
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..machines {
            scope.spawn(|| {
                let mut s = Session::new(rom.clone()).unwrap();
                s.attach(plugin(lua), &[]).unwrap();
                for _ in 0..frames {
                    s.step().unwrap();
                }
            });
        }
    });
    (machines as u64 * frames) as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let args = nesmind::frontend::bench::positional_args();
    let path: PathBuf = match args.first().filter(|p| !p.is_empty()) {
        Some(p) => p.into(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/spot/cart/dots.nes"),
    };
    let frames: u64 = args.get(1).and_then(|f| f.parse().ok()).unwrap_or(3000);
    let image = std::fs::read(&path).unwrap();
    let rom = Rom::parse(&image, &path.display().to_string()).unwrap();
    let script = std::env::temp_dir().join(format!("nesmind-bench-{}.lua", std::process::id()));
    std::fs::write(&script, SCRIPT).unwrap();
    let lua = Some((script.as_path(), image.as_slice()));
    // Alternate and keep the best of each: the machine is shared, so noise only slows runs.
    let (mut rust, mut with_lua) = (0f64, 0f64);
    for _ in 0..5 {
        rust = rust.max(fps(&rom, frames, None));
        with_lua = with_lua.max(fps(&rom, frames, lua));
    }
    println!(
        "Rust plug-in      {rust:>9.1} fps  ({:.2} us/frame)",
        1e6 / rust
    );
    println!(
        "Lua script        {with_lua:>9.1} fps  ({:.2} us/frame)  overhead {:.2}%",
        1e6 / with_lua,
        (rust / with_lua - 1.0) * 100.0
    );
    let (mut cb_rust, mut cb_lua) = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        cb_rust = cb_rust.min(callback_us(&rom, frames * 10, None));
        cb_lua = cb_lua.min(callback_us(&rom, frames * 10, lua));
    }
    println!("on_frame alone: Rust {cb_rust:.3} us, Lua {cb_lua:.3} us");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (mut m_rust, mut m_lua) = (0f64, 0f64);
    for _ in 0..2 {
        m_rust = m_rust.max(many(&rom, 16, frames / 4, None));
        m_lua = m_lua.max(many(&rom, 16, frames / 4, lua));
    }
    println!("16 machines, Rust {m_rust:>9.1} fps in all ({threads} cores)");
    println!(
        "16 machines, Lua  {m_lua:>9.1} fps in all  overhead {:.2}%",
        (m_rust / m_lua - 1.0) * 100.0
    );
    let _ = std::fs::remove_file(&script);
}
