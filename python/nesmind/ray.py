"""Batches on Ray: the games of `nesmind arena spot`, `nesmind sim hatris` and
`nesmind demo spot|hatris --headless` spread over Ray workers and merged into the report
the single-machine command prints.

    import ray, nesmind.ray
    ray.init()                                   # or ray.init(address="ray://HEAD:10001")
    print(nesmind.ray.arena_spot(games=1000, seats="hypermax-article,nes-ai:5", seed=7))
    print(nesmind.ray.sim_hatris(runs=100, seed=1, max_spawns=2000).summary)
    print(nesmind.ray.demo("spot", games=20, move_nodes=5000).summary["win_rate"])

Games are reproducible by index for a seed, so with a fixed budget (depth or nodes, not
time) the totals equal those of one machine playing the whole batch, however it is split.
`demo spot` is the exception that proves the rule: the command gives each of its
`--threads` workers a seed and a share of the games, so `workers=T` reproduces
`--threads T`.

Each function returns a `BatchResult`: the command's report as text (`str(result)`, what
`print` shows), the totals as numbers (`result.summary`, a dict) and one record per game
(`result.records`). While the tasks run, a progress line goes to stderr every few seconds
(`progress=False` turns it off).

Without a running Ray instance each function calls `ray.init()` (a local one).
"""

import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from . import _nesmind


@dataclass
class BatchResult:
    """A batch's report (the command's text), its totals as numbers and its games."""

    report: str
    summary: Dict[str, Any]
    records: List[dict] = field(repr=False)

    def __str__(self) -> str:
        return self.report


class _Progress:
    """"nesmind.ray: 37/200 games, 12 s" on stderr, at most every `every` seconds."""

    def __init__(self, total: int, unit: str, on: bool, every: float = 5.0):
        self.total, self.unit, self.on, self.every = total, unit, on, every
        self.start = self.last = time.monotonic()
        self.done = 0

    def add(self, n: int):
        self.done += n
        now = time.monotonic()
        if self.on and (now - self.last >= self.every or self.done == self.total):
            self.last = now
            print(f"nesmind.ray: {self.done}/{self.total} {self.unit}, {now - self.start:.0f} s",
                  file=sys.stderr, flush=True)


def _gather(ray, refs: list, sizes: List[int], progress: "_Progress") -> list:
    """The results of `refs` in order, counting each one's size as it finishes."""
    size_of = dict(zip(refs, sizes))
    pending, results = list(refs), {}
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for r in ready:
            results[r] = ray.get(r)
            progress.add(size_of[r])
    return [results[r] for r in refs]


def _mean(values: List[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _init():
    import ray

    if not ray.is_initialized():
        ray.init()
    return ray


def _cpus(ray) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _spread(ray, play: Callable, settings: Dict[str, Any], games: int,
            tasks: Optional[int], progress: bool, unit: str = "games") -> List[dict]:
    """Runs `play(settings, first, count)` over slices of 0..games as Ray tasks (default:
    4 per CPU, at most one per game) and returns all records, by index."""
    if tasks is None:
        tasks = 4 * _cpus(ray)
    tasks = max(1, min(tasks, games))
    remote = ray.remote(num_cpus=1)(play)
    bounds = [games * t // tasks for t in range(tasks + 1)]
    slices = [(lo, hi - lo) for lo, hi in zip(bounds, bounds[1:]) if hi > lo]
    refs = [remote.remote(settings, lo, n) for lo, n in slices]
    parts = _gather(ray, refs, [n for _, n in slices], _Progress(games, unit, progress))
    records = [r for part in parts for r in part]
    records.sort(key=lambda r: r["index"])
    return records


def _hatris_summary(records: List[dict]) -> Dict[str, Any]:
    spawns = [r["spawns"] for r in records]
    return {"runs": len(records), "mean_spawns": _mean(spawns),
            "min_spawns": min(spawns, default=0), "max_spawns": max(spawns, default=0),
            "capped": sum(1 for r in records if r["capped"]),
            "mean_cash": _mean([r["cash"] for r in records])}


def _play_arena(settings: Dict[str, Any], first: int, count: int) -> List[dict]:
    return _nesmind.SpotArena(**settings).play(first, count)


def _play_sim(settings: Dict[str, Any], first: int, count: int) -> List[dict]:
    return _nesmind.HatrisSim(**settings).play(first, count)


def _play_hatris_demo(settings: Dict[str, Any], first: int, count: int) -> List[dict]:
    return _nesmind.HatrisDemo(**settings).play(first, count)


def _play_spot_worker(settings: Dict[str, Any], worker: int, workers: int) -> dict:
    return _nesmind.SpotDemo(**settings).play_worker(worker, workers)


def arena_spot(games: int = 100, players: int = 2, seats: str = "spot,nes-ai:5",
               move_time_ms: int = 100, seed: int = 1, layout: Optional[str] = None,
               bonus: bool = True, all_layouts: bool = False, skip_decided: bool = False,
               move_nodes: Optional[int] = None, depth: Optional[int] = None,
               tasks: Optional[int] = None, progress: bool = True) -> BatchResult:
    """Plays `games` games of `nesmind arena spot` as Ray tasks (default: 4 per CPU in the
    cluster, at most one per game) and returns its report of all of them. With `move_nodes`
    or `depth` (the command's --move-nodes/--depth) the totals equal one machine's for the
    same seed; `move_time_ms` alone depends on each worker's speed. The summary counts each
    seat's placings ("won", "lost", ...) and gives the mean plies per game."""
    settings = dict(games=games, players=players, seats=seats, move_time_ms=move_time_ms,
                    seed=seed, layout=layout, bonus=bonus, all_layouts=all_layouts,
                    skip_decided=skip_decided, move_nodes=move_nodes, depth=depth)
    arena = _nesmind.SpotArena(**settings)  # checks the settings before any task starts
    ray = _init()
    records = _spread(ray, _play_arena, settings, games, tasks, progress)
    seats: List[Dict[str, int]] = [{} for _ in range(players)]
    for r in records:
        for seat, placing in zip(seats, r["placings"]):
            seat[placing] = seat.get(placing, 0) + 1
    summary = {"games": len(records), "seats": seats,
               "mean_plies": _mean([r["plies"] for r in records]),
               "adjudicated": sum(1 for r in records if r["adjudicated"])}
    return BatchResult(arena.report(records), summary, records)


def _text(path: Optional[str]) -> Optional[str]:
    if path is None:
        return None
    with open(path, encoding="utf-8") as f:
        return f.read()


def sim_hatris(runs: int = 2000, seed: int = 1, no_skew: bool = False,
               weights: Optional[str] = None, third_pair_lines: Optional[int] = None,
               settings: Optional[str] = None, reading: Optional[str] = None,
               height_limit: Optional[int] = None, max_spawns: Optional[int] = None,
               tasks: Optional[int] = None, progress: bool = True) -> BatchResult:
    """Plays `nesmind sim hatris` (the flags of the same names; `weights` and `settings` are
    file paths, read here) as Ray tasks and returns its report. Its `threads` figure is
    the CPUs of the cluster; the `time` line is this batch's wall-clock time."""
    kwargs = dict(runs=runs, seed=seed, no_skew=no_skew, weights=_text(weights),
                  third_pair_lines=third_pair_lines, settings=_text(settings),
                  reading=reading, height_limit=height_limit, max_spawns=max_spawns)
    sim = _nesmind.HatrisSim(**kwargs)
    ray = _init()
    start = time.monotonic()
    records = _spread(ray, _play_sim, kwargs, runs, tasks, progress, "runs")
    report = sim.report(records, _cpus(ray), time.monotonic() - start)
    return BatchResult(report, _hatris_summary(records), records)


def demo_hatris(runs: int = 10, seed: int = 1, max_spawns: int = 1000,
                cart_variant: Optional[int] = None,
                plugin_options: Optional[Dict[str, str]] = None,
                tasks: Optional[int] = None, progress: bool = True) -> BatchResult:
    """Plays `nesmind demo hatris --headless` (the flags of the same names) as Ray tasks and
    returns what it prints with `--threads 1`: the games in seed order, then the summary."""
    kwargs = dict(runs=runs, seed=seed, max_spawns=max_spawns, cart_variant=cart_variant,
                  plugin_options=plugin_options)
    batch = _nesmind.HatrisDemo(**kwargs)
    ray = _init()
    records = _spread(ray, _play_hatris_demo, kwargs, runs, tasks, progress, "runs")
    return BatchResult(batch.report(records), _hatris_summary(records), records)


def demo_spot(games: int = 10, players: int = 2, plugin_seats: int = 1, level: int = 5,
              move_nodes: Optional[int] = None, depth: Optional[int] = None,
              move_ms: Optional[int] = None, seed: int = 1, animations: bool = False,
              cart_variant: Optional[int] = None, workers: Optional[int] = None,
              progress: bool = True) -> BatchResult:
    """Plays `nesmind demo spot --headless --threads WORKERS` (the other flags of the same
    names) with one Ray task per worker (default: the CPUs of the cluster) and returns
    what it prints. Problems met in the games raise NesError, as the command fails.
    Progress counts workers, whose games end together."""
    kwargs = dict(games=games, players=players, plugin_seats=plugin_seats, level=level,
                  move_nodes=move_nodes, depth=depth, move_ms=move_ms, seed=seed,
                  animations=animations, cart_variant=cart_variant)
    batch = _nesmind.SpotDemo(**kwargs)
    ray = _init()
    workers = batch.workers_for(workers if workers is not None else _cpus(ray))
    remote = ray.remote(num_cpus=1)(_play_spot_worker)
    refs = [remote.remote(kwargs, w, workers) for w in range(workers)]
    parts = _gather(ray, refs, [1] * workers, _Progress(workers, "workers", progress))
    text, errors = batch.report(parts)
    if errors:
        raise _nesmind.NesError(f"{len(errors)} problem(s):\n" + "\n".join(errors)
                                + "\nafter:\n" + text)
    records = [g for part in parts for g in part["games"]]
    won = sum(1 for g in records if g["plugin_won"])
    summary = {"games": len(records), "plugin_won": won,
               "win_rate": won / len(records) if records else 0.0,
               "plugin_moves": sum(p["plugin_moves"] for p in parts)}
    return BatchResult(text, summary, records)


def demo(game: str, **options: Any) -> BatchResult:
    """`nesmind demo GAME --headless` on Ray: demo_spot(**options) or demo_hatris(**options)."""
    batches = {"spot": demo_spot, "hatris": demo_hatris}
    if game.lower() not in batches:
        raise ValueError(f"no demo batch for '{game}' (demos: spot, hatris)")
    return batches[game.lower()](**options)
