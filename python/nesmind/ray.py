"""Batches on Ray: the games of `nesmind arena spot`, `nesmind sim hatris` and
`nesmind demo spot|hatris --headless` spread over Ray workers and merged into the report
the single-machine command prints.

    import ray, nesmind.ray
    ray.init()                                   # or ray.init(address="ray://HEAD:10001")
    print(nesmind.ray.arena_spot(games=100000, seats="hypermax-article,nes-ai:5", seed=7))
    print(nesmind.ray.sim_hatris(runs=10000, seed=1))
    print(nesmind.ray.demo("spot", games=1000, workers=64))

Games are reproducible by index for a seed, so with a fixed budget (depth or nodes, not
time) the totals equal those of one machine playing the whole batch, however it is split.
`demo spot` is the exception that proves the rule: the command gives each of its
`--threads` workers a seed and a share of the games, so `workers=T` reproduces
`--threads T`.

Without a running Ray instance each function calls `ray.init()` (a local one).
"""

import time
from typing import Any, Callable, Dict, List, Optional

from . import _nesmind


def _init():
    import ray

    if not ray.is_initialized():
        ray.init()
    return ray


def _cpus(ray) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _spread(ray, play: Callable, settings: Dict[str, Any], games: int,
            tasks: Optional[int]) -> List[dict]:
    """Runs `play(settings, first, count)` over slices of 0..games as Ray tasks (default:
    4 per CPU, at most one per game) and returns all records, by index."""
    if tasks is None:
        tasks = 4 * _cpus(ray)
    tasks = max(1, min(tasks, games))
    remote = ray.remote(num_cpus=1)(play)
    bounds = [games * t // tasks for t in range(tasks + 1)]
    refs = [remote.remote(settings, lo, hi - lo) for lo, hi in zip(bounds, bounds[1:]) if hi > lo]
    records = [r for part in ray.get(refs) for r in part]
    records.sort(key=lambda r: r["index"])
    return records


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
               tasks: Optional[int] = None) -> str:
    """Plays `games` games of `nesmind arena spot` as Ray tasks (default: 4 per CPU in the
    cluster, at most one per game) and returns its report of all of them. With `move_nodes`
    or `depth` (the command's --move-nodes/--depth) the totals equal one machine's for the
    same seed; `move_time_ms` alone depends on each worker's speed."""
    settings = dict(games=games, players=players, seats=seats, move_time_ms=move_time_ms,
                    seed=seed, layout=layout, bonus=bonus, all_layouts=all_layouts,
                    skip_decided=skip_decided, move_nodes=move_nodes, depth=depth)
    arena = _nesmind.SpotArena(**settings)  # checks the settings before any task starts
    ray = _init()
    return arena.report(_spread(ray, _play_arena, settings, games, tasks))


def _text(path: Optional[str]) -> Optional[str]:
    if path is None:
        return None
    with open(path, encoding="utf-8") as f:
        return f.read()


def sim_hatris(runs: int = 2000, seed: int = 1, no_skew: bool = False,
               weights: Optional[str] = None, third_pair_lines: Optional[int] = None,
               settings: Optional[str] = None, reading: Optional[str] = None,
               height_limit: Optional[int] = None, max_spawns: Optional[int] = None,
               tasks: Optional[int] = None) -> str:
    """Plays `nesmind sim hatris` (the flags of the same names; `weights` and `settings` are
    file paths, read here) as Ray tasks and returns its report. Its `threads` figure is
    the CPUs of the cluster; the `time` line is this batch's wall-clock time."""
    kwargs = dict(runs=runs, seed=seed, no_skew=no_skew, weights=_text(weights),
                  third_pair_lines=third_pair_lines, settings=_text(settings),
                  reading=reading, height_limit=height_limit, max_spawns=max_spawns)
    sim = _nesmind.HatrisSim(**kwargs)
    ray = _init()
    start = time.monotonic()
    records = _spread(ray, _play_sim, kwargs, runs, tasks)
    return sim.report(records, _cpus(ray), time.monotonic() - start)


def demo_hatris(runs: int = 10, seed: int = 1, max_spawns: int = 1000,
                cart_variant: Optional[int] = None,
                plugin_options: Optional[Dict[str, str]] = None,
                tasks: Optional[int] = None) -> str:
    """Plays `nesmind demo hatris --headless` (the flags of the same names) as Ray tasks and
    returns what it prints with `--threads 1`: the games in seed order, then the summary."""
    kwargs = dict(runs=runs, seed=seed, max_spawns=max_spawns, cart_variant=cart_variant,
                  plugin_options=plugin_options)
    batch = _nesmind.HatrisDemo(**kwargs)
    ray = _init()
    return batch.report(_spread(ray, _play_hatris_demo, kwargs, runs, tasks))


def demo_spot(games: int = 10, players: int = 2, plugin_seats: int = 1, level: int = 5,
              move_nodes: Optional[int] = None, depth: Optional[int] = None,
              move_ms: Optional[int] = None, seed: int = 1, animations: bool = False,
              cart_variant: Optional[int] = None, workers: Optional[int] = None) -> str:
    """Plays `nesmind demo spot --headless --threads WORKERS` (the other flags of the same
    names) with one Ray task per worker (default: the CPUs of the cluster) and returns
    what it prints. Problems met in the games raise NesError, as the command fails."""
    kwargs = dict(games=games, players=players, plugin_seats=plugin_seats, level=level,
                  move_nodes=move_nodes, depth=depth, move_ms=move_ms, seed=seed,
                  animations=animations, cart_variant=cart_variant)
    batch = _nesmind.SpotDemo(**kwargs)
    ray = _init()
    workers = batch.workers_for(workers if workers is not None else _cpus(ray))
    remote = ray.remote(num_cpus=1)(_play_spot_worker)
    parts = ray.get([remote.remote(kwargs, w, workers) for w in range(workers)])
    text, errors = batch.report(parts)
    if errors:
        raise _nesmind.NesError(f"{len(errors)} problem(s):\n" + "\n".join(errors)
                                + "\nafter:\n" + text)
    return text


def demo(game: str, **options: Any) -> str:
    """`nesmind demo GAME --headless` on Ray: demo_spot(**options) or demo_hatris(**options)."""
    batches = {"spot": demo_spot, "hatris": demo_hatris}
    if game.lower() not in batches:
        raise ValueError(f"no demo batch for '{game}' (demos: spot, hatris)")
    return batches[game.lower()](**options)
