"""The docs' promise of type annotations: every public function and class it names is annotated.

``PUBLIC_API`` lists, by module and qualified name, what the docs show from the engine verbs,
saving and loading, the observation encoder, the picture, the agents and the evaluation harness.
A function must annotate every parameter (``self``/``cls`` aside, ``*args``/``**kwargs``
included) and its return; a class its constructor and every public method it defines. mypy
checks that the annotations are right; this test keeps them from going missing.
"""

import importlib
import inspect

import pytest

IMPLICIT_FIRST = ("self", "cls")
CALLED_DUNDERS = ("__init__", "__call__")  # special methods a user calls: the constructor, a factory

# module -> names the docs show (functions, classes, ``Class.method``) that live in it.
PUBLIC_API = {
    "tiny_york_env.games.tiny_york.api": (
        "new_game", "new_games", "current_player", "legal_mask", "legal_masks", "legal_actions",
        "pending_decision", "apply_action", "apply_actions", "step", "is_terminal", "final_scores",
        "winner", "score_breakdown", "end_character_points",
    ),
    "tiny_york_env.games.tiny_york.persist": ("save_state", "load_state"),
    "tiny_york_env.games.tiny_york.validate": ("validate_state",),
    "tiny_york_env.games.tiny_york.determinize": ("determinize",),
    "tiny_york_env.games.tiny_york.observation": (
        "encode", "encode_batch", "observation_space", "observation_table_markdown",
    ),
    "tiny_york_env.games.tiny_york.picture": ("render_rgb", "save_png"),
    "tiny_york_env.agents.base": ("Agent", "StateAgent", "choose_action", "uses_state"),
    "tiny_york_env.agents.registry": ("make_agent", "make_player", "check_player", "AgentFactory"),
    "tiny_york_env.agents.seats": ("seat_decider",),
    "tiny_york_env.agents.random_agent": ("RandomAgent",),
    "tiny_york_env.games.tiny_york.tom_rules": ("TomRulesAgent",),
    "tiny_york_env.games.tiny_york.greedy": ("GreedyAgent",),
    "tiny_york_env.agents.game_search": ("GameSearchAgent",),
    "tiny_york_env.agents.ppo_agent": ("PPOAgent",),
    "tiny_york_env.arena.ladder": ("evaluate_ladder", "evaluate_vs_toms"),
    "tiny_york_env.arena.match": ("evaluate_vs_agents", "evaluate_match"),
    "tiny_york_env.arena.tables": ("format_table",),
    "tiny_york_env.arena.records": ("combine_results", "EvalResults", "CellResult"),
    "tiny_york_env.arena.result_files": ("write_results",),
    "tiny_york_env.arena.tournament": (
        "run_tournament", "format_tournament", "write_tournament", "TournamentResults", "Standing",
    ),
    "tiny_york_env.games.tiny_york.config": ("GameConfig",),
    "tiny_york_env.games.tiny_york.actions": ("describe_action",),
    "tiny_york_env.games.tiny_york.text": ("render_text",),
    "tiny_york_env.games.tiny_york.global_state": ("encode_global_state", "global_state_space"),
    "tiny_york_env.envs.aec": ("env", "raw_env"),
    "tiny_york_env.envs.single": ("TinyYorkEnv",),
    "tiny_york_env.envs.vector": ("TinyYorkVecEnv",),
    "tiny_york_env.envs.gym_vector": ("TinyYorkVectorEnv",),
}

# What the engine quickstart imports from the package: they must be the annotated functions above.
GAME_REEXPORTS = ("new_game", "current_player", "legal_mask", "apply_action", "step", "is_terminal",
                  "final_scores", "winner", "score_breakdown", "save_state", "load_state",
                  "validate_state", "determinize", "new_games", "legal_masks", "apply_actions")


def missing_annotations(function):
    """The parts of ``function``'s signature without an annotation: parameter names and 'return'."""
    signature = inspect.signature(function)
    missing = [name for k, (name, parameter) in enumerate(signature.parameters.items())
               if parameter.annotation is inspect.Parameter.empty
               and not (k == 0 and name in IMPLICIT_FIRST)]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def public_methods(cls):
    """(name, function) of the constructor, ``__call__`` and every public method ``cls`` itself defines (not
    one that Python supplies, e.g. the ``__init__`` a Protocol class gets)."""
    methods = []
    for name, member in vars(cls).items():
        if name not in CALLED_DUNDERS and name.startswith("_"):
            continue
        if isinstance(member, (classmethod, staticmethod)):
            member = member.__func__
        if inspect.isfunction(member) and member.__qualname__.startswith(f"{cls.__qualname__}."):
            methods.append((name, member))
    return methods


def api_functions():
    """(label, function) of every function and method ``PUBLIC_API`` names."""
    found = []
    for module_name, names in PUBLIC_API.items():
        module = importlib.import_module(module_name)
        for name in names:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                methods = public_methods(obj)
                assert methods, f"{module_name}.{name} defines no constructor or public method"
                found += [(f"{module_name}.{name}.{method}", f) for method, f in methods]
            else:
                assert inspect.isfunction(obj), f"{module_name}.{name} is neither a function nor a class"
                found.append((f"{module_name}.{name}", obj))
    return found


def test_every_public_name_the_readme_shows_is_annotated():
    unannotated = {label: missing for label, f in api_functions() if (missing := missing_annotations(f))}
    assert unannotated == {}, f"public names without annotations (name: parts): {unannotated}"


def test_agent_classes_annotate_the_agent_interface():
    from tiny_york_env.agents.base import choose_action
    labels = {label for label, _ in api_functions()}
    # SearchAgent is GameSearchAgent for Tiny York: its interface is GameSearchAgent's
    for cls in ("RandomAgent", "TomRulesAgent", "GreedyAgent", "GameSearchAgent", "PPOAgent"):
        assert any(label.endswith(f".{cls}.act") for label in labels), f"{cls}.act is not checked"
    assert inspect.signature(choose_action).return_annotation in (int, "int")


def test_the_package_reexports_the_annotated_functions():
    import tiny_york_env.games.tiny_york as game
    for name in GAME_REEXPORTS:
        function = getattr(game, name)
        assert function.__module__ in PUBLIC_API, f"game.{name} comes from {function.__module__}"
        assert name in PUBLIC_API[function.__module__], f"game.{name} is not in PUBLIC_API"


def test_py_typed_marker_ships_with_the_package():
    from importlib.resources import files
    assert files("tiny_york_env").joinpath("py.typed").is_file()


def _half_annotated(state, seat: int):
    return seat


def _annotated(state: object, *seats: int, **options: str) -> int:
    return 0


class _Example:
    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation, action_mask) -> int:
        return 0

    @classmethod
    def load(cls, path: str) -> "_Example":
        return cls()

    def _private(self, x):
        return x


@pytest.mark.parametrize(("function", "expected"), [
    (_half_annotated, ["state", "return"]),
    (_annotated, []),
    (_Example.act, ["observation", "action_mask"]),
])
def test_missing_annotations_finds_what_is_missing(function, expected):
    assert missing_annotations(function) == expected


def test_public_methods_takes_constructor_and_public_methods_only():
    names = [name for name, _ in public_methods(_Example)]
    assert names == ["__init__", "act", "load"]
    assert missing_annotations(dict(public_methods(_Example))["load"]) == []
