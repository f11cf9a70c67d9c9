"""The shape of the package: every game a plug-in of the same layout, no import cycles, the old
import paths kept as deprecated aliases, env classes generated from each game's record with the
signatures they always had, and a game registered at run time getting all of it."""

import dataclasses
import importlib.util
import inspect
import json
import pickle
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import tiny_york_env
from tiny_york_env.core import jit
from tiny_york_env.deprecated_paths import OLD_PATHS, new_path
from tiny_york_env.registry import BUILTIN_GAMES, get_game, register_game, unregister_game

ROOT = Path(__file__).resolve().parent.parent
GAMES_DIR = ROOT / "tiny_york_env" / "games"
# The jobs every game package does in a file of the same name (docs/adding-a-game.md)
COMMON_FILES = ("state", "setup", "actions", "legal", "rules", "scoring", "observation", "global_state",
                "determinize", "validate", "persist", "text", "picture", "board_svg", "legend", "bots",
                "bot_moves", "config", "kernels", "batch", "api", "contract", "players")


def load_import_cycles():
    """``scripts/import_cycles.py`` as a module."""
    spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "scripts" / "import_cycles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_module_imports_one_that_imports_it_back():
    cycles_module = load_import_cycles()
    graph = cycles_module.import_graph()
    assert len(graph) > 100  # the whole package was read
    assert cycles_module.cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    cycles_module = load_import_cycles()
    assert cycles_module.cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_package_itself_imports_no_old_path():
    cycles_module = load_import_cycles()
    files = cycles_module.module_files()
    stale = {}
    for module, path in files.items():
        import ast
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            old = [name for name in names if name not in files and new_path(name)]
            if old:
                stale[module] = old
    assert stale == {}


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_every_game_package_has_the_common_files(name):
    folder = GAMES_DIR / name
    missing = [job for job in COMMON_FILES if not (folder / f"{job}.py").is_file()]
    assert missing == []
    assert get_game(name).batch_module == f"tiny_york_env.games.{name}.batch"
    assert BUILTIN_GAMES[name].builder.startswith(f"tiny_york_env.games.{name}.contract:")


def test_every_game_package_imports_only_core_and_the_contract():
    cycles_module = load_import_cycles()
    graph = cycles_module.import_graph()
    allowed = ("tiny_york_env.core", "tiny_york_env.contract")
    for module, targets in graph.items():
        if not module.startswith("tiny_york_env.games."):
            continue
        own = ".".join(module.split(".")[:3])
        foreign = [t for t in targets if not t.startswith((own + ".", own + "$", *allowed)) and t != own]
        assert foreign == [], module


def test_every_game_has_its_own_compile_cache_scope():
    scopes = [path.name for path in jit.isolated_game_dirs()]
    assert scopes == sorted(BUILTIN_GAMES)
    # a game's scope: its own sources and core's, never another game's
    sources = jit.game_package_sources(GAMES_DIR / "construction_yard")
    assert any("core" in path.parts for path in sources)
    assert not any(part in path.parts for path in sources for part in ("tiny_york", "fifth_avenue"))


def test_a_plug_in_gets_its_own_cache_scope(tmp_path):
    package = tmp_path / "plugin"
    (package / "__pycache__").mkdir(parents=True)
    (package / "__init__.py").write_text("X = 1\n")
    stale = package / "__pycache__" / "rules.f-1.py311.nbi"
    stale.write_text("old")
    jit.cache_scope(package / "__init__.py")
    assert not stale.exists()  # first sight of these sources: the old cache goes
    kept = package / "__pycache__" / "rules.f-1.py311.nbc"
    kept.write_text("new")
    jit.cache_scope(package)
    assert kept.exists()  # sources unchanged: the cache stays
    (package / "__init__.py").write_text("X = 2\n")
    jit.cache_scope(package)
    assert not kept.exists()


OLD_PATH_SCRIPT = """
import importlib, json, warnings
import tiny_york_env
from tiny_york_env.deprecated_paths import OLD_PATHS
out = {}
for old, new in OLD_PATHS.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    words = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    out[old] = [module is importlib.import_module(new), module.__name__, module.__spec__.name, words]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from tiny_york_env.game.rules import apply_unchecked
    from tiny_york_env.games.tiny_york.rules import apply_unchecked as new_apply
out["submodule"] = [apply_unchecked is new_apply, [str(w.message) for w in caught]]
moved = importlib.import_module("tiny_york_env.games.construction_yard")
out["attribute"] = tiny_york_env.construction_yard is moved
print(json.dumps(out))
"""


def test_old_import_paths_are_the_new_modules_with_a_deprecation_warning():
    result = subprocess.run([sys.executable, "-c", OLD_PATH_SCRIPT], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    found = json.loads(result.stdout.strip().splitlines()[-1])
    for old, new in OLD_PATHS.items():
        same, name, spec_name, words = found[old]
        assert same and name == new and spec_name == new  # the very module, its own name kept
        assert any(old in w and new in w and "deprecated" in w for w in words), (old, words)
    same, words = found["submodule"]
    assert same and any("tiny_york_env.games.tiny_york.rules" in w for w in words)
    assert found["attribute"] is True


def test_other_names_are_not_aliased():
    assert new_path("tiny_york_env.games.tiny_york") is None
    assert new_path("tiny_york_env.gamesx") is None and new_path("tiny_york_env.gamex") is None
    assert new_path("tiny_york_env.game.rules") == "tiny_york_env.games.tiny_york.rules"
    assert new_path("tiny_york_env.game.tom") == "tiny_york_env.games.tiny_york.bots"
    with pytest.raises(AttributeError):
        tiny_york_env.no_such_module  # noqa: B018


# The public env classes' signatures before they were generated from the records (names and
# defaults in order; annotations aside); the vector envs since take gym.make_vec's max_episode_steps
SIGNATURES = {
    "TinyYorkEnv": "toms=(5,), opponents=(), seat=0, reward='win', render_mode=None, "
                   "illegal_action='terminate', illegal_reward=-1.0, "
                   "obs_dtype='float32'",
    "ConstructionYardEnv": "num_players=2, bots=('greedy',), opponents=(), seat=0, reward='win', "
                           "render_mode=None, illegal_action='terminate', illegal_reward=-1.0, "
                           "obs_dtype='float32'",
    "FifthAvenueEnv": "num_players=2, bots=('greedy',), opponents=(), seat=0, reward='win', "
                      "render_mode=None, illegal_action='terminate', illegal_reward=-1.0, "
                      "obs_dtype='float32'",
    "TinyYorkVecEnv": "num_envs, toms=(5,), reward='win', seed=None, render_mode=None, "
                      "illegal_action='terminate', illegal_reward=-1.0, num_threads=None, "
                      "obs_dtype='float32'",
    "ConstructionYardVecEnv": "num_envs, num_players=2, bots=('greedy',), reward='win', seed=None, "
                              "render_mode=None, illegal_action='terminate', illegal_reward=-1.0, "
                              "num_threads=None, "
                              "obs_dtype='float32'",
    "TinyYorkVectorEnv": "num_envs, toms=(5,), reward='win', illegal_action='terminate', "
                         "illegal_reward=-1.0, render_mode=None, opponents=(), seat=0, num_threads=None, "
                         "max_episode_steps=None, autoreset_mode=<AutoresetMode.NEXT_STEP: 'NextStep'>, "
                         "obs_dtype='float32'",
    "FifthAvenueVectorEnv": "num_envs, num_players=2, bots=('greedy',), reward='win', "
                            "illegal_action='terminate', illegal_reward=-1.0, render_mode=None, "
                            "opponents=(), seat=0, num_threads=None, max_episode_steps=None, "
                            "autoreset_mode=<AutoresetMode.NEXT_STEP: 'NextStep'>, "
                            "obs_dtype='float32'",
    "raw_env": "num_agents=2, toms=(), reward='win', render_mode=None, seed=None, illegal_action='raise', "
               "illegal_reward=-1.0, "
               "obs_dtype='float32'",
    "ConstructionYardAECEnv": "num_players=3, bots=(), reward='win', render_mode=None, seed=None, "
                              "illegal_action='raise', illegal_reward=-1.0, "
                              "obs_dtype='float32'",
    "FifthAvenueAECEnv": "num_players=3, bots=(), reward='win', render_mode=None, seed=None, "
                         "illegal_action='raise', illegal_reward=-1.0, "
                         "obs_dtype='float32'",
}
MODULES = {"Env": "single", "VecEnv": "vector", "VectorEnv": "gym_vector", "AECEnv": "aec"}


def plain_signature(cls):
    """The constructor's parameters as 'name=default', without self or annotations."""
    parts = []
    for parameter in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        empty = parameter.default is inspect.Parameter.empty
        parts.append(parameter.name if empty else f"{parameter.name}={parameter.default!r}")
    return ", ".join(parts)


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_env_classes_keep_their_signatures(name):
    cls = getattr(tiny_york_env, name)
    assert plain_signature(cls) == SIGNATURES[name]
    module = "aec" if name == "raw_env" else MODULES[next(k for k in ("VectorEnv", "VecEnv", "AECEnv", "Env")
                                                          if name.endswith(k))]
    assert getattr(importlib.import_module(f"tiny_york_env.envs.{module}"), name) is cls
    assert pickle.loads(pickle.dumps(cls)) is cls


def test_generated_classes_take_positional_setup_and_pickle():
    env = tiny_york_env.ConstructionYardEnv(3, ("random", "greedy"))
    env.reset(seed=4)
    assert env.config.num_players == 3 and env.setup == {"num_players": 3, "bots": ("random", "greedy")}
    copy = pickle.loads(pickle.dumps(env))
    assert type(copy) is type(env) and copy.setup == env.setup
    with pytest.raises(TypeError):
        tiny_york_env.ConstructionYardEnv(2, ("greedy",), toms=(3,))
    with pytest.raises(ValueError, match="agent seats"):
        tiny_york_env.ConstructionYardEnv(num_players=3, bots=())  # two agent seats, one learner


def test_a_game_registered_at_run_time_gets_its_ids_and_classes():
    record = dataclasses.replace(get_game("construction_yard"), name="yard_copy", title="Yard Copy",
                                 env_id="YardCopy-v0", aec_name="yard_copy_v0")
    register_game(record)
    try:
        assert "YardCopy-v0" in gymnasium.registry
        env = gymnasium.make("YardCopy-v0", bots=("random",))
        obs, info = env.reset(seed=3)
        assert obs.shape == (record.obs_size,) and info["action_mask"].any()
        assert type(env.unwrapped).__name__ == "YardCopyEnv"
        vec = gymnasium.make_vec("YardCopy-v0", num_envs=2)
        assert vec.reset(seed=1)[0].shape == (2, record.obs_size)
        aec = tiny_york_env.make_aec("yard_copy", num_players=2)
        aec.reset(seed=5)
        assert aec.agents == ["player_0", "player_1"]
        assert tiny_york_env.envs.aec.YardCopyAECEnv is type(aec.unwrapped)
        with pytest.raises(ValueError, match="already registered"):
            register_game(record)
        with pytest.raises(ValueError, match="Gymnasium id"):
            register_game(dataclasses.replace(record, name="yard_copy_2"))
    finally:
        unregister_game("yard_copy")
    assert "YardCopy-v0" not in gymnasium.registry
    with pytest.raises(ValueError, match="built-in"):
        unregister_game("construction_yard")


def test_every_record_fills_the_fields_the_layers_read():
    for name in BUILTIN_GAMES:
        game = get_game(name)
        state = game.new_game(seed=1)
        config = game.seat_config(1, game.automatic_choices[:1])
        assert game.num_agents(config) == 1
        assert game.automatic_label(game.automatic_choices[0])
        assert game.legend and game.pending_decision(state)
        assert "<svg" in game.board_svg(state, 0)
        picture = game.render_rgb(state)
        assert picture.dtype == np.uint8 and picture.ndim == 3
        action = int(np.flatnonzero(game.legal_mask(state))[0])
        assert game.option_text(action, state)
        assert game.seat_name(2).endswith("2")
        assert game.global_state(state).shape == game.global_state_space().shape
