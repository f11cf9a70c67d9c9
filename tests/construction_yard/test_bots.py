"""The engine's bots: the greedy heuristic pays a smallest covering payment and beats random;
bots only play legal actions (the engine would refuse the game otherwise)."""

import numpy as np

from tiny_york_env.games.construction_yard import (
    GameConfig,
    apply_action,
    greedy_choice,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.construction_yard.actions import BUY, PAY, PAY_DONE
from tiny_york_env.games.construction_yard.bots import smallest_cover
from tiny_york_env.games.construction_yard.cards import building_price, slot_currency
from tiny_york_env.games.construction_yard.state import DEC_CHOOSE, DEC_PAY


def test_greedy_pays_the_smallest_covering_payment_and_only_legal_actions():
    payments = exact = 0
    for seed in range(30):
        state = new_game(GameConfig(3), seed=seed)
        rec = state.reshape(1)[0]
        while not is_terminal(state):
            action = greedy_choice(state)
            assert legal_mask(state)[action]
            if rec["decision"] == DEC_CHOOSE and BUY <= action < PAY:
                slot = action - BUY
                price = building_price(rec["building_display"][slot])
                best = smallest_cover(rec, rec["actor"], slot_currency(slot), price)
                apply_action(state, action)
                while rec["decision"] == DEC_PAY:
                    step = greedy_choice(state)
                    if step == PAY_DONE:
                        assert rec["paid"] == best
                        payments += 1
                        exact += best == price
                    apply_action(state, step)
                continue
            apply_action(state, action)
    assert payments > 100 and exact > 0


def test_smallest_cover_is_the_subset_sum():
    state = new_game(GameConfig(3), seed=0)
    rec = state.reshape(1)[0]
    rec["hand"][0] = 0
    for value in (5, 4, 3):
        rec["hand"][0, 0, value - 1] += 1
    assert smallest_cover(rec, 0, 0, 7) == 7  # 4 + 3, not 5 + 3
    assert smallest_cover(rec, 0, 0, 10) == 12
    assert smallest_cover(rec, 0, 0, 13) == -1


def test_random_and_greedy_bots_finish_games_and_greedy_wins_most():
    wins = np.zeros(3)
    for seed in range(60):
        state = new_game(GameConfig(3, bots=("greedy", "random")), seed=seed)
        rng = np.random.default_rng(seed)
        while not is_terminal(state):
            apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
        totals = state.reshape(1)[0]["score_lines"][:3].sum(axis=1)
        wins[np.flatnonzero(totals == totals.max())] += 1 / np.sum(totals == totals.max())
    assert wins[1] > 45  # the greedy bot (seat 1) against a random bot and a random agent
