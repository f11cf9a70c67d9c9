"""Invariants over thousands of random 5th Avenue games (2, 3 and 4 players, with and without
bots), written from the text's counts and the record's documented meaning, not from the engine's
helpers, so an engine bug cannot hide in both:

* 1,000 games per player count in lockstep, every state checked at once (numpy over the batch):
  every coloured card (12 per colour: 5/4/3 of values 4/5/6) and black card (20/16/14) in exactly
  one place, every player's 17 skyscrapers and Alea's 18, the 36 businesses, one plot per
  district for a player, no skyscraper beside a business on one plot, a legal action in every
  live game; an illegal action probed in every game (refused, the batch byte-identical);
* single games through the public verbs: ``step`` pure, ``apply_action`` refusing illegal actions
  with a ValueError and the state unchanged, the same seed giving the same game;
* thousands of compiled games with the engine's bots: they end, repeat with their seed, and every
  end state passes ``validate_state``.
"""

import numpy as np
import pytest

from tiny_york_env.core.rng import seed_rng
from tiny_york_env.envs.batch import batch_kernels
from tiny_york_env.games.fifth_avenue import (
    NUM_ACTIONS,
    STATE_DTYPE,
    GameConfig,
    apply_action,
    current_player,
    final_scores,
    is_terminal,
    legal_mask,
    new_game,
    step,
    validate_state,
    winners,
)
from tiny_york_env.games.fifth_avenue import batch as B
from tiny_york_env.games.fifth_avenue import data as F
from tiny_york_env.games.fifth_avenue import kernels as K
from tiny_york_env.games.fifth_avenue.api import config_params
from tiny_york_env.games.fifth_avenue.setup import placing_seat
from tiny_york_env.games.fifth_avenue.state import (
    ALEA_ROW,
    BLACK,
    DEC_GAME_OVER,
    DEC_START_SKYSCRAPER,
    NO_PLAYER,
)
from tiny_york_env.registry import get_game

PLAYER_COUNTS = (2, 3, 4)
BATCH_GAMES = 1000
SINGLE_GAMES = 4
KERNEL_GAMES = 2000
MAX_DECISIONS = 20_000
PLAYER_SKYSCRAPERS = F.SKYSCRAPERS_PER_COLOUR - F.START_SCORING_MARKER
NUM_BUSINESSES = F.NUM_BUSINESS_TYPES * F.BUSINESSES_PER_TYPE


def new_batch(config, seeds):
    """Fresh games of ``config``, one per seed, through the compiled set-up."""
    states = np.zeros(len(seeds), STATE_DTYPE)
    params = config_params(config)
    for i, seed in enumerate(seeds):
        K.init_record(states, i, params, seed)
    return states


def counted(values, counts, num_values):
    """Per record, how many of ``values[:, :count]`` equal each value 0..num_values-1."""
    live = np.arange(values.shape[1]) < counts[:, None]
    return np.stack([((values == v) & live).sum(axis=1) for v in range(num_values)], axis=1)


def check_cards(states):
    """Every coloured and black card in exactly one place, in every record."""
    held = states["hand"].sum(axis=1) + states["bid_cards"].sum(axis=1)  # [B, colour or black, value]
    for c in range(F.NUM_CARD_COLOURS):
        stack = counted(states["coloured_stack"][:, c], states["coloured_count"][:, c], F.NUM_CARD_VALUES)
        assert ((stack + held[:, c]) == F.COLOURED_PER_VALUE).all(), f"colour {c}"
    black = (counted(states["black_stack"], states["black_count"], F.NUM_CARD_VALUES)
             + counted(states["black_returned"], states["black_returned_count"], F.NUM_CARD_VALUES)
             + counted(states["alea_cards"], states["alea_card_count"], F.NUM_CARD_VALUES)
             + held[:, BLACK])
    assert (black == F.BLACK_PER_VALUE).all()


def check_skyscrapers(states, num_players):
    """Every skyscraper in exactly one place; a player on one plot per district at most; no
    skyscraper on a plot with a business."""
    owners, heights = states["plot_owner"], states["plot_skyscrapers"].astype(np.int64)
    rows = [*range(num_players)] + ([ALEA_ROW] if num_players == F.ALEA_PLAYERS else [])
    for row in rows:
        total = ((owners == row) * heights).sum(axis=1)
        for field in ("general", "supply", "park_skyscrapers", "skyscrapers_removed"):
            total = total + states[field][:, row]
        if row == ALEA_ROW:
            assert (total == F.SKYSCRAPERS_PER_COLOUR).all()
            continue
        placing = states["decision"] == DEC_START_SKYSCRAPER
        for i in np.flatnonzero(placing):  # starting skyscrapers not yet on the board
            total[i] += sum(placing_seat(0, num_players, k) == row
                            for k in range(int(states[i]["placing_step"]), 2 * num_players))
        assert (total == PLAYER_SKYSCRAPERS).all(), f"row {row}"
        per_district = np.stack([((owners == row) & (F.PLOT_DISTRICT == d)).sum(axis=1)
                                 for d in range(F.NUM_DISTRICTS)], axis=1)
        assert (per_district <= 1).all()
    built = owners != NO_PLAYER
    assert ((heights > 0) == built).all()
    assert not (built & (states["plot_business"][:, :, 0] >= 0)).any()


def check_businesses(states):
    """The 36 businesses: on plots, in the supply row, below Central Park, held, removed, unused."""
    total = ((states["plot_business"] >= 0).sum(axis=(1, 2)) + (states["supply_row"] >= 0).sum(axis=1)
             + states["park_business_count"] + states["unused_business"].sum(axis=1)
             + states["businesses_removed"] + (states["held_business"] >= 0))
    assert (total == NUM_BUSINESSES).all()


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_batch_games_keep_every_card_skyscraper_and_business(num_players):
    """1,000 random games in lockstep, every state checked, an illegal action probed in each."""
    states = new_batch(GameConfig(num_players), range(BATCH_GAMES))
    rng = np.random.default_rng(num_players)
    masks = np.zeros((BATCH_GAMES, NUM_ACTIONS), np.bool_)
    for _ in range(MAX_DECISIONS):
        live = states["decision"] != DEC_GAME_OVER
        if not live.any():
            break
        for i in range(BATCH_GAMES):
            B.legal_mask_kernel(states, i, masks[i])
        assert (masks.any(axis=1) == live).all(), "a live game without a legal action, or the reverse"
        check_cards(states)
        check_skyscrapers(states, num_players)
        check_businesses(states)
        probe = states.copy()
        illegal = np.argmax(rng.random(masks.shape) * ~masks, axis=1)
        assert all(B.apply_kernel(probe, i, int(illegal[i])) != 0 for i in range(BATCH_GAMES))
        assert probe.tobytes() == states.tobytes()
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        for i in np.flatnonzero(live):
            assert B.apply_kernel(states, i, int(actions[i])) == 0
    else:
        raise AssertionError(f"games still running after {MAX_DECISIONS} decisions")
    check_cards(states)
    check_skyscrapers(states, num_players)
    check_businesses(states)
    assert (states["winner_mask"] > 0).all() and (states["winner_mask"] < 1 << num_players).all()
    assert (states["turn"] <= F.TURN_LIMIT).all()


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_single_games_through_the_public_verbs(num_players):
    """``step`` is pure, illegal actions raise with the state unchanged, the same seed replays."""
    rng = np.random.default_rng(100 + num_players)
    for seed in range(SINGLE_GAMES):
        state = new_game(GameConfig(num_players), seed)
        first = state.copy()
        with pytest.raises(ValueError, match="not over"):
            final_scores(state)
        while not is_terminal(state):
            mask = legal_mask(state)
            assert current_player(state) == int(state["actor"])
            bad = [a for a in range(NUM_ACTIONS) if not mask[a]] + [-1, NUM_ACTIONS]
            snapshot = state.tobytes()
            for a in rng.choice(bad, size=3, replace=False):
                with pytest.raises(ValueError, match="illegal action|an action is"):
                    apply_action(state, int(a))
                assert state.tobytes() == snapshot
            action = int(rng.choice(np.flatnonzero(mask)))
            new = step(state, action)
            assert state.tobytes() == snapshot
            apply_action(state, action)
            assert new.tobytes() == state.tobytes()
        assert current_player(state) == -1 and not legal_mask(state).any()
        assert set(winners(state)) <= set(np.flatnonzero(final_scores(state) == final_scores(state).max()))
        assert first.tobytes() == new_game(GameConfig(num_players), seed).tobytes()


KERNEL_CONFIGS = [GameConfig(2), GameConfig(2, bots=("greedy",)), GameConfig(3, bots=("random",)),
                  GameConfig(3, bots=("greedy", "greedy")), GameConfig(4),
                  GameConfig(4, bots=("greedy", "random", "greedy"))]


@pytest.mark.parametrize("config", KERNEL_CONFIGS, ids=lambda c: f"{c.num_players}p-{'-'.join(c.bots)}")
def test_thousands_of_compiled_games_end_repeat_and_validate(config):
    """2,000 games played in compiled code (random agents, the engine's bots) end, repeat with
    their seeds, and every end state is one validate_state accepts."""
    play = batch_kernels(get_game("fifth_avenue")).play_random_batch
    runs = []
    for _ in range(2):
        states = new_batch(config, range(KERNEL_GAMES))
        words = np.zeros(4, np.int64)
        seed_rng(words, 9)
        play(states, words, MAX_DECISIONS)
        runs.append(states)
    assert runs[0].tobytes() == runs[1].tobytes()
    states = runs[0]
    assert (states["decision"] == DEC_GAME_OVER).all()
    validate_state(states)
    check_cards(states)
    check_skyscrapers(states, config.num_players)
    check_businesses(states)
