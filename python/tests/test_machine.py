"""nesmind.Machine and VecMachine."""

import threading

import numpy as np
import pytest

import nesmind
from conftest import nrom

JAM = bytes([0x02])
LOOP = bytes([0x4C, 0x00, 0xC0])  # JMP $C000


def test_bad_roms_raise_the_cli_messages(tmp_path):
    with pytest.raises(nesmind.RomError, match="too short for a 16-byte iNES header"):
        nesmind.Machine(b"NES")
    with pytest.raises(nesmind.RomError, match="not an iNES image"):
        nesmind.Machine(b"x" * 64)
    with pytest.raises(nesmind.RomError, match="mapper 255 .* is not supported"):
        nesmind.Machine(nrom(LOOP, mapper=255))
    with pytest.raises(nesmind.RomError, match="cannot read ROM"):
        nesmind.Machine(tmp_path / "missing.nes")
    with pytest.raises(TypeError, match="a ROM is a path"):
        nesmind.Machine(3.5)
    assert issubclass(nesmind.RomError, nesmind.NesError)


def test_a_jam_raises_and_names_the_opcode():
    m = nesmind.Machine(nrom(JAM))
    with pytest.raises(nesmind.JamError, match=r"opcode \$02 at \$C000"):
        m.step()


def test_ram_is_a_read_only_view_that_follows_the_machine(dots):
    m = nesmind.Machine(dots)
    ram = m.ram
    assert ram.shape == (2048,) and ram.dtype == np.uint8
    assert not ram.flags.writeable and not ram.flags.owndata
    before = ram.copy()
    m.step(frames=30)
    assert not np.array_equal(before, ram), "the view shows the machine's RAM after a step"
    assert all(ram[a] == m.peek(a) for a in range(0, 2048, 7))
    with pytest.raises(ValueError):
        ram[0] = 1
    del m
    assert ram.sum() >= 0  # the view keeps the machine alive


def test_pictures_and_palette_indices_agree(dots):
    m = nesmind.Machine(dots)
    m.step(frames=120)
    rgb, idx = m.picture(), m.palette_indices()
    assert rgb.shape == (240, 256, 3) and rgb.dtype == np.uint8
    assert idx.shape == (240, 256) and idx.dtype == np.uint16
    assert len(np.unique(idx)) > 1, "the title screen is not blank"
    assert np.array_equal(nesmind.palette()[idx], rgb)
    out = np.zeros((240, 256, 3), np.uint8)
    assert m.picture(out=out) is out and np.array_equal(out, rgb)
    with pytest.raises(ValueError, match="shape"):
        m.picture(out=np.zeros((240, 256), np.uint8).reshape(240, 256, 1))


def test_clones_and_savestates_replay_bit_for_bit(dots):
    m = nesmind.Machine(dots)
    m.step("Start", frames=200)
    c, state = m.clone(), m.save_state()
    m.step(["A+Right", "B"], frames=100)
    c.step(["A+Right", "B"], frames=100)
    assert c.state_hash() == m.state_hash()
    assert np.array_equal(c.picture(), m.picture())
    d = nesmind.Machine(dots)
    d.load_state(state)
    d.step(["A+Right", "B"], frames=100)
    assert d.state_hash() == m.state_hash()


def test_corrupt_or_foreign_states_are_refused_and_nothing_changes(dots, hatris):
    m = nesmind.Machine(dots)
    m.step(frames=10)
    h, state = m.state_hash(), m.save_state()
    damaged = state[:-40] + b"0" * 40
    with pytest.raises(nesmind.StateError, match="corrupt: body checksum"):
        m.load_state(damaged)
    with pytest.raises(nesmind.StateError, match="belongs to another ROM"):
        nesmind.Machine(hatris).load_state(state)
    with pytest.raises(nesmind.StateError, match="not a nesmind savestate"):
        m.load_state(b"hello")
    assert m.state_hash() == h


def test_reset_power_buttons_and_rom_info(dots):
    m = nesmind.Machine(dots)
    info = m.rom_info
    assert info.mapper == 1 and info.prg_rom_size == 32768 and len(info.sha1) == 40
    m.step(frames=5)
    m.set_buttons(1, "Start+A")
    assert m.buttons(1) == nesmind.BUTTONS["Start"] | nesmind.BUTTONS["A"]
    with pytest.raises(ValueError, match="pad 4 does not exist"):
        m.set_buttons(4, 0)
    with pytest.raises(ValueError, match="unknown button"):
        m.step("Jump")
    frame = m.frame_number
    m.reset()
    assert m.frame_number == frame
    m.power()
    assert m.frame_number == 0 and m.buttons(1) == 0


def test_audio_is_collected_only_when_asked(dots):
    m = nesmind.Machine(dots, audio=True)
    m.step(frames=2)
    samples = m.audio()
    assert samples.dtype == np.int16 and 1500 < len(samples) < 1700  # 2 frames at 48 kHz
    with pytest.raises(nesmind.NesError, match="audio=True"):
        nesmind.Machine(dots).audio()


def test_frames_run_without_the_gil(dots):
    m = nesmind.Machine(dots)
    count, stop = [0], threading.Event()

    def spin():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        c0 = count[0]
        m.run_frames(300)
        progressed = count[0] - c0
    finally:
        stop.set()
        t.join()
    assert progressed > 10000, f"another thread ran only {progressed} loops while frames ran"


def test_vec_machine_equals_single_machines(dots):
    n = 3
    vec = nesmind.VecMachine(dots, n, threads=2)
    singles = [nesmind.Machine(dots) for _ in range(n)]
    ram = np.zeros((n, 2048), np.uint8)
    rgb = np.zeros((n, 240, 256, 3), np.uint8)
    rng = np.random.default_rng(1)
    for _ in range(40):
        buttons = rng.integers(0, 256, size=(n, 2), dtype=np.uint8)
        vec.step(buttons, 3, ram_out=ram, rgb_out=rgb)
        for i, m in enumerate(singles):
            m.step([int(b) for b in buttons[i]], frames=3)
    assert vec.state_hashes() == [m.state_hash() for m in singles]
    for i, m in enumerate(singles):
        assert np.array_equal(ram[i], m.ram) and np.array_equal(rgb[i], m.picture())
    assert vec.get(1).state_hash() == singles[1].state_hash()
    vec.set(0, singles[2])
    assert vec.state_hashes()[0] == singles[2].state_hash()
    with pytest.raises(ValueError, match="2 button rows given for 3 machines"):
        vec.step([0, 0])
    with pytest.raises(ValueError, match="ram_out has shape"):
        vec.step([0, 0, 0], ram_out=np.zeros((2, 2048), np.uint8))
    with pytest.raises(IndexError):
        vec.get(3)


def test_vec_machine_names_the_machine_that_jammed():
    vec = nesmind.VecMachine(nrom(JAM), 2)
    with pytest.raises(nesmind.JamError, match="machine 0"):
        vec.step([0, 0])
