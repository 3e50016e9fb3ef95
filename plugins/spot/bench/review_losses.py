#!/usr/bin/env python3
"""Reviews the games a UAI engine did not win in an `ataxx_match.py --record FILE` run: for
each, the result of the same opening with the colours swapped, a deep search's verdict on the
opening for the engine's side, and every engine move where the deep search (the same
engine, many more nodes) sees a clearly better one, with the score it gave away.

  python/.venv/bin/python plugins/spot/bench/review_losses.py --record games.jsonl \\
      --engine "target/quick/nesmind uai spot" --nodes 2000000

Scores are the engine's: centipieces (100 = one piece) for the side the engine played, or
`mate N` (a win in N of the winner's moves; negative: a loss).
"""

import argparse
import json
import shlex
import subprocess

import ataxx

MATE = 100_000


class Engine:
    def __init__(self, command):
        self.p = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uai")
        self.wait_for("uaiok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped")
            lines.append(line.strip())
            if line.split()[:1] == [word]:
                return lines

    def search(self, fen, moves, nodes):
        """(score for the side to move, best move, pv) of a `go nodes` search."""
        self.send("uainewgame")
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go nodes {nodes}")
        lines = self.wait_for("bestmove")
        info = [l for l in lines if l.startswith("info depth")]
        best = lines[-1].split()[1]
        if not info:
            return 0, best, []
        w = info[-1].split()
        kind, value = w[w.index("score") + 1], int(w[w.index("score") + 2])
        score = (MATE - abs(value)) * (1 if value > 0 else -1) if kind == "mate" else value
        return score, best, w[w.index("pv") + 1:]

    def close(self):
        self.send("quit")
        self.p.wait()


def text(score):
    if abs(score) > MATE // 2:
        n = MATE - abs(score)
        return f"mate {n if score > 0 else -n}"
    return f"{score:+d} cp"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", required=True)
    ap.add_argument("--engine", required=True, help="the engine of the match's --first")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="nodes per deep search")
    ap.add_argument("--threshold", type=int, default=100, help="cp given away that is reported")
    args = ap.parse_args()
    games = [json.loads(l) for l in open(args.record)]
    by_fen = {}
    for g in games:
        by_fen.setdefault(g["fen"], []).append(g)
    engine = Engine(args.engine)
    for g in games:
        if g["first_score"] == 1.0:
            continue
        side = g["first_plays"]
        other = [o for o in by_fen[g["fen"]] if o is not g]
        swapped = ", ".join(f"{o['first_score']}" for o in other) or "not played"
        board = ataxx.Board(g["fen"])
        opening_to_move = "x" if board.turn == ataxx.BLACK else "o"
        score, best, pv = engine.search(g["fen"], [], args.nodes)
        if opening_to_move != side:
            score = -score
        print(f"game {g['game']}: engine {side}, result {g['first_score']}, opening {g['fen']}; "
              f"engine with the other colour: {swapped}")
        print(f"  deep search of the opening, for the engine's side: {text(score)}")
        played = []
        for ply, mv in enumerate(g["moves"]):
            to_move = "x" if board.turn == ataxx.BLACK else "o"
            if to_move == side:
                before, best, pv = engine.search(g["fen"], played, args.nodes)
                if mv != best:
                    after, _, _ = engine.search(g["fen"], played + [mv], args.nodes)
                    after = -after
                    if before - after >= args.threshold:
                        print(f"  ply {ply + 1}: played {mv} ({text(after)}), "
                              f"the deep search prefers {best} ({text(before)})")
            board.makemove(ataxx.Move.from_san(mv))
            played.append(mv)
        print(f"  final position {board.get_fen()} result {board.result()}")
    engine.close()


if __name__ == "__main__":
    main()
