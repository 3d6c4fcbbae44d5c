"""Paths on a real cluster: relative local paths are resolved on the client, whatever each worker's own working
directory (the session's scheduler and worker run in a folder of their own), and a path or bucket that does not
exist is refused before any work is sent, never created.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow.dataset as ds
import pytest

from tests.cli.support import Done, run
from tests.cluster.conftest import BOTS, Cluster, same_logs


def knock(cwd: Path, *args: str) -> Done:
    """``knock ARGS`` in this process (the client), from the folder ``cwd``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        patch.setenv("COLUMNS", "200")
        return run(*args)


def names(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def test_relative_paths_mean_the_clients_folder_on_a_cluster_whose_workers_run_elsewhere(
    cluster: Cluster, reference: Path, tmp_path: Path
) -> None:
    cluster.scale(1)
    here = tmp_path / "client"
    here.mkdir()
    folders = {Path(d).resolve() for d in cluster.client.run(os.getcwd).values()}
    assert folders and here.resolve() not in folders  # the workers' working directory is another one
    before = {folder: names(folder) for folder in folders}
    address, games = cluster.address, 12

    done = knock(here, "simulate", "--games", str(games), "--bots", ",".join(BOTS), "--cluster", address,
                 "--batch", "4", "--logs", "rel")  # fmt: skip
    assert done.returncode == 0 and f"played {games} games" in done.stdout, done.stderr
    same_logs(here / "rel", reference, range(1, games + 1))
    again = knock(here, "simulate", "--games", str(games), "--bots", ",".join(BOTS), "--cluster", address,
                  "--logs", "rel")  # fmt: skip
    assert again.returncode == 0 and "played 0 games in " in again.stdout, again.stdout  # checked on the workers
    assert f"{games} already written" in again.stdout

    checked = knock(here, "verify", "--cluster", address, "rel")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{games} files: {games} pass, 0 unfinished, 0 fail" in checked.stdout
    exported = knock(here, "export", "rel", "-o", "data", "--actions", "--cluster", address)
    assert exported.returncode == 0 and f"from {games} logs" in exported.stdout, exported.stderr
    alone = knock(here, "export", "rel", "-o", "alone", "--actions", "--jobs", "1")
    assert alone.returncode == 0, alone.stderr
    for table in ("hands", "actions"):
        remote, local = ds.dataset(here / "data" / table).to_table(), ds.dataset(here / "alone" / table).to_table()
        assert remote.num_rows > 0 and remote.equals(local)
    assert {folder: names(folder) for folder in folders} == before  # nothing written where the workers run


@pytest.mark.parametrize("where", ["local", "cluster"])
def test_a_path_or_bucket_that_does_not_exist_is_refused_and_never_created(
    where: str, cluster: Cluster, s3: str, tmp_path: Path
) -> None:
    on = ["--cluster", cluster.address] if where == "cluster" else ["--jobs", "1"]
    cluster.scale(1)
    (tmp_path / "logs").mkdir()
    refused = {
        "simulate into a missing folder": ["simulate", "--games", "2", *on, "--logs", "no/such/run"],
        "simulate into a missing bucket": ["simulate", "--games", "2", *on, "--logs", "s3://no-such-knock-bucket/r"],
        "verify a missing file": ["verify", *on, "missing.knock"],
        "verify a missing folder": ["verify", *on, "logs", "nowhere/"],
        "verify in a missing bucket": ["verify", *on, "s3://no-such-knock-bucket/r"],
        "export a missing folder": ["export", "nowhere", "-o", "out", *on],
        "export into a missing folder": ["export", "logs", "-o", "no/such/out", *on],
        "export into a missing bucket": ["export", "logs", "-o", "s3://no-such-knock-bucket/d", *on],
    }
    for what, args in refused.items():
        done = knock(tmp_path, *args)
        assert done.returncode == 2, f"{what}: {done.returncode} {done.stdout} {done.stderr}"
        assert "cannot find" in done.stderr and "Traceback" not in done.stderr, what
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs"]  # nothing made
    import fsspec

    assert not fsspec.filesystem("s3").exists("no-such-knock-bucket")


def test_the_client_asks_every_worker_whether_it_sees_a_local_path(cluster: Cluster, tmp_path: Path) -> None:
    from knock.cluster.runner import Runner

    cluster.scale(1)
    with Runner(cluster.address) as runner:
        runner.reaches(str(tmp_path))  # seen: the workers share this machine's filesystem
        runner.reaches("s3://any-bucket/run")  # a URL is every worker's to reach
        with pytest.raises(FileNotFoundError, match="not seen by 1 of 1 workers"):
            runner.reaches(str(tmp_path / "only-on-the-client"))
