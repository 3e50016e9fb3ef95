"""`nesmind uai spot` driven by a UAI client nobody here wrote: python-ataxx's
`ataxx.uai.Engine`, whose board also referees every move. Builds the binary with cargo
(profile `quick`) unless NESMIND_BIN names one."""

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import need

ROOT = Path(__file__).resolve().parents[2]

# python-ataxx opens the engine's pipes in binary mode with line buffering, which Python warns about.
pytestmark = pytest.mark.filterwarnings("ignore:line buffering:RuntimeWarning")


@pytest.fixture(scope="session")
def ataxx():
    need("ataxx.uai")
    return need("ataxx")


@pytest.fixture(scope="session")
def engine_cmd():
    exe = os.environ.get("NESMIND_BIN")
    if not exe:
        cargo = shutil.which("cargo")
        if cargo is None:
            if os.environ.get("CI") == "true":
                pytest.fail("cargo is needed to build nesmind under CI=true and is missing")
            pytest.skip("cargo is not installed and NESMIND_BIN is not set")
        subprocess.run(
            [cargo, "build", "--profile", "quick", "-q", "--bin", "nesmind"], cwd=ROOT, check=True
        )
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        exe = target / "quick" / "nesmind"
    return [str(exe), "uai", "spot"]


class Recording:
    """An `ataxx.uai.Engine` that also keeps every line the engine printed."""

    def __init__(self, ataxx, cmd):
        import ataxx.uai

        lines = self.lines = []

        class Engine(ataxx.uai.Engine):
            def recv_line(self, line):
                if line:
                    lines.append(line)
                super().recv_line(line)

        self.engine = Engine(cmd)
        self.engine.uai()
        self.engine.isready()

    def wait_for(self, predicate, timeout=30.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(predicate(line) for line in list(self.lines)):
                return True
            time.sleep(0.01)
        return False


@pytest.fixture
def spot(ataxx, engine_cmd):
    r = Recording(ataxx, engine_cmd)
    yield r
    r.engine.quit()


def play_game(ataxx, engine, fen, engine_side, opponent, go):
    """Plays one game; the engine gets the start FEN and the moves so far each turn.
    Returns the board at the end."""
    board = ataxx.Board(fen)
    moves = []
    engine.uainewgame()
    while not board.gameover():
        if board.turn == engine_side:
            engine.position(fen, " ".join(moves) if moves else None)
            text, _ = go(engine)
            assert text is not None, "no bestmove"
            move = ataxx.Move.from_san(text)
            assert board.is_legal(move), f"illegal {text} in {board.get_fen()}"
            # The engine passes exactly when it must.
            assert (text == "0000") == (board.legal_moves() == [ataxx.Move.null()])
        else:
            move = opponent(board)
        board.makemove(move)
        moves.append(str(move))
    return board


def score(board, side, ataxx):
    """1, 0.5 or 0 for `side` in a finished game."""
    result = board.result()
    if result == "1/2-1/2":
        return 0.5
    return 1.0 if (result == "1-0") == (side == ataxx.BLACK) else 0.0


def test_full_games_against_python_ataxx_players(ataxx, spot):
    import ataxx.players

    fens = [ataxx.FEN_STARTPOS, ataxx.FEN_4CORNERS, ataxx.FEN_4SIDES]
    points, games = 0.0, 0
    for i, fen in enumerate(fens):
        for side in (ataxx.BLACK, ataxx.WHITE):

            def opponent(board):
                return ataxx.players.alphabeta(board, -99999, 99999, 1)

            # Node, depth and clock limits across the games.
            def go(engine, i=i):
                if i == 0:
                    return engine.go(nodes=20000, maxwait=30)
                if i == 1:
                    return engine.go(depth=3, maxwait=30)
                return engine.go(times=(5000, 5000, 50, 50), maxwait=30)

            board = play_game(ataxx, spot.engine, fen, side, opponent, go)
            assert board.gameover()
            points += score(board, side, ataxx)
            games += 1
    assert any(line.startswith("info depth") and " pv " in line for line in spot.lines)
    # A one-ply material player is no match for the search.
    assert points >= games - 0.5, f"{points} of {games}"


def test_malformed_commands_get_an_info_string_and_the_engine_plays_on(ataxx, spot):
    bad = [
        "position fen x5o/7/7/7/7/7/o5q x 0 1",
        "position startpos moves a1a2",
        "position startpos moves f2 f2",
        "position sideways",
        "go depth banana",
        "go nodes",
        "go sideways 3",
        "flibbertigibbet",
        "position fen " + "x" * 5000,
    ]
    for line in bad:
        spot.engine.send_line(line)
    spot.engine.isready()
    errors = [line for line in spot.lines if line.startswith("info string error: ")]
    assert len(errors) == len(bad), spot.lines
    assert spot.engine.client.is_alive()
    spot.engine.position(ataxx.FEN_STARTPOS, "f2")
    text, _ = spot.engine.go(depth=2, maxwait=30)
    board = ataxx.Board()
    board.makemove(ataxx.Move.from_san("f2"))
    assert board.is_legal(ataxx.Move.from_san(text))


def test_stop_ends_go_infinite_with_a_legal_move(ataxx, spot):
    spot.engine.position(ataxx.FEN_4CORNERS)
    spot.engine.send_line("go infinite")
    assert spot.wait_for(lambda line: line.startswith("info depth"))
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in spot.lines)
    spot.engine.isready(5)
    assert "readyok" in spot.lines
    engine = spot.engine
    with engine.bestmove_received:
        engine.send_line("stop")
        engine.bestmove_received.wait(10)
    assert engine.bestmove is not None, spot.lines
    assert ataxx.Board(ataxx.FEN_4CORNERS).is_legal(ataxx.Move.from_san(engine.bestmove))


def test_quit_during_a_search_ends_the_process(ataxx, engine_cmd):
    proc = subprocess.Popen(engine_cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out = []
    reader = threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True)
    reader.start()
    proc.stdin.write("position startpos\ngo infinite\n")
    proc.stdin.flush()
    time.sleep(0.2)
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    assert proc.wait(timeout=10) == 0
    reader.join(5)
    assert out and out[-1].startswith("bestmove ")
