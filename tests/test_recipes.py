"""The recipes in examples/ run: each trains for a few hundred steps in a subprocess and prints its
final evaluation against Tom; examples/README.md lists every recipe with a command that exists.

Each run takes about 30-45 s on the 2-core machine (mostly imports and Tianshou's own numba
compilation); the generous timeout only guards against a hang.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
RUN_TIMEOUT_S = 600  # a hang, not a slow machine, should fail the test
EVAL_GAMES = 4
SEED = 3
FINAL = re.compile(r"^final evaluation: (?P<kind>\S+) (?P<agent>\S+) won (?P<wins>\d+)/(?P<games>\d+) games "
                   r"against Tom 5 \(win rate (?P<rate>[0-9.]+), 95% CI [0-9.]+-[0-9.]+; mean score "
                   r"(?P<score>[0-9.]+), mean margin [-+][0-9.]+\)", re.MULTILINE)
CLEANRL_FINAL = re.compile(r"^final evaluation: masked_ppo won (?P<wins>\d+)/(?P<games>\d+) games against "
                           r"Tom 5 \(win rate (?P<rate>[0-9.]+), 95% CI [0-9.]+-[0-9.]+; mean score "
                           r"(?P<score>[0-9.]+), mean margin [-+][0-9.]+\); trained (?P<steps>\d+) steps "
                           r"at (?P<sps>\d+) SPS$", re.MULTILINE)
ITERATION = re.compile(r"^iteration (\d+)/(\d+) step (\d+): games \d+, episodic .* SPS \d+$", re.MULTILINE)


def run_recipe(script, *args):
    """Run ``examples/<script>`` with ``args`` in a subprocess; the CompletedProcess."""
    return subprocess.run([sys.executable, str(EXAMPLES / script), *map(str, args)], cwd=REPO,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S)


def assert_ran(result):
    """Exit code 0, with the output in the message otherwise."""
    output = f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert result.returncode == 0, f"exit {result.returncode}\n{output}"


def test_tianshou_recipe_trains_and_evaluates_against_tom():
    # One env: Tianshou's plain ReplayBuffer, without VectorReplayBuffer's ~10 s numba compile.
    result = run_recipe("tianshou_pettingzoo.py", "--steps", 300, "--num-envs", 1, "--toms", 5,
                        "--eval-games", EVAL_GAMES, "--test-episodes", 1, "--seed", SEED)
    assert_ran(result)
    assert "trained 1 DQN learner(s) for 300 steps" in result.stdout
    assert re.search(r"^Epoch #1: test_reward: ", result.stdout, re.MULTILINE), result.stdout
    lines = {m["kind"]: m for m in FINAL.finditer(result.stdout)}
    assert set(lines) == {"random", "dqn"}, result.stdout
    for line in lines.values():
        assert int(line["games"]) == EVAL_GAMES
        assert 0 <= int(line["wins"]) <= EVAL_GAMES
        assert float(line["rate"]) == pytest.approx(int(line["wins"]) / EVAL_GAMES, abs=0.005)
    assert lines["dqn"]["agent"] == "dqn_player_0"


def test_cleanrl_recipe_trains_on_the_native_vector_env_and_evaluates():
    num_envs, num_steps = 4, 32
    result = run_recipe("cleanrl_masked_ppo.py", "--total-timesteps", 256, "--num-envs", num_envs,
                        "--num-steps", num_steps, "--toms", 5, "--eval-games", EVAL_GAMES, "--seed", SEED)
    assert_ran(result)
    iterations = ITERATION.findall(result.stdout)
    assert [(int(i), int(n), int(s)) for i, n, s in iterations] == [
        (1, 2, num_envs * num_steps), (2, 2, 2 * num_envs * num_steps)], result.stdout
    final = CLEANRL_FINAL.search(result.stdout)
    assert final, result.stdout
    assert int(final["games"]) == EVAL_GAMES and int(final["steps"]) == 2 * num_envs * num_steps
    assert int(final["sps"]) > 0
    # Masking: an illegal action would have ended a game with a warning from the vector env.
    assert "illegal action" not in result.stderr


def test_cleanrl_recipe_refuses_a_bad_tom_naming_the_option():
    result = run_recipe("cleanrl_masked_ppo.py", "--toms", "13")
    assert result.returncode == 2
    assert "--toms" in result.stderr and "13" in result.stderr


def test_examples_readme_lists_every_recipe_with_its_command():
    readme = (EXAMPLES / "README.md").read_text()
    scripts = sorted(p.name for p in EXAMPLES.glob("*.py"))
    assert scripts, "no recipes in examples/"
    for script in scripts:
        assert f"python examples/{script}" in readme, f"{script} has no command in examples/README.md"
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if not target.startswith("http"):
            assert (EXAMPLES / target).resolve().exists(), f"examples/README.md links a missing {target}"
