"""stable-retro's `.bk2` movies (BizHawk's layout): reading them as stable-retro's `Movie`
does, and writing them as its recording does, so a run recorded on nesmind plays back in
stable-retro and the other way round.

A `.bk2` is a zip: `Header.txt` (`key value` lines; the game's name), `Input Log.txt` (a
line of key names, `P1 A|P1 Right|...|`, then a line per frame: `|..|` and each player's
8 keys, `.` when up) and `Core.bin`, the start state (FCEUmm's, uncompressed). The first
frame line is the reset's frame, before the first step.
"""

import gzip
import zipfile
from typing import List, Optional

from . import _nesmind

#: stable-retro's NES buttons in action order (`None`: no button at that index).
BUTTONS = ["B", None, "SELECT", "START", "UP", "DOWN", "LEFT", "RIGHT", "A"]

#: A bk2 movie's key names (after "P1 ") for stable-retro's NES button names.
_MOVIE_KEYS = {"B": "B", "SELECT": "Select", "START": "Start", "UP": "Up", "DOWN": "Down",
               "LEFT": "Left", "RIGHT": "Right", "A": "A"}


class Movie:
    """A stable-retro (BizHawk-style) `.bk2` movie, read as stable-retro's `Movie` reads it:

        movie = nesmind.retro.Movie("run.bk2")
        movie.step()
        env = nesmind.retro.make(movie.get_game(), state=None, players=movie.players,
                                 use_restricted_actions=nesmind.retro.Actions.ALL)
        env.initial_state = movie.get_state()
        env.reset()
        while movie.step():
            env.step([movie.get_key(i, p) for p in range(movie.players)
                      for i in range(env.num_buttons)])

    The zip holds `Header.txt` (the game's name), `Input Log.txt` (one line of keys per
    frame) and `Core.bin` (the start state, FCEUmm's). Only playing back is supported."""

    def __init__(self, path: str, record: bool = False, players: int = 1):
        import zipfile

        if record:
            raise _nesmind.NesError("Movie reads .bk2 files; record with make(..., record=DIR) "
                                    "or env.record_movie(path)")
        try:
            with zipfile.ZipFile(path) as z:
                names = set(z.namelist())
                for need in ("Header.txt", "Input Log.txt"):
                    if need not in names:
                        raise _nesmind.NesError(f"{path}: not a .bk2 movie (no {need})")
                header = z.read("Header.txt").decode("utf-8", "replace")
                log = z.read("Input Log.txt").decode("utf-8", "replace").splitlines()
                self._state = z.read("Core.bin") if "Core.bin" in names else None
        except (OSError, zipfile.BadZipFile) as e:
            raise _nesmind.NesError(f"{path}: cannot read the movie: {e}") from None
        fields = dict(line.split(" ", 1) for line in header.splitlines() if " " in line)
        self._game = fields.get("GameName")
        lines = [ln for ln in log if ln.strip() and not ln.startswith("[")]
        if not lines or lines[0].startswith("|"):
            raise _nesmind.NesError(f"{path}: the input log names no keys")
        self._keys = [k for k in lines[0].split("|") if k]
        self._frames = []
        for n, line in enumerate(lines[1:], start=1):
            cells = line.split("|")[2:]  # "", the console's column, then the pads'
            flat = "".join(cells)
            if len(flat) != len(self._keys):
                raise _nesmind.NesError(
                    f"{path}: frame {n} has {len(flat)} keys, the log names {len(self._keys)}")
            self._frames.append(frozenset(k for k, c in zip(self._keys, flat) if c != "."))
        self.players = max((int(k[1:k.index(" ")]) for k in self._keys
                            if k.startswith("P") and " " in k), default=1)
        self._at = -1

    def step(self) -> bool:
        """Moves to the next frame; False past the last."""
        self._at += 1
        return self._at < len(self._frames)

    def get_key(self, key: int, player: int = 0) -> bool:
        """Whether stable-retro's button `key` (B, -, SELECT, START, UP, DOWN, LEFT, RIGHT,
        A) of `player` (from 0) is held in this frame."""
        if not 0 <= self._at < len(self._frames) or not 0 <= key < len(BUTTONS):
            return False
        name = BUTTONS[key]
        return name is not None and f"P{player + 1} {_MOVIE_KEYS[name]}" in self._frames[self._at]

    def get_state(self) -> Optional[bytes]:
        return self._state

    def get_game(self) -> Optional[str]:
        return self._game

    def close(self):
        pass


#: The keys of one player in stable-retro's input log, and the letter shown when held.
_LOG_KEYS = [("A", "A", "A"), ("Right", "RIGHT", "R"), ("Left", "LEFT", "L"),
             ("Down", "DOWN", "D"), ("Up", "UP", "U"), ("Start", "START", "S"),
             ("Select", "SELECT", "s"), ("B", "B", "B")]


class Bk2Writer:
    """Records a `.bk2` as stable-retro's recording writes it: `frame(masks)` adds a line
    (each player's buttons as a mask, bit i = `BUTTONS[i]`), `close()` writes the file."""

    def __init__(self, path: str, game: str, players: int, state: Optional[bytes]):
        if state is not None and state[:2] == b"\x1f\x8b":
            state = gzip.decompress(state)
        if state is not None and not state.startswith(b"FCS"):
            raise _nesmind.NesError(
                "recording a .bk2 needs the start state as FCEUmm saved it (an integration's "
                "state); this one is a nesmind savestate, which stable-retro cannot load")
        self.path, self.game, self.players, self.state = path, game, players, state
        self._lines: List[str] = []

    def frame(self, masks: List[int]):
        cells = []
        for p in range(self.players):
            mask = masks[p] if p < len(masks) else 0
            held = {BUTTONS[i] for i in range(len(BUTTONS)) if mask >> i & 1 and BUTTONS[i]}
            cells.append("".join(c if name in held else "." for _, name, c in _LOG_KEYS))
        self._lines.append("|..|" + "|".join(cells) + "|")

    def close(self):
        keys = "".join(f"P{p + 1} {k}|" for p in range(self.players) for k, _, _ in _LOG_KEYS)
        header = (f"MovieVersion Retro\nAuthor ?\nemuVersion nesmind\nPlatform NES\n"
                  f"GameName {self.game}\nSHA1 ?\nCore ?\nrerecordCount 0\n")
        with zipfile.ZipFile(self.path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("Header.txt", header)
            z.writestr("Input Log.txt", keys + "\n" + "\n".join(self._lines) + "\n[/Input]")
            if self.state is not None:
                z.writestr("Core.bin", self.state)
