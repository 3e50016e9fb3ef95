"""nesmind.ray on a local two-CPU Ray instance: every batch equals its single-machine
command for the same seeds."""

import pytest

import nesmind
from conftest import need


@pytest.fixture(scope="module")
def ray():
    ray = need("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def command_output(capfd, command, plugin, args):
    """What `nesmind COMMAND PLUGIN ARGS...` prints, run in this process."""
    capfd.readouterr()
    nesmind._nesmind.tool(command, plugin, args)
    return capfd.readouterr().out


def test_a_ray_arena_equals_the_single_machine_arena(ray):
    import nesmind.ray as nray
    settings = dict(games=200, seats="hypermax-article,nes-ai:5", seed=7)
    single = nesmind._nesmind.SpotArena(**settings).run(2)
    result = nray.arena_spot(tasks=7, **settings)
    spread = str(result)
    assert spread == single == result.report
    assert "games 200 players 2" in spread
    # The same totals as numbers: every game placed each seat once.
    assert result.summary["games"] == len(result.records) == 200
    for seat in result.summary["seats"]:
        assert sum(seat.values()) == 200
    won = result.summary["seats"][0].get("won", 0)
    assert f"{won}" in spread


def test_a_ray_arena_at_a_node_budget_equals_the_command(ray, capfd):
    """The Spot searcher itself (a timed seat unless given nodes) at a fixed node budget:
    the Ray batch's report is the command's, line for line."""
    import nesmind.ray as nray
    single = command_output(capfd, "arena", "spot",
                            ["--games", "200", "--seats", "spot,nes-ai:5", "--seed", "7",
                             "--move-nodes", "300", "--threads", "2"])
    spread = nray.arena_spot(games=200, seats="spot,nes-ai:5", seed=7, move_nodes=300,
                             tasks=7).report
    assert spread == single
    assert "move-nodes 300" in spread and "games 200 players 2" in spread
    with pytest.raises(ValueError, match="move_nodes must be at least 1"):
        nray.arena_spot(games=2, move_nodes=0)


def test_a_ray_hatris_sim_equals_the_command(ray, capfd):
    import nesmind.ray as nray
    single = command_output(capfd, "sim", "hatris",
                            ["--runs", "12", "--seed", "5", "--height-limit", "64",
                             "--max-spawns", "2000", "--threads", "2"])
    result = nray.sim_hatris(runs=12, seed=5, height_limit=64, max_spawns=2000, tasks=5)
    spread = result.report
    assert f"mean_spawns {result.summary['mean_spawns']:.1f}" in spread
    assert result.summary["runs"] == 12
    def untimed(text):
        return [line for line in text.splitlines() if not line.startswith("time ")]
    assert untimed(spread) == untimed(single)
    assert "threads 2" in spread.splitlines()[0]
    # The games differ, so the summary is no accident of one repeated result.
    assert "sd 0.0" not in spread and "mean_spawns" in spread


def test_a_ray_hatris_demo_equals_the_command(ray, capfd):
    import nesmind.ray as nray
    args = ["--runs", "4", "--seed", "3", "--max-spawns", "25", "--threads", "1"]
    single = command_output(capfd, "demo", "hatris", args)
    result = nray.demo("hatris", runs=4, seed=3, max_spawns=25, tasks=3)
    spread = result.report
    assert spread == single
    assert result.summary["capped"] == 4 and result.summary["mean_spawns"] == 25
    assert spread.count("\ngame ") == 3 and spread.endswith("mean_spawns 25.0\n")


def test_a_ray_spot_demo_equals_the_command_with_as_many_threads(ray, capfd):
    import nesmind.ray as nray
    args = ["--games", "5", "--seed", "11", "--move-nodes", "400", "--threads", "2"]
    single = command_output(capfd, "demo", "spot", args)
    result = nray.demo("spot", games=5, seed=11, move_nodes=400, workers=2)
    spread = result.report
    assert spread == single
    assert "5 games: plug-in won" in spread and "win_rate" in spread
    assert f"win_rate {result.summary['win_rate']:.4f}" in spread
    assert result.summary["games"] == len(result.records) == 5
    # Another split of the games is another set of games, as with another --threads.
    other = command_output(capfd, "demo", "spot", args[:-1] + ["3"])
    assert other != single
    assert nray.demo_spot(games=5, seed=11, move_nodes=400, workers=3).report == other


def test_a_ray_batch_reports_progress_on_stderr(ray, capfd):
    import nesmind.ray as nray
    capfd.readouterr()
    nray.sim_hatris(runs=6, seed=2, max_spawns=50, tasks=3)
    err = capfd.readouterr().err
    assert "nesmind.ray: 6/6 runs" in err
    nray.sim_hatris(runs=6, seed=2, max_spawns=50, tasks=3, progress=False)
    assert "nesmind.ray" not in capfd.readouterr().err


def test_bad_batches_are_refused_before_any_task(ray):
    import nesmind.ray as nray
    with pytest.raises(ValueError, match="reading must be A or B"):
        nray.sim_hatris(runs=2, reading="C")
    with pytest.raises(ValueError, match="no demo batch for 'pong'"):
        nray.demo("pong")
    with pytest.raises(ValueError, match="players"):
        nray.demo_spot(players=5)
    with pytest.raises(ValueError, match="outside the batch"):
        nesmind._nesmind.HatrisSim(runs=3).play(2, 2)
    with pytest.raises(ValueError, match="1 of 3 games have no record"):
        sim = nesmind._nesmind.HatrisSim(runs=3, max_spawns=5)
        sim.report(sim.play(0, 2), 1, 0.0)
    with pytest.raises(nesmind.NesError, match="has no 'sim' tool"):
        nesmind._nesmind.tool("sim", "spot", [])
