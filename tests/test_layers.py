"""The layers above the games, as docs/architecture's picture has them: the players
(``tiny_york_env.agents``), the arena (``tiny_york_env.arena``) and the learners
(``tiny_york_env.training``) import no game's internals and never the command line; the command
line and training do not import each other; an import inside a function in agents/ or training/
is of an optional extra only (never a way to hide a loop between two modules); the one-off
experiments use public names only. Read from the source (``scripts/import_cycles.py``'s graph and
the syntax trees), so a violation is found before it runs."""

import ast
import importlib.util
import re
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "tiny_york_env"
LAYERS = (f"{PACKAGE}.agents", f"{PACKAGE}.arena", f"{PACKAGE}.training")
# the command line (cli_types is its argparse types; terminal_game its play loop)
CLI = (f"{PACKAGE}.cli", f"{PACKAGE}.cli_compare", f"{PACKAGE}.terminal_game")
EXPERIMENTS = f"{PACKAGE}.training.experiments"
GAMES = f"{PACKAGE}.games"
# The import names of the optional extras' packages (pyproject's optional-dependencies) and of the
# libraries that come with them.
EXTRA_IMPORTS = {"torch", "stable_baselines3", "sb3_contrib", "tensorboard", "ray", "msgpack",
                 "msgpack_numpy", "open_spiel", "pyspiel", "tianshou", "starlette", "uvicorn", "sphinx"}


def load_import_cycles():
    """``scripts/import_cycles.py`` as a module."""
    spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "scripts" / "import_cycles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cycles_module():
    """The import-graph reader."""
    return load_import_cycles()


@pytest.fixture(scope="module")
def graph(cycles_module):
    """Module -> the package's modules it imports (inside functions too)."""
    return cycles_module.import_graph()


def in_layer(module, layers):
    """Whether ``module`` is one of ``layers`` or inside one."""
    return any(module == layer or module.startswith(layer + ".") for layer in layers)


def test_the_extras_named_here_are_pyprojects():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    required = {re.split(r"[\[<>=!~ ]", spec)[0] for specs in extras.values() for spec in specs}
    for package in ("torch", "stable-baselines3", "sb3-contrib", "ray", "open_spiel", "starlette"):
        assert package in required, package


def test_no_layer_above_the_games_imports_a_games_internals(graph):
    """The players, the arena and the learners read a game through its record; only the one-off
    experiments may use a game's public names (its package), never its modules."""
    internal = {}
    for module, targets in graph.items():
        if not in_layer(module, LAYERS):
            continue
        games = [t for t in targets if t.startswith(GAMES + ".")]
        allowed = [t for t in games if in_layer(module, (EXPERIMENTS,)) and t.count(".") == 2]
        if set(games) - set(allowed):
            internal[module] = sorted(set(games) - set(allowed))
    assert internal == {}


def test_the_layers_never_import_the_command_line(graph):
    importing = {module: sorted(t for t in targets if in_layer(t, CLI))
                 for module, targets in graph.items() if in_layer(module, LAYERS)}
    assert {m: t for m, t in importing.items() if t} == {}


def test_the_command_line_and_training_do_not_import_each_other(graph):
    training = f"{PACKAGE}.training"
    from_cli = {m: sorted(t for t in targets if in_layer(t, (training,)))
                for m, targets in graph.items() if in_layer(m, CLI)}
    assert {m: t for m, t in from_cli.items() if t} == {}
    from_training = {m: sorted(t for t in targets if in_layer(t, CLI))
                     for m, targets in graph.items() if in_layer(m, (training,))}
    assert {m: t for m, t in from_training.items() if t} == {}


def test_the_arena_imports_no_learner(graph):
    learners = {m: sorted(t for t in targets if in_layer(t, (f"{PACKAGE}.training",)))
                for m, targets in graph.items() if in_layer(m, (f"{PACKAGE}.arena",))}
    assert {m: t for m, t in learners.items() if t} == {}


def imports_in(node):
    """(line, imported module) of every import statement under ``node``, relative ones as written."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Import):
            yield from ((inner.lineno, alias.name) for alias in inner.names)
        elif isinstance(inner, ast.ImportFrom):
            yield inner.lineno, "." * inner.level + (inner.module or "")


def function_imports(tree):
    """(line, module) of every import made inside a function or method of ``tree``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found |= set(imports_in(node))
    return sorted(found)


def absolute(name, module, is_package):
    """``name`` as written in ``module`` (a relative import resolved)."""
    level = len(name) - len(name.lstrip("."))
    if not level:
        return name
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[:len(package) - level + 1]
    rest = name[level:]
    return ".".join(base + ([rest] if rest else []))


def needs_an_extra(name, files, seen=()):
    """Whether importing ``name`` needs an optional extra: it is one, or a project module whose
    module-level imports need one."""
    if name.split(".")[0] in EXTRA_IMPORTS:
        return True
    path = files.get(name)
    if path is None or name in seen:
        return False
    tree = ast.parse(path.read_text())
    top_level = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    names = [imported for node in top_level for _, imported in imports_in(node)]
    return any(needs_an_extra(absolute(n, name, path.name == "__init__.py"), files, (*seen, name))
               for n in names)


def test_imports_inside_functions_are_of_optional_extras_only(cycles_module):
    """In agents/ and training/, a function imports only what needs an optional extra (torch,
    stable-baselines3, ray, ...), so that the module works without it; every other import is at
    the top of its module, where the tools and readers see the layers."""
    files = cycles_module.module_files()
    hidden = {}
    for module, path in files.items():
        if not in_layer(module, (f"{PACKAGE}.agents", f"{PACKAGE}.training")):
            continue
        tree = ast.parse(path.read_text())
        for line, name in function_imports(tree):
            target = absolute(name, module, path.name == "__init__.py")
            if not needs_an_extra(target, files):
                hidden.setdefault(module, []).append(f"line {line}: {target}")
    assert hidden == {}


def test_the_check_above_finds_a_hidden_import(cycles_module, tmp_path):
    files = cycles_module.module_files()
    tree = ast.parse("def f():\n    from tiny_york_env.arena import ladder\n    import torch\n")
    found = [absolute(n, "tiny_york_env.training.x", False) for _, n in function_imports(tree)]
    assert found == ["tiny_york_env.arena", "torch"]
    assert not needs_an_extra("tiny_york_env.arena.ladder", files)
    assert needs_an_extra("torch", files) and needs_an_extra(f"{PACKAGE}.envs.vector", files)


def test_the_experiments_use_public_names_only(cycles_module):
    files = cycles_module.module_files()
    private = {}
    for module, path in files.items():
        if not in_layer(module, (EXPERIMENTS,)):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                names = [a.name for a in node.names if a.name.startswith("_")]
                source = absolute("." * node.level + (node.module or ""), module, path.name == "__init__.py")
                if names or any(part.startswith("_") for part in source.split(".")):
                    private.setdefault(module, []).append(f"{source}: {names}")
    assert private == {}


def test_training_holds_learners_and_its_experiments_and_recipes_their_own_folders():
    training = ROOT / "training"
    learners = {p.stem for p in training.glob("*.py")} - {"__init__"}
    assert learners == {"train_ppo", "selfplay", "imitate", "expert_iteration", "export", "defaults",
                        "search_game_files", "search_targets", "rllib_env", "rllib_train", "rllib_vector",
                        "evaluate", "game_matches"}  # the last two: 0.2's paths, deprecated aliases
    assert {p.stem for p in (training / "experiments").glob("*.py")} >= {
        "information_value", "opponent_model", "search_ablation", "value_cut"}
    assert not list(training.glob("*.sh")) and list((training / "recipes").glob("*.sh"))
