"""MaskablePPO training against Tom and PPOAgent: output files (the SB3 checkpoint and the policy
file), curriculum stages, save/load equality, legal play through ``choose_action``, the registry
name, SB3 checkpoints refused unless unpickling is opted into, and option errors."""

import csv
import json
import shlex
import warnings
from pathlib import Path

import gymnasium  # noqa: E402
import numpy as np
import pytest
import sb3_contrib  # noqa: F401  (required: make test installs the train extra)
from sb3_contrib import MaskablePPO  # noqa: E402

import tiny_york_env.training.train_ppo as train_ppo  # noqa: E402
from tiny_york_env.agents.base import choose_action  # noqa: E402
from tiny_york_env.agents.ppo_agent import PPOAgent, check_model_spaces  # noqa: E402
from tiny_york_env.agents.registry import make_agent, parse_agent_name  # noqa: E402
from tiny_york_env.arena.ladder import evaluate_vs_toms
from tiny_york_env.arena.records import EvalResults
from tiny_york_env.envs.vector import TinyYorkVecEnv  # noqa: E402
from tiny_york_env.games.tiny_york import (  # noqa: E402
    NUM_ACTIONS,
    GameConfig,
    apply_action,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.training.train_ppo import main, make_config, train  # noqa: E402

# A tiny, fast setup: 8 games, 32-step rollouts (256 decisions), one small hidden layer.
SMOKE = {"num_envs": 8, "n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": (32,),
         "seed": 3, "progress": False}
SMOKE_STEPS = 2048
BATCH_OBSERVATIONS = 16


pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/training/conftest.py


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One smoke training run with checkpoints and one periodic evaluation of 2 games."""
    out = tmp_path_factory.mktemp("ppo") / "Run"
    return train(total_steps=SMOKE_STEPS, toms=(1,), out=out, checkpoint_every=1024,
                 eval_every=SMOKE_STEPS, eval_games=2, eval_levels=(1,), **SMOKE)


def observation_batch(num_envs=BATCH_OBSERVATIONS, steps=30, seed=11):
    """Observations and masks of ``num_envs`` games after ``steps`` random legal moves."""
    env = TinyYorkVecEnv(num_envs, toms=(5,), seed=seed)
    obs = env.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        masks = env.action_masks()
        obs, *_ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    return obs, env.action_masks()


# ---------------------------------------------------------------- training runs

def test_smoke_run_writes_model_config_logs_checkpoints_and_eval(trained):
    assert trained.model.num_timesteps >= SMOKE_STEPS
    assert trained.model_path.is_file() and trained.model_path.name == "model.zip"
    assert trained.policy_path.is_file() and trained.policy_path.name == "policy.zip"
    config = json.loads(trained.config_path.read_text())
    assert config["num_envs"] == SMOKE["num_envs"] and config["stages"] == [["A6"]]
    assert config["net_arch"] == [32] and config["reward"] == "win"
    with open(trained.progress_csv) as handle:
        progress = list(csv.DictReader(handle))
    assert len(progress) == SMOKE_STEPS // (SMOKE["num_envs"] * SMOKE["n_steps"])
    assert "eval/win_rate_tom1" in progress[0] and "train/value_loss" in progress[0]
    checkpoints = sorted(p.name for p in trained.checkpoint_dir.glob("ppo_*_steps.zip"))
    assert checkpoints == ["ppo_1024_steps.zip", "ppo_2048_steps.zip"]
    with open(trained.eval_csv) as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["timesteps"], r["level"], r["games"], r["training_against"]) for r in rows] == [
        (str(SMOKE_STEPS), "1", "2", "A6")]
    assert 0.0 <= float(rows[0]["win_rate"]) <= 1.0
    summary = json.loads((trained.out_dir / "summary.json").read_text())
    assert summary["evaluations"] == 1 and summary["stages"][0]["ended_by"] == "steps"
    assert list(trained.out_dir.glob("events.out.tfevents.*")), "no TensorBoard log (train extra)"


def test_curriculum_moves_on_after_its_steps(tmp_path):
    result = train(curriculum=(1, 12), curriculum_steps=512, total_steps=1024, out=tmp_path,
                   **SMOKE)
    assert [s["against"] for s in result.stages] == [["A6"], ["C5"]]
    assert [(s["start_step"], s["end_step"]) for s in result.stages] == [(0, 512), (512, 1024)]
    assert [s["ended_by"] for s in result.stages] == ["steps", "steps"]


def test_curriculum_promotes_when_the_evaluated_win_rate_is_reached(tmp_path, monkeypatch):
    """Promotion when the win rate's lower bound reaches promote_at, judged between rollouts
    (the promoting rollout is trained on; the stage stops one vectorized step later), each
    evaluation on fresh games."""
    evaluated, seeds = [], []

    def always_winning(model, levels, games, seed, label="ppo", game="tiny_york"):
        evaluated.append(tuple(levels))
        seeds.append(seed)
        cells = [train_ppo.CellResult(label, f"Tom {lv}", lv, games, games, 1.0, 0.95, 1.0, 0, 0, 0)
                 for lv in levels]
        return EvalResults("ladder", cells)

    monkeypatch.setattr(train_ppo, "evaluate_policy_on_ladder", always_winning)
    result = train(curriculum=(2, 3, 4), promote_at=0.9, eval_every=256, eval_levels=(9,),
                   total_steps=1024, out=tmp_path, **SMOKE)
    rollout, step = SMOKE["num_envs"] * SMOKE["n_steps"], SMOKE["num_envs"]
    assert [s["ended_by"] for s in result.stages] == ["promotion", "promotion", "steps"]
    assert [s["end_step"] for s in result.stages][:2] == [rollout + step, 2 * (rollout + step)]
    assert evaluated[:2] == [(9, 2), (9, 3)]  # the stage's own level is added to be judged
    assert evaluated[-1] == (9,)  # the last stage cannot be promoted, so it is not added
    assert len(set(seeds)) == len(seeds)  # fresh games every evaluation


def test_a_lucky_evaluation_does_not_promote(tmp_path, monkeypatch):
    """A win rate above promote_at whose 95% lower bound is below it keeps the stage going."""
    def lucky(model, levels, games, seed, label="ppo", game="tiny_york"):
        cells = [train_ppo.CellResult(label, f"Tom {lv}", lv, games, games, 1.0, 0.6, 1.0, 0, 0, 0)
                 for lv in levels]
        return EvalResults("ladder", cells)

    monkeypatch.setattr(train_ppo, "evaluate_policy_on_ladder", lucky)
    result = train(curriculum=(2, 3), promote_at=0.9, eval_every=256, eval_levels=(9,),
                   total_steps=1024, out=tmp_path, **SMOKE)
    assert [s["ended_by"] for s in result.stages] == ["steps"]


# ---------------------------------------------------------------- PPOAgent

def test_save_then_load_gives_the_same_actions(trained):
    obs, masks = observation_batch()
    before, _ = trained.model.predict(obs, action_masks=masks, deterministic=True)
    loaded = MaskablePPO.load(trained.model_path, device="cpu")
    after, _ = loaded.predict(obs, action_masks=masks, deterministic=True)
    np.testing.assert_array_equal(before, after)
    agent = PPOAgent.load(trained.policy_path)
    assert agent.card["timesteps"] == trained.model.num_timesteps and agent.index is None
    assert [agent.act(o, m) for o, m in zip(obs, masks, strict=True)] == before.tolist()
    assert all(masks[i, a] for i, a in enumerate(before))
    unpickled = PPOAgent(trained.model_path, unsafe_unpickle=True)  # opted in: SB3's own loader
    assert [unpickled.act(o, m) for o, m in zip(obs, masks, strict=True)] == before.tolist()


def test_the_sb3_checkpoint_is_refused_without_the_opt_in(trained):
    with pytest.raises(ValueError, match="stable-baselines3 checkpoint: loading it would unpickle"
                                         r".*play '.*policy\.zip', written beside it.*unsafe_unpickle=True"):
        PPOAgent(trained.model_path)
    checkpoint = next(trained.checkpoint_dir.glob("ppo_*_steps.zip"))
    with pytest.raises(ValueError, match="stable-baselines3 checkpoint"):
        make_agent(f"ppo:{checkpoint}")


def test_seeded_stochastic_agent_repeats_and_stays_legal(trained):
    obs, masks = observation_batch()
    first = PPOAgent(trained.policy_path, deterministic=False, seed=5)
    again = PPOAgent(trained.policy_path, deterministic=False, seed=5)
    picks = [first.act(o, m) for o, m in zip(obs, masks, strict=True)]
    assert picks == [again.act(o, m) for o, m in zip(obs, masks, strict=True)]
    assert all(masks[i, a] for i, a in enumerate(picks))
    probs = first.action_probabilities(obs[0], masks[0])
    assert probs.sum() == pytest.approx(1.0) and not probs[~masks[0]].any()


def test_agent_plays_only_legal_actions_through_choose_action(trained):
    agent = PPOAgent(trained.model, deterministic=False, seed=1)
    rng = np.random.default_rng(0)
    for seed in range(2):
        state = new_game(GameConfig(num_agents=1, toms=(3,)), seed=seed)
        decisions = 0
        while not is_terminal(state):
            action = choose_action(agent, state, rng)
            assert legal_mask(state)[action]
            apply_action(state, action)
            decisions += 1
        assert decisions > 0


def test_registry_ppo_path_makes_a_ppo_agent_and_plays_the_ladder(trained):
    spec = f"ppo:{trained.policy_path}"
    assert parse_agent_name(spec) == ("ppo", {"path_or_model": str(trained.policy_path)})
    assert "Run" in str(trained.policy_path)  # the path keeps its case through the registry
    agent = make_agent(spec, seed=2)
    assert isinstance(agent, PPOAgent) and agent.deterministic
    results = evaluate_vs_toms(spec, levels=[1], games=2, seed=0, progress=False)
    assert results.cells[0].games == 2
    by_directory = make_agent(f"ppo:{trained.out_dir}")  # a run directory means its policy.zip
    obs, masks = observation_batch(4)
    assert [by_directory.act(o, m) for o, m in zip(obs, masks, strict=True)] == [
        agent.act(o, m) for o, m in zip(obs, masks, strict=True)]


# ---------------------------------------------------------------- errors

def test_missing_model_file_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no PPO model file at .*nothing.zip"):
        PPOAgent(tmp_path / "nothing.zip")
    with pytest.raises(ValueError, match="no PPO model file"):
        make_agent(f"ppo:{tmp_path / 'nothing'}")
    with pytest.raises(ValueError, match="empty path"):
        make_agent("ppo:")


class WrongSizeEnv(gymnasium.Env):
    """Only spaces: an observation size the current encoder does not produce."""

    observation_space = gymnasium.spaces.Box(0.0, 1.0, (10,), np.float32)
    action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)


def test_model_of_another_observation_size_is_refused(tmp_path):
    model = MaskablePPO("MlpPolicy", WrongSizeEnv(), n_steps=8, batch_size=8,
                        policy_kwargs={"net_arch": [4]})
    with pytest.raises(ValueError, match=r"observes shape \(10,\).*another game or encoder version"):
        check_model_spaces(model)
    model.save(tmp_path / "old.zip")
    with pytest.raises(ValueError, match="stable-baselines3 checkpoint"):
        PPOAgent(tmp_path / "old.zip")
    with pytest.raises(ValueError, match="another game or encoder version"):
        PPOAgent(tmp_path / "old.zip", unsafe_unpickle=True)


def test_not_a_model_is_refused():
    with pytest.raises(ValueError, match="needs a model file path or a MaskablePPO model"):
        PPOAgent(42)


@pytest.mark.parametrize("options, message", [
    ({"toms": (5,), "curriculum": (1, 3)}, "either toms .* or a curriculum"),
    ({"curriculum": (1, 3)}, "needs curriculum_steps"),
    ({"curriculum": (1, 3), "promote_at": 0.6}, "promote_at needs periodic evaluation"),
    ({"curriculum": (1, 3), "promote_at": 1.5, "eval_every": 10}, r"win rate in \(0, 1\]"),
    ({"curriculum": (1, 13), "curriculum_steps": 5}, r"rungs of Tiny York are its toms \[1, 2, 3"),
    ({"toms": (5,), "curriculum_steps": 100}, "only to a curriculum"),
    ({"toms": (1, 2, 3, 4)}, "2-4 participants"),
    ({"toms": ("Z9",)}, "bad Tom 'Z9'"),
    ({"num_envs": 0}, "num_envs must be a positive int"),
    ({"num_envs": 4, "n_steps": 8, "batch_size": 64}, "batch_size must be 2 to .* = 32"),
    ({"net_arch": (256, 0)}, "net_arch must be hidden layer widths"),
    ({"reward": "money"}, "reward must be one of"),
    ({"learning_rate": -1.0}, "learning_rate must be a positive number"),
    ({"eval_levels": (13,)}, "eval_levels must be rungs of the ladder"),
    ({"bots": ("greedy",)}, "bots do not apply to Tiny York"),
    ({"checkpoint_every": 0}, "checkpoint_every must be a positive int"),
    ({"torch_threads": 0}, "torch_threads must be a positive int"),
])
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(ValueError, match=message):
        make_config(**options)


def test_command_line_reports_bad_options(capsys):
    with pytest.raises(SystemExit):
        main(["--net-arch", "wide", "--no-progress"])
    assert "--net-arch must be comma-separated positive ints" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--tom", "5", "--curriculum", "1,3", "--no-progress"])
    assert "not both" in capsys.readouterr().err


def test_training_envs_raise_on_an_illegal_action_instead_of_ending_the_game():
    config = make_config(toms=(1,), num_envs=2, n_steps=8, batch_size=4, out="unused")
    env = train_ppo.make_vec_env(config, config.stages[0], 0)
    env.reset()
    assert env.venv.illegal_action == "raise"
    illegal = np.array([np.flatnonzero(~mask)[0] for mask in env.venv.action_masks()])
    with pytest.raises(ValueError, match="illegal"):
        env.step(illegal)
    env.close()


# ---------------------------------------------------------------- a curriculum reaches its last level

TRAINING_PAGE = Path(__file__).resolve().parents[2] / "docs" / "training.md"
TRAIN_PPO_COMMAND = "python -m tiny_york_env.training.train_ppo"
ROLLOUT = train_ppo.DEFAULT_N_STEPS * train_ppo.DEFAULT_NUM_ENVS  # 16,384 decisions


def test_a_curriculum_the_total_cannot_reach_is_refused_with_its_numbers():
    assert train_ppo.curriculum_steps_needed(3, 1_000_000, ROLLOUT) == 3 * 1_000_000
    with pytest.raises(ValueError, match=r"3 levels x curriculum_steps 1,000,000 .* at least "
                                         r"3,000,000 .*; got 2,000,000"):
        make_config(curriculum=(1, 3, 5), curriculum_steps=1_000_000)
    with pytest.raises(ValueError, match="at least 3,000,000"):
        make_config(curriculum=(1, 3, 5), curriculum_steps=1_000_000, total_steps=2_999_999)
    config = make_config(curriculum=(1, 3, 5), curriculum_steps=1_000_000, total_steps=3_000_000)
    assert config.total_steps == 3_000_000 and len(config.stages) == 3


def test_a_curriculum_needs_a_whole_rollout_for_its_last_level():
    # 100 steps are one whole 256-decision rollout for Tom 1 and for Tom 3: Tom 5 starts at 512
    small = {"num_envs": 8, "n_steps": 32, "batch_size": 64}
    assert train_ppo.curriculum_steps_needed(3, 100, 256) == 2 * 256 + 256
    with pytest.raises(ValueError, match="at least 768 .*; got 700"):
        make_config(curriculum=(1, 3, 5), curriculum_steps=100, total_steps=700, **small)
    assert make_config(curriculum=(1, 3, 5), curriculum_steps=100, total_steps=768, **small).is_curriculum


def test_a_curriculum_with_promotions_may_rely_on_them_but_is_warned_about():
    with pytest.warns(UserWarning, match="only promotions .* can bring it to the later levels"):
        config = make_config(curriculum=(1, 3, 5), curriculum_steps=1_000_000, promote_at=0.6,
                             eval_every=250_000)
    assert config.total_steps == train_ppo.DEFAULT_TOTAL_STEPS


def test_the_command_line_refuses_an_unreachable_curriculum_before_training(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--curriculum", "1,3,5", "--curriculum-steps", "1000000", "--out", str(tmp_path / "run"),
              "--no-progress"])
    assert exit_info.value.code == 2
    assert "needs total_steps (--total-steps) of at least 3,000,000" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_training_page_curriculum_commands_reach_every_level():
    """Every ``train_ppo --curriculum`` command line on docs/training.md parses and reaches its last
    level even without promotions (the commands start a line of a shell block)."""
    commands = [line.split("#")[0] for line in TRAINING_PAGE.read_text().splitlines()
                if line.startswith(TRAIN_PPO_COMMAND) and "--curriculum " in line]
    assert commands, "docs/training.md shows no curriculum command"
    parser = train_ppo.build_parser()
    for command in commands:
        argv = shlex.split(command.split(TRAIN_PPO_COMMAND, 1)[1])
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # not even a run that only promotions could finish
            config = make_config(**train_ppo.train_options(parser.parse_args(argv)))
        assert config.is_curriculum


def test_a_finished_run_is_not_overwritten(trained):
    with pytest.raises(ValueError, match="already holds a trained model.zip"):
        train(total_steps=SMOKE_STEPS, out=trained.out_dir, **SMOKE)


# ---------------------------------------------------------------- every stage plays its own deals

CHAIN_GAMES = 200  # games per env slot compared (a stage of 16M steps plays about 250 per slot)


def first_deals(config, stage):
    """The game seeds of a stage's first games: its derived seed + i."""
    return [(train_ppo.stage_env_seed(config, stage) + i) % 2 ** 63 for i in range(config.num_envs)]


def test_training_plays_each_stage_on_its_own_seeds(tmp_path, monkeypatch):
    """In ``train`` every stage's first games are its derived seeds, the first stage's too
    (MaskablePPO(seed=s) used to re-seed that env to s + i)."""
    made, first_seeds = [], []
    make_vec_env = train_ppo.make_vec_env

    def recording_make_vec_env(config, toms, stage):
        env = make_vec_env(config, toms, stage)
        reset = env.venv.reset

        def recording_reset():
            obs = reset()
            if len(first_seeds) == len(made) - 1:
                first_seeds.append(env.venv._game_seeds.tolist())
            return obs
        env.venv.reset = recording_reset
        made.append(config)
        return env
    monkeypatch.setattr(train_ppo, "make_vec_env", recording_make_vec_env)
    train(curriculum=(1, 12), curriculum_steps=512, total_steps=1024, out=tmp_path, **SMOKE)
    config = made[0]
    assert len(first_seeds) == 2
    assert first_seeds == [first_deals(config, 0), first_deals(config, 1)]


def stage_deals(config, stage):
    """The game seeds a stage's env plays in its first CHAIN_GAMES games per slot."""
    from tiny_york_env.core.seeds import next_seed
    deals = set()
    for seed in first_deals(config, stage):
        for _ in range(CHAIN_GAMES):
            deals.add(seed)
            seed = next_seed(seed)
    return deals


def test_stages_and_seeds_never_share_a_deal():
    """Three stages of two run seeds: six disjoint sets of deals."""
    runs = [make_config(toms=(1,), num_envs=256, seed=seed, out="unused") for seed in (3, 4)]
    deals = [stage_deals(config, stage) for config in runs for stage in range(3)]
    for a in range(len(deals)):
        for b in range(a + 1, len(deals)):
            assert not deals[a] & deals[b], (a, b)
