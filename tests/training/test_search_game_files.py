"""Expert-iteration games on disk (training/search_game_files.py) and resuming a generation."""

import numpy as np
import pytest

from tests.training.test_expert_iteration import same_details
from tiny_york_env.agents.ppo_agent import DEFAULT_MODEL_PATH
from tiny_york_env.training import expert_iteration
from tiny_york_env.training.expert_iteration import (
    ExpertIterationSettings,
    game_config,
    game_seed,
    play_search_games,
)
from tiny_york_env.training.imitate import DEFAULT_GAMMA
from tiny_york_env.training.search_game_files import game_file, load_search_game, save_search_game

GENERATION = 1
RECORD_BYTES = 16384  # a game's file holds its actions, a few numbers and its searches' statistics


def tiny_settings(tmp_path, **changes):
    """Three games with 4 playouts a decision: two solo against Tom 5, the third self-play."""
    return ExpertIterationSettings(**{"out": str(tmp_path / "exit"), "games": 3, "simulations": 4,
                                      "levels": (5,), "selfplay_every": 3, **changes})


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Game 2 (self-play) and game 0 (solo) of the tiny setup, each played once."""
    settings = tiny_settings(tmp_path_factory.mktemp("played"))
    from tiny_york_env.agents.policy_search import PolicyNetwork
    network = PolicyNetwork(DEFAULT_MODEL_PATH)
    return settings, {index: expert_iteration.play_search_game(settings, network, GENERATION, index)
                      for index in (0, 2)}


def same_game(first, second):
    """Whether two SearchGames hold the same decisions, returns and results."""
    if (first.rewards, first.solo_win, first.searched, first.changed, first.actions) != (
            second.rewards, second.solo_win, second.searched, second.changed, second.actions):
        return False
    if not same_details(first.searches, second.searches):
        return False
    if len(first.seats) != len(second.seats):
        return False
    for mine, theirs in zip(first.seats, second.seats, strict=True):
        for field in ("observations", "masks", "actions", "returns", "game_ids"):
            if not np.array_equal(np.asarray(getattr(mine, field)), np.asarray(getattr(theirs, field))):
                return False
        if not same_details(mine.details, theirs.details):
            return False
    return True


@pytest.mark.usefixtures("one_torch_thread")
@pytest.mark.parametrize("index", [0, 2])
def test_a_game_comes_back_as_it_was_played(played, tmp_path, index):
    settings, games = played
    path = save_search_game(tmp_path, GENERATION, index, games[index])
    assert path == game_file(tmp_path, index) and not list(tmp_path.glob("*.partial"))
    assert path.stat().st_size < RECORD_BYTES  # the actions and searches: the replay gives back the rest
    assert games[index].searches and len(games[index].searches) == games[index].searched
    seed = game_seed(settings, GENERATION, index)
    loaded = load_search_game(tmp_path, GENERATION, index, game_config(settings, index), seed, DEFAULT_GAMMA)
    assert same_game(loaded, games[index])
    assert len(loaded.seats) == (2 if index == 2 else 1) and (loaded.solo_win is None) == (index == 2)
    if index == 2:
        with pytest.raises(ValueError, match="game 2 of generation 1, expected game 2 of generation 3"):
            load_search_game(tmp_path, 3, 2, game_config(settings, 2), seed, DEFAULT_GAMMA)
    else:  # game 0 is solo (one agent and Tom 5), not self-play (two agents)
        with pytest.raises(ValueError, match="solo_win [01]: 0 or 1 in a game against toms, -1 in self-play"):
            load_search_game(tmp_path, GENERATION, 0, game_config(settings, 2), seed, DEFAULT_GAMMA)
        with pytest.raises(ValueError, match="not legal where the replay meets it"):  # another deal
            load_search_game(tmp_path, GENERATION, 0, game_config(settings, 0), seed + 1, DEFAULT_GAMMA)


def rewritten(path, **changes):
    """Rewrite the record at ``path`` with some arrays changed (None: left out)."""
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays.update(changes)
    np.savez(path, **{name: value for name, value in arrays.items() if value is not None})


@pytest.mark.usefixtures("one_torch_thread")
def test_a_damaged_or_foreign_record_is_refused_with_its_path(played, tmp_path):
    settings, games = played
    solo, seed = game_config(settings, 0), game_seed(settings, GENERATION, 0)
    path = save_search_game(tmp_path, GENERATION, 0, games[0])
    good = path.read_bytes()
    with np.load(path) as data:
        actions, rewards = data["actions"], data["rewards"]
        steps, prior, visits, means = (data[name] for name in ("search_steps", "search_prior",
                                                               "search_visits", "search_means"))
    masks = np.concatenate([np.asarray(log.masks) for log in games[0].seats])
    illegal = actions.copy()
    illegal[0] = int(np.flatnonzero(~masks[0])[0])
    damages = [
        (lambda: path.write_bytes(good[: len(good) // 2]), "not a usable record"),
        (lambda: path.write_bytes(b"not a zip file"), "not a usable record"),
        (lambda: rewritten(path, actions=illegal), "action 0 .* is not legal where the replay meets it"),
        (lambda: rewritten(path, actions=actions[:-1]), f"not ended after its {actions.size - 1} actions"),
        (lambda: rewritten(path, actions=np.append(actions, actions[-1])), "the game ended after"),
        (lambda: rewritten(path, actions=actions.astype(np.float64)), "actions must be int64"),
        (lambda: rewritten(path, rewards=rewards + 0.5), "are not the replay's"),
        (lambda: rewritten(path, index=np.int64(7)), "it is game 7 of generation 1, expected game 0"),
        (lambda: rewritten(path, solo_win=np.int8(-1)), "solo_win -1"),
        (lambda: rewritten(path, changed=np.int64(10 ** 6)), "changed 1000000"),
        (lambda: rewritten(path, rewards=np.array([np.nan, 0.0])), "finite"),
        (lambda: rewritten(path, searched=None), "arrays"),
        (lambda: rewritten(path, searched=np.array([1, 2], dtype=object)), "not a usable record"),  # a pickle
        (lambda: rewritten(path, search_prior=None), "arrays"),  # the search arrays: all or none
        (lambda: rewritten(path, search_steps=steps[:-1]), "search_steps must name the"),
        (lambda: rewritten(path, search_steps=steps[::-1].copy()), "search_steps must be increasing"),
        (lambda: rewritten(path, search_prior=prior[:-1]), "search_prior must be float32"),
        (lambda: rewritten(path, search_prior=prior * 2), "its prior must be a distribution"),
        (lambda: rewritten(path, search_means=means + np.float32(np.nan)), "must be finite"),
        (lambda: rewritten(path, search_visits=np.zeros_like(visits)), "visits must be counts"),
    ]
    for damage, message in damages:
        path.write_bytes(good)
        damage()
        with pytest.raises(ValueError, match=message) as refused:
            load_search_game(tmp_path, GENERATION, 0, solo, seed, DEFAULT_GAMMA)
        assert str(path) in str(refused.value) and "delete it to play that game again" in str(refused.value)


class Interrupted(Exception):
    """Stands for a run stopped part way (Ctrl-C, a machine taken back)."""


@pytest.mark.usefixtures("one_torch_thread")
def test_an_interrupted_generation_goes_on_where_it_stopped(tmp_path, monkeypatch):
    """Games written as they end are read back, the rest played: the records are the uninterrupted ones."""
    settings = tiny_settings(tmp_path)
    whole = play_search_games(settings, DEFAULT_MODEL_PATH, GENERATION, progress=False)
    games_dir = tmp_path / "games"
    play = expert_iteration.play_search_game
    calls = []

    def stops_at_game_two(settings, network, generation, index):
        if index == 2:
            raise Interrupted
        calls.append(index)
        return play(settings, network, generation, index)

    monkeypatch.setattr(expert_iteration, "play_search_game", stops_at_game_two)
    with pytest.raises(Interrupted):
        play_search_games(settings, DEFAULT_MODEL_PATH, GENERATION, progress=False, games_dir=games_dir)
    assert calls == [0, 1] and sorted(p.name for p in games_dir.iterdir()) == [
        "game-000000.npz", "game-000001.npz"]

    def counts(settings, network, generation, index):
        calls.append(index)
        return play(settings, network, generation, index)

    monkeypatch.setattr(expert_iteration, "play_search_game", counts)
    resumed = play_search_games(settings, DEFAULT_MODEL_PATH, GENERATION, progress=False, games_dir=games_dir)
    assert calls == [0, 1, 2]  # only the missing game was played
    assert resumed[2:] == whole[2:] and same_details(resumed[1], whole[1])
    for field in ("observations", "masks", "actions", "returns", "games", "teacher_rewards"):
        assert np.array_equal(getattr(resumed[0], field), getattr(whole[0], field)), field


@pytest.mark.usefixtures("one_torch_thread")
def test_a_record_from_before_the_searches_were_kept_loads_without_them(played, tmp_path):
    settings, games = played
    path = save_search_game(tmp_path, GENERATION, 0, games[0])
    rewritten(path, search_steps=None, search_prior=None, search_visits=None, search_means=None)
    loaded = load_search_game(tmp_path, GENERATION, 0, game_config(settings, 0),
                              game_seed(settings, GENERATION, 0), DEFAULT_GAMMA)
    assert loaded.searches is None and loaded.actions == games[0].actions
    assert all(detail is None for log in loaded.seats for detail in log.details)
