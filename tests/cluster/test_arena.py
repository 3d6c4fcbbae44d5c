"""``knock arena`` on the Dask cluster: the same figures as one process."""

from __future__ import annotations

import json

from tests.cli.support import run as knock
from tests.cluster.conftest import Cluster


def test_an_arena_on_the_cluster_gives_the_figures_of_one_process(cluster: Cluster) -> None:
    cluster.scale(2)
    common = ("arena", "--bots", "greedy,simple", "--hands", "--games", "12", "-q", "--json")
    here = knock(*common, "--jobs", "1")
    there = knock(*common, "--cluster", cluster.address)
    assert here.returncode == there.returncode == 0, here.stderr + there.stderr
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    for key in ("pairings", "ladder", "hands", "units"):
        assert a[key] == b[key], key
