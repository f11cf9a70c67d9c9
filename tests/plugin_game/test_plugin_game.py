"""Sealed Bids, the test-only plug-in game: it joins with one ``register_game`` call and the shared
layers take it through the contract alone (PettingZoo's ``api_test``, Gymnasium's and SB3's
``check_env``, the compiled VecEnv = single envs, saves, ``determinize``), plus its own rule
scenarios, invariants over random games and a golden playthrough."""

import dataclasses
import io
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from tests import save_checks
from tests.plugin_game import plugin_game
from tests.plugin_game.actions import NUM_ACTIONS, action_names, decode, describe_action, encode
from tests.plugin_game.bot_moves import SEALED
from tests.plugin_game.state import MIN_BID, NO_CARD, NO_SEAT, NUM_BID_CARDS, NUM_PRIZES, NUM_ROUNDS
from tiny_york_env import registry
from tiny_york_env.contract import Game
from tiny_york_env.envs.aec import FastOrderEnforcingWrapper, GameAECEnv, make_aec
from tiny_york_env.envs.single import GameEnv
from tiny_york_env.envs.vector import GameVecEnv

NAME = "sealed_bids"
REPO_ROOT = Path(__file__).resolve().parents[2]
SETUPS = ({"num_players": 2, "bots": ()}, {"num_players": 2, "bots": ("greedy",)},
          {"num_players": 3, "bots": ("random", "greedy")}, {"num_players": 4, "bots": ()},
          {"num_players": 4, "bots": ("greedy", "random", "greedy")})
# PettingZoo's api_test flags the classic Dict observation (the project's own checker test allows
# the same messages, tests/envs/test_checkers.py); its reset options pass without a warning.
ALLOWED_AEC_MESSAGES = ("Observation is not a NumPy array",
                        "Observation space for each agent probably should be", "Passed")
# gymnasium's determinism check steps an action sampled in another position: it may be illegal
ILLEGAL_ACTION_WARNING = "the episode ends with reward"


@pytest.fixture(scope="module")
def game():
    """The plug-in as the test session registered it (tests/conftest.py names it in
    ``TINY_YORK_ENV_GAMES``, as an outside game joins)."""
    return registry.get_game(NAME)


class SealedBidsEnv(GameEnv):
    """The generic single-agent env names its game by a class attribute: a two-line subclass."""

    game_name = NAME


def random_game(game, setup, seed, every_state=None):
    """Play a random game of ``setup`` to the end, checking every record on the way; the end."""
    state = game.new_game(game.make_config(**setup), seed)
    rng = np.random.default_rng(seed)
    seats = game.num_participants(game.make_config(**setup))
    space = game.observation_space()
    while not game.is_terminal(state):
        mask = game.legal_mask(state)
        assert mask.any()
        game.validate_state(state)
        for seat in range(seats):
            assert space.contains(game.encode(state, seat))
        if every_state is not None:
            every_state(state)
        game.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
    game.validate_state(state)
    assert not game.legal_mask(state).any() and game.current_player(state) == -1
    return state


# --- joining ----------------------------------------------------------------------------------


def test_the_game_joins_with_one_call(game):
    assert registry.get_game(NAME) is game
    assert NAME in registry.game_names()
    assert registry.game_of_state(game.new_game(seed=1)) is game
    with pytest.raises(ValueError, match="already registered"):
        registry.register_game(plugin_game())
    assert gymnasium.spec(game.env_id).id == "SealedBids-v0"
    # in a process of its own, without the session's variable: one call, then every layer has it
    code = ("import gymnasium, tiny_york_env; from tiny_york_env.registry import register_game; "
            f"assert {NAME!r} not in tiny_york_env.game_names(); "
            "from tests.plugin_game import plugin_game; register_game(plugin_game()); "
            "env = gymnasium.make('SealedBids-v0'); env.reset(seed=1); "
            f"aec = tiny_york_env.make_aec({NAME!r}); aec.reset(seed=2); "
            "print(type(env.unwrapped).__name__, tiny_york_env.SealedBidsVecEnv(2).reset().shape)")
    env = {k: v for k, v in os.environ.items() if k != registry.PLUGIN_VARIABLE}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[0] == "SealedBidsEnv"


def test_every_contract_field_is_filled(game):
    empty = [f.name for f in dataclasses.fields(Game) if getattr(game, f.name) in (None, "", {}, ())]
    # no page under docs/ (a test-only game documents itself in its package), no shipped policy
    # (so no default or champion network), no published benchmark setups (the benchmarks play its
    # example setups), no compiled search (the search runs its Python loop), no compact
    # observation and no words to explain (a game works without them: the tests refuse its
    # obs_dtype="uint8"), no stages of play (the terminal game shows its whole board before every
    # decision), no places on its board (the browser board offers its list); anything else empty
    # is a field added to the contract that this plug-in does not fill yet
    assert sorted(empty) == ["action_place", "benchmark_setups", "champion_policy", "default_policy", "docs",
                             "explain", "obs_denominators", "obs_quanta", "option_note", "phase",
                             "search_kernel", "shipped_policies"]
    assert (game.name, game.env_id, game.aec_name, game.automatic_kind) == \
        ("sealed_bids", "SealedBids-v0", "sealed_bids_v0", "bots")
    assert game.batch_module == "tests.plugin_game.batch"
    bots = ("greedy", "random")
    assert game.seat_config(1, bots) == game.make_config(num_players=3, bots=bots)
    assert game.max_decisions == NUM_ROUNDS * 4 + 1
    assert list(game.obs_slices) == [name for name, _, _ in __import__(
        "tests.plugin_game.observation", fromlist=["OBS_PARTS"]).OBS_PARTS]


def test_config_refuses_bad_input(game):
    for bad in ({"num_players": 1}, {"num_players": 5}, {"num_players": True}, {"num_players": "2"},
                {"bots": "greedy"}, {"bots": ("clever",)}, {"bots": (1,)},
                {"num_players": 2, "bots": ("greedy", "random")}):
        with pytest.raises(ValueError):
            game.make_config(**bad)
    config = game.make_config(num_players=4, bots=["random", "greedy"])
    assert config.bots == ("random", "greedy") and config.num_agents == 2
    with pytest.raises(ValueError, match="GameConfig"):
        game.new_game({"num_players": 2}, 1)


def test_codec_round_trips():
    assert NUM_ACTIONS == NUM_BID_CARDS
    for action in range(NUM_ACTIONS):
        kind, payload = decode(action)
        assert encode(kind, payload) == action
        assert describe_action(action) == f"bid {payload}" == action_names()[action]
    for bad in (0, NUM_BID_CARDS + 1, True, 1.0):
        with pytest.raises(ValueError):
            encode("bid", bad)
    with pytest.raises(ValueError):
        encode("pass")


# --- rules ------------------------------------------------------------------------------------


def test_a_round_the_highest_bid_wins_the_prize(game):
    """R3-R5: seats bid in turn, face down; the single highest bid takes the prize's value."""
    state = game.new_game(game.make_config(num_players=3), 11)
    prize = int(state["prize"])
    assert game.current_player(state) == 0 and list(state["pending_bid"][:3]) == [NO_CARD] * 3
    for seat, card in ((0, 2), (1, 5), (2, 4)):
        assert game.current_player(state) == seat
        game.apply_action(state, encode("bid", card))
    assert list(np.flatnonzero(game.legal_mask(state))) == [a for a in range(NUM_ACTIONS) if a != 4]
    assert list(state["bid_history"][:3, 0]) == [2, 5, 4] and int(state["round_winner"][0]) == 1
    assert list(state["score"][:3]) == [0, prize, 0]
    assert game.current_player(state) == 1  # round 2 is opened by seat 1 (R3)
    assert int(state["prize_history"][0]) == prize and int(state["prize"]) != prize


def test_a_tie_for_the_highest_bid_discards_the_prize(game):
    """R5: two highest bids equal: nobody wins; a lower bid does not win either."""
    state = game.new_game(game.make_config(num_players=3), 12)
    for card in (4, 4, 1):
        game.apply_action(state, encode("bid", card))
    assert int(state["round_winner"][0]) == NO_SEAT and not state["score"].any()
    assert int(state["prize_history"][0]) > 0  # discarded face up, never back in the deck


def test_greedy_bids_its_lowest_card_worth_more_than_half_the_prize(game):
    for seed in range(30):
        state = game.new_game(game.make_config(num_players=2), seed)
        prize = int(state["prize"])
        expected = min(v for v in range(MIN_BID, NUM_BID_CARDS + 1) if 2 * v > prize) \
            if 2 * NUM_BID_CARDS > prize else MIN_BID
        assert game.greedy_action(state) == encode("bid", expected)
    state = game.new_game(game.make_config(num_players=2), 3)
    for card in (5, 1, 6, 2):  # two rounds: each seat has four cards left
        game.apply_action(state, encode("bid", card))
    held = [v + 1 for v in range(NUM_BID_CARDS) if state["hand"][game.current_player(state), v]]
    prize = int(state["prize"])
    beat = [v for v in held if 2 * v > prize]
    assert game.greedy_action(state) == encode("bid", beat[0] if beat else held[0])


def test_the_bots_play_inside_the_engine_and_their_sealed_bids_stay_sealed(game):
    """The engine plays the bot seats; its log names a bot's bid once its round is resolved and
    only 'lays a sealed bid' before (R7)."""
    state = game.new_game(game.make_config(num_players=3, bots=("greedy", "greedy")), 5)
    assert game.automatic_moves(state) == []  # seat 0 opens round 1
    game.apply_action(state, encode("bid", 1))
    moves = game.automatic_moves(state)
    # round 1: bots 1 and 2 bid and it resolves; round 2 is opened by seat 1, then seat 2 bids
    assert [seat for seat, _ in moves] == [1, 2, 1, 2]
    assert [words for _, words in moves[2:]] == [SEALED, SEALED]
    assert [words for _, words in moves[:2]] == [f"bid {int(state['bid_history'][s, 0])}" for s in (1, 2)]
    assert game.current_player(state) == 0 and int(state["round"]) == 1
    assert "[bid]" in game.render_text(state) and "[bid " not in game.render_text(state)


def test_random_games_keep_prizes_and_bid_cards(game):
    """Invariants over random games of every setup: a legal move at every decision, every record
    valid, every observation in the space; at the end every bid card was bid exactly once, every
    prize card is in one place, scores are the prizes won and the winners hold the best score."""
    games = 0
    for k, setup in enumerate(SETUPS):
        for seed in range(40):
            state = random_game(game, setup, 1000 * k + seed)
            rec = state.reshape(1)[0]
            n = setup["num_players"]
            for seat in range(n):
                assert sorted(rec["bid_history"][seat]) == list(range(MIN_BID, NUM_BID_CARDS + 1))
            assert not rec["hand"].any() and list(rec["pending_bid"]) == [NO_CARD] * 4
            prizes = list(rec["prize_history"]) + list(rec["prize_deck"][:rec["prize_count"]])
            assert sorted(prizes) == list(range(1, NUM_PRIZES + 1))
            scores = game.final_scores(state)
            for seat in range(n):
                won = [int(p) for p, w in zip(rec["prize_history"], rec["round_winner"], strict=True)
                       if w == seat]
                assert scores[seat] == sum(won) == game.score_breakdown(state)[seat]["total"]
            assert set(game.winners(state)) == {s for s in range(n) if scores[s] == scores.max()}
            assert game.placings(state).min() <= 0.5 * (len(game.winners(state)) - 1)
            games += 1
    assert games == 200


def test_the_same_seed_gives_the_same_game_and_copies_never_change(game):
    config = game.make_config(num_players=3, bots=("random",))
    first, second = game.new_game(config, 77), game.new_game(config, 77)
    assert first.tobytes() == second.tobytes()
    before = first.tobytes()
    after = game.step(first, int(np.flatnonzero(game.legal_mask(first))[0]))
    assert first.tobytes() == before and after.tobytes() != before
    assert any(game.new_game(config, s)["prize"] != first["prize"] for s in range(1, 10))


# --- hidden information -------------------------------------------------------------------------


def test_determinize_keeps_the_seats_view_and_resamples_the_rest(game):
    """Every seat's determinized copy is valid, looks the same to it (observation, text, board,
    picture, bot log), plays to the end; and the hidden parts do get resampled."""
    changed_bids = changed_decks = copies = 0
    for k, setup in enumerate(SETUPS):
        seats = setup["num_players"]
        rng = np.random.default_rng(k)

        def check(state, seats=seats, rng=rng):
            nonlocal changed_bids, changed_decks, copies
            before = state.tobytes()
            for seat in range(seats):
                copy = game.determinize(state, seat, int(rng.integers(2 ** 62)))
                assert state.tobytes() == before
                game.validate_state(copy)
                assert np.array_equal(game.encode(copy, seat), game.encode(state, seat))
                assert game.render_text(copy, seat) == game.render_text(state, seat)
                assert game.board_svg(copy, seat) == game.board_svg(state, seat)
                assert game.automatic_moves(copy) == game.automatic_moves(state)
                assert np.array_equal(game.render_rgb(copy), game.render_rgb(state))
                changed_bids += int(not np.array_equal(copy["pending_bid"], state["pending_bid"]))
                changed_decks += int(not np.array_equal(copy["prize_deck"], state["prize_deck"]))
                random_game_from(game, copy, rng)
                copies += 1

        for seed in range(4):
            random_game(game, setup, 500 + 10 * k + seed, every_state=check)
    assert copies > 300 and changed_bids > 50 and changed_decks > 200


def random_game_from(game, state, rng):
    """Play ``state`` on to the end with random legal actions, a legal move at every decision."""
    while not game.is_terminal(state):
        mask = game.legal_mask(state)
        assert mask.any()
        game.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
    game.validate_state(state)


def test_the_global_state_holds_what_observations_hide(game):
    state = game.new_game(game.make_config(num_players=3, bots=("greedy", "random")), 21)
    game.apply_action(state, encode("bid", 3))
    vector = game.global_state(state)
    assert game.global_state_space().contains(vector)
    copies = [game.determinize(state, 0, seed) for seed in range(20)]
    assert len({game.global_state(c).tobytes() for c in copies}) > 1
    assert len({game.encode(c, 0).tobytes() for c in copies}) == 1


# --- views ------------------------------------------------------------------------------------


def test_views_for_people(game):
    state = game.new_game(game.make_config(num_players=2), 4)
    game.apply_action(state, encode("bid", 6))
    assert "hand: 1 2 3 4 5" in game.render_text(state, 0) and "[bid 6]" in game.render_text(state, 0)
    other = game.render_text(state, 1)  # seat 1 sees its own hand, and seat 0's bid sealed
    assert "seat 0: 0 points, 5 cards [bid]\n" in other and "hand: 1 2 3 4 5 6" in other
    public = game.render_text(state)
    assert "seat 0: 0 points, 5 cards [bid]\n" in public and "hand:" not in public
    svg = game.board_svg(state, 1)
    assert svg.startswith("<svg") and "[bid]" in svg and "[bid 6]" not in svg
    assert "[bid 6]" in game.board_svg(state, None)  # a replay shows every bid
    picture = game.render_rgb(state)
    assert picture.shape == (240, 360, 3) and picture.dtype == np.uint8
    assert game.describe_option(encode("bid", 2), state) == f"bid 2 for the prize {int(state['prize'])}"
    assert "prize" in game.legend


# --- saves ------------------------------------------------------------------------------------


def test_saves_round_trip_and_refuse_what_they_should(game):
    save_checks.check_every_stage_round_trips(NAME, 3, ("greedy",))
    save_checks.check_every_stage_round_trips(NAME, 4, ())
    save_checks.check_loaded_game_plays_on(NAME, 4)  # it takes the 22nd decision: 4 seats have 24
    data = game.save_state(game.new_game(seed=3))
    assert data[:8] == b"SealBids"
    other = registry.get_game("construction_yard")  # a bare record: nothing of its engine compiles
    foreign = other.save_state(np.zeros((), other.state_dtype), validate=False)
    with pytest.raises(ValueError, match="not a Sealed Bids save.*it is a Construction Yard save"):
        game.load_state(foreign)
    damaged = bytearray(data)
    damaged[-1] ^= 1
    with pytest.raises(ValueError, match="checksum"):
        game.load_state(bytes(damaged))


def _corrupt(game, field, change, seed=8):
    state = game.new_game(game.make_config(num_players=3, bots=("greedy",)), seed)
    game.apply_action(state, encode("bid", 2))
    game.apply_action(state, encode("bid", 4))  # round 2: seat 1 has bid, seat 2 (a bot) after it
    change(state)
    return state


@pytest.mark.parametrize("field, change, message", [
    ("num_players", lambda s: s.__setitem__("num_players", 7), "num_players is 7"),
    ("bot_kind", lambda s: s["bot_kind"].__setitem__(0, 2), r"bot_kind\[0\]"),
    ("actor", lambda s: s.__setitem__("actor", 2), "actor is 2"),
    ("round", lambda s: s.__setitem__("round", NUM_ROUNDS), "the game is over exactly"),
    ("start_seat", lambda s: s.__setitem__("start_seat", 0), "start_seat"),
    ("pending_bid", lambda s: s["pending_bid"].__setitem__(2, 3), r"pending_bid\[2\]"),
    ("hand", lambda s: s["hand"].__setitem__((0, 1), 1), "hand"),
    ("hand value", lambda s: s["hand"].__setitem__((0, 0), 9), "hand entries are 0 or 1"),
    ("bid_history", lambda s: s["bid_history"].__setitem__((1, 0), s["bid_history"][0, 0]), "hand|played"),
    ("prize", lambda s: s.__setitem__("prize", s["prize_deck"][0]), "prize cards"),
    ("prize range", lambda s: s.__setitem__("prize", 40), "prize"),
    ("prize_count", lambda s: s.__setitem__("prize_count", 120), "prize_count"),
    ("deck tail", lambda s: s["prize_deck"].__setitem__(8, 3), "zero past prize_count"),
    ("score", lambda s: s["score"].__setitem__(0, 5), "score is"),
    ("round_winner", lambda s: s["round_winner"].__setitem__(0, 2), r"round_winner\[0\]"),
    ("winner_mask", lambda s: s.__setitem__("winner_mask", 1), "winner_mask"),
    ("rng", lambda s: s["rng"].__setitem__(slice(None), 0), "generator"),
    ("bot log", lambda s: s["bot_moves"].__setitem__((0, 0), 0), "not a bot's"),
    ("log start", lambda s: s.__setitem__("log_round_start", 50), "log_round_start"),
])
def test_validate_refuses_inconsistent_records(game, field, change, message):
    save_checks.check_refused(NAME, _corrupt(game, field, change), message)


def test_accepted_fuzzed_records_play_to_the_end(tmp_path):
    """The shared fuzz (tests/save_checks.py) in a fresh interpreter with numba's bounds checks:
    a record with random fields changed is refused, or plays to the end without a crash. The
    subprocess knows the plug-in through the session's ``TINY_YORK_ENV_GAMES``."""
    code = ("import json; from tests.save_checks import fuzz; "  # the session's variable registers it
            f"print(json.dumps(fuzz({NAME!r}, {SETUPS!r}, 300, 44)))")
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts["refused"] > 100 and counts["accepted"] > 10
    assert counts["accepted"] + counts["refused"] == 300


# --- the shared envs --------------------------------------------------------------------------


def _messages(check, *args, **kwargs):
    """The messages of every warning ``check`` emitted (warnings module and EnvLogger)."""
    EnvLogger.flush()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    messages = [str(w.message) for w in caught] + [str(m) for m in EnvLogger.mqueue]
    EnvLogger.flush()
    return messages


def _unexpected(messages, *allowed):
    return [m for m in messages if not any(a in m for a in allowed)]


@pytest.mark.parametrize("setup", [{"num_players": 2, "bots": ()},
                                   {"num_players": 4, "bots": ("greedy", "random")}])
def test_pettingzoo_api_test_on_the_generic_aec_env(game, setup):
    raw = GameAECEnv(game=game, config=game.make_config(**setup), illegal_action="terminate")
    messages = _messages(api_test, FastOrderEnforcingWrapper(raw), num_cycles=300)
    assert _unexpected(messages, *ALLOWED_AEC_MESSAGES) == []
    assert raw.state().shape == game.global_state_space().shape


def test_pettingzoo_seed_test_and_make_aec_by_name(game):
    assert _messages(seed_test, lambda: make_aec(NAME, num_players=3, bots=("greedy",)),
                     num_cycles=300) == []
    env = make_aec(NAME)
    env.reset(seed=3)
    assert env.unwrapped.metadata["name"] == "sealed_bids_v0"
    assert env.possible_agents == ["player_0", "player_1"]


def test_gymnasium_and_sb3_check_env_on_the_generic_single_env(game):
    setup = {"num_players": 3, "bots": ("greedy", "random")}
    # built directly it has no Gymnasium spec, so check_env cannot try the other render modes
    assert _unexpected(_messages(gym_check_env, SealedBidsEnv(setup)), ILLEGAL_ACTION_WARNING,
                       "environment not having a spec") == []
    assert _messages(sb3_check_env, SealedBidsEnv(setup), warn=True) == []
    made = gymnasium.make(game.env_id)  # registered by register_game, with the record's defaults
    assert _unexpected(_messages(gym_check_env, made.unwrapped), ILLEGAL_ACTION_WARNING) == []
    assert made.unwrapped.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    obs, info = made.reset(seed=5)
    assert made.observation_space.contains(obs) and info["action_mask"].sum() == NUM_BID_CARDS


def test_the_vecenv_plays_the_same_games_as_single_envs(game):
    setup = {"num_players": 3, "bots": ("greedy", "random")}
    num_envs, seed = 4, 1000
    vec = GameVecEnv(num_envs, game=game, config=game.make_config(**setup), reward="score", seed=seed,
                     num_threads=1)
    singles = [SealedBidsEnv(setup, reward="score") for _ in range(num_envs)]
    obs = vec.reset()
    np.testing.assert_array_equal(obs, np.stack([e.reset(seed=seed + i)[0] for i, e in enumerate(singles)]))
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(60):
        masks = vec.action_masks()
        np.testing.assert_array_equal(masks, np.stack([e.action_masks() for e in singles]))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        for i, env in enumerate(singles):
            single_obs, reward, terminated, _, info = env.step(int(actions[i]))
            assert rewards[i] == np.float32(reward) and dones[i] == terminated
            if terminated:
                ended += 1
                np.testing.assert_array_equal(infos[i]["terminal_observation"], single_obs)
                np.testing.assert_array_equal(infos[i]["final_scores"], info["final_scores"])
                single_obs, _ = env.reset()
            np.testing.assert_array_equal(obs[i], single_obs)
        assert vec.get_attr("game_seed") == [e.game_seed for e in singles]
    assert ended >= 2 * num_envs


# --- the tools above the envs -------------------------------------------------------------------


def test_saved_games_the_terminal_and_the_board_take_it(game, tmp_path):
    """The terminal game records a file that the saved-game reader replays; the browser board's
    sessions and views, and the registry's players (search plans on determinized views) too."""
    from tiny_york_env.agents.registry import offered_players
    from tiny_york_env.cli import main
    from tiny_york_env.saved_games import read_saved_game, replay_states
    from tiny_york_env.web.sessions import SessionStore
    from tiny_york_env.web.views import board_view

    out, path = io.StringIO(), tmp_path / "game.jsonl"
    assert main(["play", "--game", NAME, "--vs", "search:4", "--bots", "greedy", "--seed", "3",
                 "--save", str(path)], stdin=io.StringIO("1\n" * NUM_ROUNDS), stdout=out) == 0
    assert "Final scores" in out.getvalue()
    saved = read_saved_game(path)
    states = list(replay_states(saved))
    assert saved.game == NAME and len(states) == 2 * NUM_ROUNDS + 1 and game.is_terminal(states[-1])
    assert offered_players(game) == ("greedy", "random", "gsearch", "search")  # gsearch: its greedy_playout
    store = SessionStore()
    made = store.new_game({"game": NAME, "seats": ["person", "greedy"], "automatic": ["random"], "seed": 4})
    assert set(made["seat_tokens"]) == {"0"}
    view = board_view(game, states[3], 0)
    assert view["svg"].startswith("<svg")


def test_the_evaluation_commands_take_it_with_every_option(game, tmp_path):
    """``tiny-york eval --game`` plays its ladder (one agent against each bot) in worker processes
    with the results of one process, in parts joined by --merge, saving the lost games; matches and
    the tournament take it too."""
    import json

    from tiny_york_env.cli import main

    def cells(name, *argv):
        main(["eval", "--game", NAME, *argv, "--out", str(tmp_path / name), "--no-progress"],
             stdout=io.StringIO())
        kind = "ladder" if "--agent" in argv else "match"
        saved = json.loads((tmp_path / name / f"{kind}.json").read_text())
        return [{k: v for k, v in cell.items() if k != "seconds_per_game"} for cell in saved["cells"]]

    ladder = ("--agent", "search:4", "--levels", "greedy,random", "--seed", "5")  # --merge: this order
    whole = cells("whole", *ladder, "--games", "4", "--save-games", str(tmp_path / "lost"))
    assert whole == cells("two", *ladder, "--games", "4", "--workers", "2")
    assert [cell["opponents"] for cell in whole] == [game.automatic_label("greedy"),
                                                     game.automatic_label("random")]
    cells("part1", *ladder, "--games", "3")
    cells("part2", *ladder, "--games", "1", "--first-game", "3")
    main(["eval", "--merge", str(tmp_path / "part1" / "ladder.json"), str(tmp_path / "part2" / "ladder.json"),
          "--out", str(tmp_path / "joined")], stdout=io.StringIO())
    joined = json.loads((tmp_path / "joined" / "ladder.json").read_text())["cells"]
    assert [{k: v for k, v in c.items() if k != "seconds_per_game"} for c in joined] == whole
    lost = sorted((tmp_path / "lost").rglob("*.jsonl"))
    records = json.loads((tmp_path / "whole" / "ladder.json").read_text())["games"]
    assert len(lost) == sum(0 not in record["winners"] for record in records)  # a shared win is no loss
    assert all(main(["replay", str(path), "--check"], stdout=io.StringIO()) == 0 for path in lost)
    match = cells("match", "--vs", "greedy", "random", "--bots", "greedy", "--games", "4")
    assert [cell["games"] for cell in match] == [4, 4]
    out = io.StringIO()
    main(["tournament", "--game", NAME, "--agents", "greedy", "random", "search:4", "--games", "2",
          "--workers", "2", "--out", str(tmp_path / "tournament"), "--no-progress"], stdout=out)
    assert "Row finished ahead of column" in out.getvalue()


# --- the golden playthrough -------------------------------------------------------------------

GOLDEN_SETUP = {"num_players": 3, "bots": ("greedy",)}
GOLDEN_SEED, GOLDEN_CHOOSER = 2024, 7


def golden_lines(game=None):
    """One line per decision of the golden game: seat, action, the bots' moves after it, scores."""
    game = plugin_game() if game is None else game
    state = game.new_game(game.make_config(**GOLDEN_SETUP), GOLDEN_SEED)
    rng = np.random.default_rng(GOLDEN_CHOOSER)
    lines = [f"prize {int(state['prize'])}"]
    while not game.is_terminal(state):
        seat = game.current_player(state)
        action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
        game.apply_action(state, action)
        bots = "; ".join(f"seat {s} {words}" for s, words in game.automatic_moves(state))
        lines.append(f"seat {seat}: {describe_action(action)} | {bots} | "
                     + " ".join(str(int(v)) for v in state["score"][:3]))
    lines.append(f"final {game.final_scores(state).tolist()} winners {list(game.winners(state))}")
    return lines


GOLDEN = [  # computed once from the engine, then read and pinned
    "prize 2",
    "seat 0: bid 6 |  | 0 0 0",
    "seat 1: bid 4 | seat 2 bid 2 | 2 0 0",
    "seat 1: bid 5 | seat 2 lays a sealed bid | 2 0 0",
    "seat 0: bid 5 | seat 2 lays a sealed bid | 2 0 0",
    "seat 0: bid 3 |  | 2 0 0",
    "seat 1: bid 6 |  | 2 1 0",
    "seat 0: bid 4 |  | 2 1 0",
    "seat 1: bid 1 | seat 2 bid 5 | 2 1 9",
    "seat 1: bid 2 | seat 2 lays a sealed bid | 2 1 9",
    "seat 0: bid 1 | seat 2 lays a sealed bid | 2 1 15",
    "seat 0: bid 2 |  | 2 1 15",
    "seat 1: bid 3 |  | 2 1 15",
    "final [2, 1, 15] winners [2]",
]


def test_golden_playthrough(game):
    assert golden_lines(game) == GOLDEN


def test_compiled_and_plain_python_engines_agree():
    """TINY_YORK_JIT=0 runs the very same engine as plain Python: the golden game is the same."""
    code = ("import json; from tests.plugin_game.test_plugin_game import golden_lines; "
            "print(json.dumps(golden_lines()))")
    env = dict(os.environ, TINY_YORK_JIT="0")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == golden_lines()


def test_its_own_player_joins_the_one_table_of_players(game, tmp_path):
    """A player only this game has (its record's ``players``: ``lowbid``) is a player of every layer
    above, named like any other, with no file outside its package naming it; the other games do
    not have it."""
    from tiny_york_env.agents.registry import make_player, player_names
    from tiny_york_env.arena.ladder import evaluate_ladder
    from tiny_york_env.cli import main

    assert "lowbid" in player_names(game)
    assert all("lowbid" not in player_names(registry.get_game(name)) for name in registry.BUILTIN_GAMES)
    state = game.new_game(game.seat_config(1, ("greedy",)), seed=2)
    agent = make_player(game, "LowBid", seed=1)  # only the name is case-insensitive
    assert agent.act(None, game.legal_mask(state)) == int(np.flatnonzero(game.legal_mask(state))[0])
    ladder = evaluate_ladder("lowbid", ["random"], games=2, seed=1, progress=False, game=game)
    assert ladder.cells[0].agent == "lowbid" and ladder.cells[0].games == 2
    out = io.StringIO()
    assert main(["eval", "--game", NAME, "--agent", "lowbid", "--levels", "greedy", "--games", "2",
                 "--no-progress", "--out", str(tmp_path)], stdout=out) == 0
    assert "lowbid" in out.getvalue()
    with pytest.raises(ValueError, match="unknown agent 'lowbid' for Construction Yard"):
        make_player("construction_yard", "lowbid", seed=1)
