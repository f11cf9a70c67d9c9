"""Sealed Bids' game record for the registry (``tiny_york_env.contract.Game``)."""

from tiny_york_env.contract import Game, GameKernels, PublishedRun, verb_fields
from tiny_york_env.core.seats import bot_seat_fields

from . import api, kernels, observation
from .actions import NUM_ACTIONS, describe_action
from .board_svg import sealed_bids_svg
from .bot_moves import bot_moves_of
from .config import GameConfig
from .determinize import determinize
from .global_state import encode_global_state, global_state_space
from .legal import fill_legal_mask
from .legend import LEGEND
from .persist import load_state, save_state
from .players import PLAYERS
from .rules import apply, apply_unchecked
from .state import MAX_PLAYERS, MAX_SCORE, NUM_ROUNDS, STATE_DTYPE
from .text import render_text
from .validate import validate_state

SCORE_SCALE = 10.0  # the "score" reward: margin to the best other seat / 10 points
# every seat an agent's, one bid per round each; + 1 as OpenSpiel's max_game_length counts its deal
# (a chance node) too (tiny_york_env/openspiel.py: "at most max_decisions moves, the deal included")
MAX_DECISIONS = NUM_ROUNDS * MAX_PLAYERS + 1


def render_rgb(state):
    """The public table as a picture (``picture.py``, imported on first use: it needs pillow)."""
    from .picture import render_rgb as draw

    return draw(state)


def describe_option(action: int, state) -> str:
    """The action in words with the prize it bids for, e.g. ``'bid 4 for the prize 7'``."""
    words = describe_action(action)
    rec = api.as_batch(state)[0]
    return f"{words} for the prize {int(rec['prize'])}" if not api.is_terminal(state) else words


def plugin_game() -> Game:
    """The record the adapters read (docs/games.md); join with ``register_game(plugin_game())``."""
    return Game(
        name="sealed_bids", title="Sealed Bids", version="1",
        env_id="SealedBids-v0", aec_name="sealed_bids_v0",
        rules_source="tests/plugin_game/__init__.py (its docstring: R1-R7)",
        automatic_participants="bots ('random', 'greedy') in the last seats",
        **bot_seat_fields(GameConfig), config_params=api.config_params,
        automatic_choices=("greedy", "random"),
        state_dtype=STATE_DTYPE, num_actions=NUM_ACTIONS,
        **verb_fields(api), describe_action=describe_action,
        render_text=render_text, determinize=determinize,
        obs_size=observation.OBS_SIZE, encode=observation.encode,
        observation_space=observation.observation_space, obs_slices=observation.OBS_SLICES,
        kernels=GameKernels(
            init_record=kernels.init_record, fill_legal_mask=fill_legal_mask,
            apply_checked=apply, apply_unchecked=apply_unchecked, is_over=kernels.is_over,
            actor_of=kernels.actor_of, encode_record=observation.encode_record),
        batch_module=f"{__package__}.batch",
        score_scale=SCORE_SCALE,
        render_rgb=render_rgb, board_svg=sealed_bids_svg, describe_option=describe_option,
        global_state=encode_global_state, global_state_space=global_state_space,
        validate_state=validate_state, save_state=save_state, load_state=load_state,
        greedy_action=api.greedy_choice, greedy_playout=kernels.greedy_playout, players=PLAYERS,
        automatic_moves=bot_moves_of,
        env_defaults={"num_players": 2, "bots": ("greedy",)},
        aec_defaults={"num_players": 2, "bots": ()},
        train_defaults={"eval_levels": (), "eval_opponents": ("greedy", "random"),
                        "shipped_recipe": {"players": (2,), "bc_games": 100, "bc_epochs": 2,
                                           "eval_every": 4096, "eval_games": 20, "steps": {2: 8192}}},
        example_setups=({"num_players": 2, "bots": ()}, {"num_players": 2, "bots": ("greedy",)},
                        {"num_players": 3, "bots": ("random", "greedy")}, {"num_players": 4, "bots": ()}),
        legend=LEGEND, seat_word="seat ",
        max_decisions=MAX_DECISIONS, max_score=MAX_SCORE,
        shipped_policies={},  # no trained policy ships for a test-only game
        docs=(),
        # a figure its page would publish: scripts/publish_runs.py plays it with the built-in games'
        published_runs=(PublishedRun("matches", "match", "lowbid-greedy", ("--vs", "lowbid", "greedy"),
                                     20),),
    )
