"""A real Ray cluster, not one process: a head and a second node started as separate processes on
this machine (``ray start --head --port ...`` and ``ray start --address ...``, each with one CPU
of its own), RLlib training whose two env runners sit one on each node, and ``tiny-york eval
--ray ADDRESS`` whose games are played on both nodes; then both nodes are stopped (only these
two: ``ray start --block`` keeps each in a process of the test's own).

Where this machine refuses the ports a node listens on, the test is skipped and says so."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="ray[rllib] is the ray extra that make test installs")

pytestmark = [pytest.mark.cluster, pytest.mark.slow]  # about 2 minutes: run with -m slow

RAY_CLI = Path(sys.executable).with_name("ray")
TINY_YORK_CLI = Path(sys.executable).with_name("tiny-york")
HOST = "127.0.0.1"
START_SECONDS = 90
OBJECT_STORE_BYTES = 200 * 1024 * 1024  # each node's object store: small, the games send little
# Both nodes and every driver of this cluster agree on its authentication: none, on loopback.
CLUSTER_ENV = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


def free_port() -> int:
    """A TCP port on loopback nobody listens on now; skip the test if none can be had."""
    try:
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            return probe.getsockname()[1]
    except OSError as error:
        pytest.skip(f"this machine refuses loopback ports ({error}): no cluster can start here")


def wait_for_port(port: int, node: subprocess.Popen, log: Path) -> None:
    """Until the head's GCS accepts connections; skip if the head could not bind its ports."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if node.poll() is not None:
            text = log.read_text(errors="replace")
            if "address already in use" in text.lower() or "permission denied" in text.lower():
                pytest.skip(f"the Ray head could not bind its ports here: {text[-300:]}")
            raise AssertionError(f"ray start --head exited with {node.returncode}: {text[-2000:]}")
        with socket.socket() as probe:
            if probe.connect_ex((HOST, port)) == 0:
                return
        time.sleep(0.5)
    raise AssertionError(f"the Ray head did not listen on {HOST}:{port} in {START_SECONDS} s")


def start_node(args: list[str], log: Path) -> subprocess.Popen:
    """``ray start ARGS --block`` in a process of its own (its output into ``log``)."""
    with log.open("w") as out:
        return subprocess.Popen([str(RAY_CLI), "start", *args, "--num-cpus", "1",
                                 "--object-store-memory", str(OBJECT_STORE_BYTES),
                                 "--disable-usage-stats", "--block"],
                                stdout=out, stderr=subprocess.STDOUT, env=CLUSTER_ENV)


def alive_nodes() -> list[dict]:
    """The cluster's nodes that are up."""
    return [node for node in ray.nodes() if node["Alive"]]


@pytest.fixture(scope="module")
def two_node_cluster(tmp_path_factory):
    """The head and a second node on this machine; yields the head's address."""
    if ray.is_initialized():
        ray.shutdown()
    logs = tmp_path_factory.mktemp("ray-nodes")
    # The head's own temporary folder (short: Ray's socket paths must stay short), so that its
    # session and the address file ``ray start`` leaves never touch another Ray on this machine.
    temp_dir = tempfile.mkdtemp(prefix="tyray")
    port, client_port = free_port(), free_port()
    head = start_node(["--head", "--port", str(port), "--node-ip-address", HOST, "--temp-dir", temp_dir,
                       "--ray-client-server-port", str(client_port), "--include-dashboard", "false",
                       "--resources", '{"head_node": 1}'], logs / "head.log")
    nodes = [head]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_AUTH_MODE", CLUSTER_ENV["RAY_AUTH_MODE"])  # this driver agrees with the nodes
        try:
            wait_for_port(port, head, logs / "head.log")
            address = f"{HOST}:{port}"
            nodes.append(start_node(["--address", address, "--node-ip-address", HOST,
                                     "--resources", '{"second_node": 1}'], logs / "second.log"))
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
            deadline = time.monotonic() + START_SECONDS
            while len(alive_nodes()) < 2 and time.monotonic() < deadline:
                time.sleep(0.5)
            assert len(alive_nodes()) == 2, (logs / "second.log").read_text(errors="replace")[-2000:]
            yield address
        finally:
            if ray.is_initialized():
                ray.shutdown()
            for node in reversed(nodes):
                node.terminate()
            for node in reversed(nodes):
                try:
                    node.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    node.kill()
            shutil.rmtree(temp_dir, ignore_errors=True)


def test_the_cluster_has_two_nodes_with_their_own_resources(two_node_cluster):
    resources = [node["Resources"] for node in alive_nodes()]
    assert sorted(r["CPU"] for r in resources) == [1.0, 1.0]
    assert sum("head_node" in r for r in resources) == 1 and sum("second_node" in r for r in resources) == 1


def test_rllib_trains_with_an_env_runner_on_each_node(two_node_cluster):
    from tiny_york_env.training.rllib_train import build_algorithm_config
    config, _, _ = build_algorithm_config({"game": "tiny_york", "num_agents": 1, "toms": [5]},
                                          num_env_runners=2, envs_per_runner=4, train_batch=256,
                                          minibatch=64, epochs=1, hidden=(32, 32))
    algo = config.build_algo()
    try:
        results = [algo.train() for _ in range(2)]
        runner_nodes = algo.env_runner_group.foreach_env_runner(
            lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False)
    finally:
        algo.stop()
    assert len(runner_nodes) == 2 and len(set(runner_nodes)) == 2  # one runner on each node
    assert set(runner_nodes) == {node["NodeID"] for node in alive_nodes()}
    assert results[-1]["env_runners"]["num_env_steps_sampled_lifetime"] >= 512


def ladder_cells(stdout: str) -> list[list[str]]:
    """The printed ladder's rows without their timing column (seconds a game)."""
    return [line.split()[:-1] for line in stdout.splitlines() if line.startswith("greedy")]


def test_tiny_york_eval_plays_its_games_on_both_nodes(two_node_cluster, tmp_path):
    ladder = [str(TINY_YORK_CLI), "eval", "--agent", "greedy", "--levels", "1,5", "--games", "100",
              "--seed", "4", "--no-progress"]
    local = subprocess.run([*ladder, "--out", str(tmp_path / "local")], capture_output=True, text=True,
                           timeout=600, env=CLUSTER_ENV)
    on_cluster = subprocess.run([*ladder, "--ray", two_node_cluster, "--out", str(tmp_path / "cluster")],
                                capture_output=True, text=True, timeout=600, env=CLUSTER_ENV)
    assert local.returncode == 0, local.stderr[-2000:]
    assert on_cluster.returncode == 0, on_cluster.stderr[-2000:]
    assert "played as Ray tasks on 2 nodes" in on_cluster.stdout
    assert ladder_cells(on_cluster.stdout) and ladder_cells(on_cluster.stdout) == ladder_cells(local.stdout)
