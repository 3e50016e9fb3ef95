#!/usr/bin/env python3
"""Ataxx matches for the Spot search (a bench, not a test): UAI engines and python-ataxx's
players, refereed by python-ataxx's board, from random openings each played with both
colours. Prints W/D/L, the score, the Elo difference with its 95% error bar and, with
--sprt, the log-likelihood ratio of a sequential probability ratio test, stopping early
once it crosses a bound.

Players: `uai:COMMAND` (an engine, e.g. `uai:target/release/nesmind uai spot`),
`alphabeta:D`, `negamax:D`, `greedy`, `random` (python-ataxx's own players).

  python/.venv/bin/python plugins/spot/bench/ataxx_match.py \\
      --first "uai:target/release/nesmind uai spot" --second alphabeta:3 --movetime 100 --games 100
  python/.venv/bin/python plugins/spot/bench/ataxx_match.py \\
      --first "uai:NEW/nesmind uai spot" --second "uai:OLD/nesmind uai spot" --nodes 20000 \\
      --games 2000 --sprt 0 10
"""

import argparse
import json
import math
import warnings
import random
import shlex
import sys
import time

import ataxx
import ataxx.players
import ataxx.uai


class Player:
    """One side of the match: a UAI engine or a python-ataxx player."""

    def __init__(self, spec, args, nodes=None):
        self.spec, self.args, self.engine = spec, args, None
        self.nodes = nodes or args.nodes
        kind, _, rest = spec.partition(":")
        if kind == "uai":
            self.engine = ataxx.uai.Engine(shlex.split(rest))
            self.engine.uai()
            self.engine.isready()
        elif kind in ("alphabeta", "negamax"):
            self.depth = int(rest)
        elif kind not in ("greedy", "random"):
            sys.exit(f"unknown player '{spec}' (uai:COMMAND, alphabeta:D, negamax:D, greedy, random)")
        self.kind = kind

    def new_game(self):
        if self.engine:
            self.engine.uainewgame()

    def move(self, board, start_fen, moves):
        if self.kind == "uai":
            self.engine.position(start_fen, " ".join(moves) if moves else None)
            if self.nodes:
                text, _ = self.engine.go(nodes=self.nodes, maxwait=600)
            else:
                text, _ = self.engine.go(movetime=self.args.movetime, maxwait=600)
            if text is None:
                raise RuntimeError(f"{self.spec}: no bestmove")
            return ataxx.Move.from_san(text)
        if self.kind == "alphabeta":
            mv = ataxx.players.alphabeta(board, -99999, 99999, self.depth)
        elif self.kind == "negamax":
            mv = ataxx.players.negamax(board, self.depth)
        if self.kind in ("alphabeta", "negamax"):
            # Its search returns no move when every move loses to a game end it sees (all
            # score -99999); it then plays its first legal move.
            return mv if mv is not None else board.legal_moves()[0]
        if self.kind == "greedy":
            return ataxx.players.greedy(board)
        return ataxx.players.random_move(board)

    def close(self):
        if self.engine:
            self.engine.quit()


def opening(rng, plies, fen):
    """A random opening of `plies` plies that leaves the game running."""
    while True:
        board = ataxx.Board(fen)
        for _ in range(plies):
            moves = board.legal_moves()
            if not moves:
                break
            board.makemove(rng.choice(moves))
        if not board.gameover():
            return board.get_fen()


def play(players, fen, moves=None):
    """Plays one game from `fen`; players[0] is x. Returns the result for x: 1, 0.5, 0.
    The moves played are appended to `moves` if given."""
    board = ataxx.Board(fen)
    for p in players:
        p.new_game()
    if moves is None:
        moves = []
    while not board.gameover():
        mover = players[0] if board.turn == ataxx.BLACK else players[1]
        mv = mover.move(board, fen, moves)
        if not board.is_legal(mv):
            raise RuntimeError(f"{mover.spec} played illegal {mv} in {board.get_fen()}")
        board.makemove(mv)
        moves.append(str(mv))
    return {"1-0": 1.0, "0-1": 0.0}.get(board.result(), 0.5)


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def elo_interval(results):
    """Elo of the mean score and its 95% interval from the per-game variance."""
    n = len(results)
    mean = sum(results) / n
    var = sum((r - mean) ** 2 for r in results) / max(n - 1, 1)
    half = 1.959964 * math.sqrt(var / n)
    return elo(mean), elo(mean - half), elo(mean + half)


def llr(results, elo0, elo1):
    """GSPRT log-likelihood ratio of elo1 against elo0 (normal approximation)."""
    n = len(results)
    mean = sum(results) / n
    var = sum((r - mean) ** 2 for r in results) / n
    if var <= 0:
        return 0.0
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    return (s1 - s0) * (2 * mean - s0 - s1) * n / (2 * var)


def main():
    # python-ataxx opens the engine's pipes in binary mode with line buffering.
    warnings.filterwarnings("ignore", "line buffering", RuntimeWarning)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--first", required=True, help="the player measured")
    ap.add_argument("--second", required=True, help="its opponent")
    ap.add_argument("--games", type=int, default=100, help="games (even: each opening twice)")
    ap.add_argument("--movetime", type=int, default=100, help="ms per engine move")
    ap.add_argument("--nodes", type=int, help="nodes per engine move instead of --movetime")
    ap.add_argument("--first-nodes", type=int, help="nodes per move of --first (default --nodes)")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--fen", default=ataxx.FEN_STARTPOS, help="where openings start")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    ap.add_argument("--record", metavar="FILE", help="append each game (opening, moves, result) to FILE as a JSON line")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    # python-ataxx's players break ties with the global generator.
    random.seed(args.seed)
    first, second = Player(args.first, args, args.first_nodes), Player(args.second, args)
    lower, upper = math.log(args.beta / (1 - args.alpha)), math.log((1 - args.beta) / args.alpha)
    results, start = [], time.monotonic()
    try:
        while len(results) < args.games:
            fen = opening(rng, args.opening_plies, args.fen)
            for swap in (False, True):
                if len(results) >= args.games:
                    break
                moves = []
                x_score = play([second, first] if swap else [first, second], fen, moves)
                results.append(1 - x_score if swap else x_score)
                if args.record:
                    with open(args.record, "a") as f:
                        f.write(json.dumps({"game": len(results), "first_plays": "o" if swap else "x",
                                            "fen": fen, "moves": moves, "first_score": results[-1]}) + "\n")
                wins = results.count(1.0)
                draws = results.count(0.5)
                print(
                    f"game {len(results)} {'o' if swap else 'x'} {results[-1]} {fen}  "
                    f"W {wins} D {draws} L {len(results) - wins - draws}",
                    flush=True,
                )
            if args.sprt and len(results) >= 2:
                ratio = llr(results, *args.sprt)
                if ratio <= lower or ratio >= upper:
                    break
    finally:
        first.close()
        second.close()
    n = len(results)
    wins, draws = results.count(1.0), results.count(0.5)
    e, lo, hi = elo_interval(results)
    print(f"{args.first} vs {args.second}: games {n} W {wins} D {draws} L {n - wins - draws}")
    print(f"points {sum(results):.1f} of {n} ({100 * sum(results) / n:.2f}%)")
    if wins in (0, n) and draws == 0:
        print("elo: every game went one way, so no finite estimate or interval")
    else:
        print(f"elo {e:+.1f} [{lo:+.1f}, {hi:+.1f}] (95%)")
    if args.sprt:
        ratio = llr(results, *args.sprt)
        verdict = "H1 accepted" if ratio >= upper else "H0 accepted" if ratio <= lower else "no decision"
        print(f"sprt elo0 {args.sprt[0]} elo1 {args.sprt[1]} llr {ratio:.2f} bounds [{lower:.2f}, {upper:.2f}] {verdict}")
    print(f"time {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
