"""Measure a registered game's longest games, for its ``Game.max_decisions`` (OpenSpiel's
``max_game_length``, docs/openspiel.md).

    python scripts/measure_game_length.py --game construction_yard --games 2000 --seed 0

Plays games of every setup of 1 to the most agent seats: each agent count without automatic
participants (where the rules allow a game of agents only) and with them (one, and as many as
fit, cycling through ``--automatic``), under three policies:

- ``random``: uniformly random legal actions (``--games`` games a setup, in compiled code);
- ``prolong``: random among the legal actions that do not end a step, whenever there are any
  (an action ends a step when its description has one of ``STOP_WORDS``: finishing a bid or a
  payment, stopping a build, ending a turn, passing, ...): never stop while one may go on
  (``--games`` / 2 games a setup);
- ``lookahead``: every legal action tried with ``PLAYOUTS`` random playouts, the one with the
  longest rest of the game taken (``--lookahead-games`` a setup, default ``--games`` / 100, at
  least one; it costs two playouts per legal action and decision, about a second a game).

It counts the agents' decisions (automatic participants play inside the engine and take none;
an OpenSpiel game adds one move, the deal) and prints, per setup and policy, the longest and mean
game and the final totals seen; then the longest game and a bound for ``max_decisions``: the
longest game plus the deal, with half as much again for play stranger than measured, rounded up
to a power of two (Tiny York: 532 decisions + the deal = 533 moves -> 1024); and the highest
final total seen (for ``max_score``). Measured bounds, not proofs.
"""

import argparse
import itertools
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from tiny_york_env.core.rng import seed_rng  # noqa: E402
from tiny_york_env.envs.batch import batch_kernels  # noqa: E402
from tiny_york_env.registry import game_names, get_game  # noqa: E402

STOP_WORDS = ("finish", "stop", "end", "pass", "forfeit", "declare", "done")
STOP_PATTERN = re.compile(r"\b(" + "|".join(STOP_WORDS) + r")\b", re.IGNORECASE)
PLAYOUTS = 2  # random playouts per legal action of the lookahead policy
SEAT_PROBE_LIMIT = 64  # agent counts tried when reading a game's setups from its seat_config
DEAL_MOVES = 1  # the OpenSpiel game's chance node before the first decision
SLACK = 1.5  # room for stranger play than measured, before rounding up to a power of two
NO_LIMIT = 10 ** 9  # decisions a playout may take (a game always ends long before)
PROLONG_SHARE = 2  # prolong games = --games // 2
LOOKAHEAD_SHARE = 100  # lookahead games = --games // 100 (at least one), unless given


def accepts(game, agents, automatic):
    """True when ``game.seat_config`` takes ``agents`` agent seats and ``automatic``."""
    try:
        game.seat_config(agents, automatic)
    except ValueError:
        return False
    return True


def setups(game, automatic):
    """(agents, automatic participants) of every setup measured: 1 to the most agents, each
    without automatic participants where allowed, with one and with as many as fit."""
    most = max(n for n in range(1, SEAT_PROBE_LIMIT + 1) if accepts(game, n, ()))
    out = []
    for agents in range(1, most + 1):
        if accepts(game, agents, ()):
            out.append((agents, ()))
        fits = [k for k in range(1, SEAT_PROBE_LIMIT + 1)
                if accepts(game, agents, tuple(itertools.islice(itertools.cycle(automatic), k)))]
        for k in sorted({min(fits), max(fits)} if fits else ()):
            out.append((agents, tuple(itertools.islice(itertools.cycle(automatic), k))))
    return out


def new_record(game, config, seed):
    """A fresh game as a one-game batch (the batch kernels' form)."""
    return game.new_game(config, seed=seed).reshape(1)


def finish_random(kernels, states, words):
    """Play ``states`` to the end with random legal actions (compiled); the decisions taken."""
    return int(kernels.play_random_batch(states, words, NO_LIMIT))


def play_prolong(game, kernels, states, stops, rng):
    """Play one game with the ``prolong`` policy; the decisions taken."""
    mask = game.empty_mask()
    decisions = 0
    while kernels.actor_at(states, 0) >= 0:
        kernels.mask_at(states, 0, mask)
        legal = np.flatnonzero(mask)
        going_on = legal[~stops[legal]]
        choices = going_on if going_on.size else legal
        kernels.apply_at(states, 0, int(choices[rng.randrange(choices.size)]))
        decisions += 1
    return decisions


def play_lookahead(game, kernels, states, words):
    """Play one game with the ``lookahead`` policy; the decisions taken."""
    mask = game.empty_mask()
    decisions = 0
    while kernels.actor_at(states, 0) >= 0:
        kernels.mask_at(states, 0, mask)
        best, best_rest = -1, -1
        for action in np.flatnonzero(mask):
            tries = np.repeat(states, PLAYOUTS)
            for i in range(PLAYOUTS):
                kernels.apply_at(tries, i, int(action))
            rest = finish_random(kernels, tries, words)
            if rest > best_rest:
                best, best_rest = int(action), rest
        kernels.apply_at(states, 0, best)
        decisions += 1
    return decisions


def measure(game, agents, automatic, policy, games, seed, stops):
    """(longest, mean, lowest total, highest total) of ``games`` games of one setup and policy."""
    config = game.seat_config(agents, automatic)
    kernels = batch_kernels(game)
    words = np.zeros(4, np.int64)
    seed_rng(words, seed)
    rng = random.Random(seed)
    lengths, totals = [], []
    for deal in range(games):
        states = new_record(game, config, seed * games + deal)
        if policy == "random":
            lengths.append(finish_random(kernels, states, words))
        elif policy == "prolong":
            lengths.append(play_prolong(game, kernels, states, stops, rng))
        else:
            lengths.append(play_lookahead(game, kernels, states, words))
        totals.extend(game.final_scores(states.reshape(())).tolist())
    return max(lengths), float(np.mean(lengths)), min(totals), max(totals)


def bound(longest):
    """The suggested ``max_decisions``: (longest + the deal) * SLACK, rounded up to a power of two."""
    return 1 << (int(np.ceil((longest + DEAL_MOVES) * SLACK)) - 1).bit_length()


def main(argv=None):
    """Measure every setup under every policy and print the table and the suggested bound."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=game_names(), required=True)
    parser.add_argument("--games", type=int, default=2000, help="random games a setup (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the policies")
    parser.add_argument("--automatic", default=None,
                        help="automatic participants to seat, comma-separated, cycled through "
                             "(default: the game's automatic_choices)")
    parser.add_argument("--lookahead-games", type=int, default=None,
                        help="lookahead games a setup (default --games // 100, at least one; 0: none)")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    names = game.automatic_choices if args.automatic is None else args.automatic.split(",")
    automatic = tuple(int(a) if str(a).isdecimal() and str(a).isascii() else a for a in names)
    stops = np.array([bool(STOP_PATTERN.search(game.describe_action(a)))
                      for a in range(game.num_actions)])
    counts = {"random": args.games, "prolong": args.games // PROLONG_SHARE,
              "lookahead": max(1, args.games // LOOKAHEAD_SHARE) if args.lookahead_games is None
              else args.lookahead_games}
    print(f"{game.title}: actions that end a step (avoided by prolong): {np.flatnonzero(stops).tolist()}")
    print(f"| agents | {game.automatic_kind} | policy | games | longest | mean | totals | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    longest = highest = 0
    for agents, auto in setups(game, automatic):
        for policy, games in counts.items():
            if games <= 0:
                continue
            started = time.perf_counter()
            most, mean, low, high = measure(game, agents, auto, policy, games, args.seed, stops)
            longest, highest = max(longest, most), max(highest, high)
            print(f"| {agents} | {','.join(map(str, auto)) or '-'} | {policy} | {games} | {most} | "
                  f"{mean:.1f} | {low}-{high} | {time.perf_counter() - started:.1f} |", flush=True)
    print(f"longest: {longest} decisions + the deal = {longest + DEAL_MOVES} moves; "
          f"suggested max_decisions: {bound(longest)}; highest final total: {highest}")


if __name__ == "__main__":
    main()
