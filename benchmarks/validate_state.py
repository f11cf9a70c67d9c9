"""What validating a game record costs, next to the verbs it guards.

Prints microseconds per state for ``validate_state`` (one game through the Python wrapper, and
per game over a batch in compiled code), ``save_state`` / ``load_state`` (which validates), and
for comparison ``apply_action``, ``legal_mask``, ``encode`` and ``determinize`` (which
validates; its compiled core alone too), over every state of random games (2-4 agents, games
with Toms).
Usage:
    python benchmarks/validate_state.py [--games N] [--repeats R]
"""

import argparse
import platform
import time

import numpy as np

from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    determinize,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.tiny_york.determinize import determinize_into
from tiny_york_env.games.tiny_york.observation import encode
from tiny_york_env.games.tiny_york.persist import load_state, save_state
from tiny_york_env.games.tiny_york.state import STATE_DTYPE
from tiny_york_env.games.tiny_york.validate import state_error_codes, validate_state

CONFIGS = (GameConfig(num_agents=2), GameConfig(num_agents=3), GameConfig(num_agents=4),
           GameConfig(num_agents=1, toms=(5,)), GameConfig(num_agents=2, toms=(12,)))
MICRO = 1e6


def snapshots(games, seed=0):
    """Every state of ``games`` random games (not the final ones) and the action taken there."""
    rng = np.random.default_rng(seed)
    states, actions = [], []
    for g in range(games):
        state = new_game(CONFIGS[g % len(CONFIGS)], seed=g)
        while not is_terminal(state):
            action = int(rng.choice(np.flatnonzero(legal_mask(state))))
            states.append(state.copy())
            actions.append(action)
            apply_action(state, action)
    return states, actions


def per_state(fn, items, repeats, fresh=None):
    """Best-of-``repeats`` microseconds per call of ``fn`` over ``items`` (``fresh`` makes new
    items before each repeat, untimed, for calls that change them)."""
    best = np.inf
    for _ in range(repeats):
        batch = fresh() if fresh else items
        start = time.perf_counter()
        for item in batch:
            fn(item)
        best = min(best, (time.perf_counter() - start) / len(batch))
    return best * MICRO


def _determinize_unchecked(state):
    """determinize without its validation: the compiled core alone, for comparison."""
    view = np.zeros((), dtype=STATE_DTYPE)
    determinize_into(state.reshape(1), 0, view.reshape(1), 0, 0, 1)
    return view


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    states, actions = snapshots(args.games)
    batch = np.stack(states)
    saved = [save_state(s) for s in states]

    def fresh_pairs():
        return [(s.copy(), a) for s, a in zip(states, actions, strict=True)]

    validate_state(states[0])  # compile before timing
    load_state(saved[0])
    apply_action(states[0].copy(), actions[0])
    determinize(states[0], 0, 0)
    _determinize_unchecked(states[0])
    encode(states[0], 0)
    rows = [
        ("validate_state (one game)", per_state(validate_state, states, args.repeats)),
        ("validate, compiled batch (per game)",
         min(_timed(lambda: state_error_codes(batch)) for _ in range(args.repeats)) / len(states)),
        ("save_state (validates)", per_state(save_state, states, args.repeats)),
        ("load_state (validates)", per_state(load_state, saved, args.repeats)),
        ("apply_action", per_state(lambda p: apply_action(*p), None, args.repeats, fresh_pairs)),
        ("legal_mask", per_state(legal_mask, states, args.repeats)),
        ("encode (seat 0)", per_state(lambda s: encode(s, 0), states, args.repeats)),
        ("determinize (seat 0, validates)", per_state(lambda s: determinize(s, 0, 1), states,
                                                      args.repeats)),
        ("determinize core alone (no validation)", per_state(_determinize_unchecked, states,
                                                             args.repeats)),
    ]
    machine = platform.processor() or platform.machine()
    print(f"{len(states)} states from {args.games} random games; {machine}, "
          f"Python {platform.python_version()}")
    for name, micros in rows:
        print(f"  {name:40s} {micros:8.2f} us")


def _timed(fn):
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * MICRO


if __name__ == "__main__":
    main()
