"""Arena batches on Ray: the games of `nesmind arena spot` spread over Ray workers and
merged into the report the single-machine command prints.

    import ray, nesmind.ray
    ray.init()                                   # or ray.init(address="ray://HEAD:10001")
    print(nesmind.ray.arena_spot(games=100000, seats="hypermax-article,nes-ai:5", seed=7))

Games are reproducible by index for a seed, so with seats whose budget is fixed (depth or
nodes, not time: hypermax-article, nes-ai, greedy, random) the totals equal those of one
machine playing the whole range, however the range is split.
"""

from typing import Any, Dict, List, Optional

from . import _nesmind


def _play_slice(settings: Dict[str, Any], first: int, count: int) -> List[dict]:
    return _nesmind.SpotArena(**settings).play(first, count)


def arena_spot(games: int = 100, players: int = 2, seats: str = "spot,nes-ai:5",
               move_time_ms: int = 100, seed: int = 1, layout: Optional[str] = None,
               bonus: bool = True, all_layouts: bool = False, skip_decided: bool = False,
               tasks: Optional[int] = None) -> str:
    """Plays `games` games as Ray tasks (default: 4 per CPU in the cluster, at most one per
    game) and returns the `nesmind arena spot` report of all of them."""
    import ray

    settings = dict(games=games, players=players, seats=seats, move_time_ms=move_time_ms,
                    seed=seed, layout=layout, bonus=bonus, all_layouts=all_layouts,
                    skip_decided=skip_decided)
    arena = _nesmind.SpotArena(**settings)  # checks the settings before any task starts
    if not ray.is_initialized():
        ray.init()
    if tasks is None:
        tasks = 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    tasks = max(1, min(tasks, games))
    remote = ray.remote(num_cpus=1)(_play_slice)
    bounds = [games * t // tasks for t in range(tasks + 1)]
    refs = [remote.remote(settings, lo, hi - lo) for lo, hi in zip(bounds, bounds[1:]) if hi > lo]
    records = [r for part in ray.get(refs) for r in part]
    records.sort(key=lambda r: r["index"])
    return arena.report(records)
