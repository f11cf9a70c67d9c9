"""5th Avenue's engine bots (``bots.py``): the greedy heuristic plays only legal actions, reads
only what its seat may see, makes the choices its module doc names, and beats random; the
engine's greedy bot plays exactly what ``greedy_choice`` plays."""

import numpy as np
import pytest

from tiny_york_env.games.fifth_avenue import (
    GameConfig,
    apply_action,
    current_player,
    determinize,
    final_scores,
    greedy_choice,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.fifth_avenue import actions as A
from tiny_york_env.games.fifth_avenue import bots as B
from tiny_york_env.games.fifth_avenue import data as F
from tiny_york_env.games.fifth_avenue import state as S


def random_game_states(num_players, seed, every=5):
    """Every ``every``-th decision of a random game (all seats agents)."""
    state = new_game(GameConfig(num_players), seed)
    rng = np.random.default_rng(seed)
    out, k = [], 0
    while not is_terminal(state):
        if k % every == 0:
            out.append(state.copy())
        apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
        k += 1
    return out


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_greedy_plays_only_legal_actions_to_the_end(num_players):
    """Greedy in every seat finishes games; each choice is legal and the same when asked twice."""
    for seed in range(10):
        state = new_game(GameConfig(num_players), seed)
        while not is_terminal(state):
            action = greedy_choice(state)
            assert legal_mask(state)[action] and greedy_choice(state) == action
            apply_action(state, action)
        assert final_scores(state).max() > 0


def test_greedy_reads_only_what_its_seat_sees():
    """The other hands, the stacks below their tops and the black stack dealt again: same choice."""
    rng = np.random.default_rng(0)
    checked = 0
    for num_players in (2, 3, 4):
        for state in random_game_states(num_players, seed=num_players):
            seat = current_player(state)
            for _ in range(2):
                assert greedy_choice(determinize(state, seat, rng)) == greedy_choice(state)
            checked += 1
    assert checked > 100


def test_the_engine_greedy_bot_plays_greedy_choice():
    """A greedy bot in seat 1 against a random agent makes the same game as an agent seat 1 that
    plays greedy_choice (greedy uses no random numbers, so the records' draws agree)."""
    for seed in range(5):
        with_bot = new_game(GameConfig(2, bots=("greedy",)), seed)
        by_hand = new_game(GameConfig(2), seed)
        rng = np.random.default_rng(seed)
        while not is_terminal(by_hand):
            if current_player(by_hand) == 1:
                apply_action(by_hand, greedy_choice(by_hand))
                continue
            assert current_player(with_bot) == 0
            action = int(rng.choice(np.flatnonzero(legal_mask(by_hand))))
            apply_action(by_hand, action)
            apply_action(with_bot, action)
        assert is_terminal(with_bot)
        for field in ("score", "plot_owner", "plot_skyscrapers", "plot_business", "hand", "stopped"):
            assert np.array_equal(with_bot[field], by_hand[field]), field


def test_greedy_bots_beat_a_random_agent():
    """3 players: the greedy bots in seats 1 and 2 out-score the random agent in seat 0."""
    greedy_ahead = 0
    games = 40
    for seed in range(games):
        state = new_game(GameConfig(3, bots=("greedy", "random")), seed)
        rng = np.random.default_rng(seed)
        while not is_terminal(state):
            apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
        scores = final_scores(state)
        greedy_ahead += scores[1] > max(scores[0], scores[2])
    assert greedy_ahead >= 0.75 * games  # measured: the greedy bot wins ~90% of these


def test_greedy_scores_a_district_where_it_leads_by_enough():
    """Option D for the district the commissioner stands in when the seat's points there reach
    SCORE_THRESHOLD and beat the others'; not when another seat would score more."""
    state = random_game_states(3, seed=3)[0]
    rec = state.reshape(1)[0]
    while rec["decision"] != S.DEC_OPTION:
        apply_action(state, greedy_choice(state))
    seat, d = int(rec["actor"]), F.D42E
    rec["commissioner_place"][0] = d
    plots = list(range(d * F.PLOTS_PER_DISTRICT, (d + 1) * F.PLOTS_PER_DISTRICT))  # the ring, in order
    rec["plot_owner"][plots] = S.NO_PLAYER
    rec["plot_skyscrapers"][plots] = 0
    rec["plot_business"][plots] = S.NO_BUSINESS
    rec["plot_business"][plots[0], 0] = 0  # one business type: 2 VP per neighbouring skyscraper
    rec["plot_owner"][plots[1]], rec["plot_skyscrapers"][plots[1]] = seat, 3  # 6 VP for the seat
    assert B.greedy_decision(rec, legal_mask(state)) == A.SCORE_DISTRICT + d
    other = (seat + 1) % 3
    rec["plot_owner"][plots[4]], rec["plot_skyscrapers"][plots[4]] = other, 4  # 8 VP for another
    assert B.greedy_decision(rec, legal_mask(state)) != A.SCORE_DISTRICT + d


def test_greedy_finishes_a_bid_once_it_leads_and_builds_all_it_may():
    """In auctions: finish as soon as finishing is allowed; build the most skyscrapers allowed."""
    seen_finish = seen_build = 0
    for seed in range(20):
        state = new_game(GameConfig(3), seed)
        rec = state.reshape(1)[0]
        while not is_terminal(state):
            mask = legal_mask(state)
            action = greedy_choice(state)
            if mask[A.BID_FINISH]:
                assert action == A.BID_FINISH
                seen_finish += 1
            if rec["decision"] == S.DEC_BUILD and not mask[A.BUILDING_STOP]:
                assert action == A.BUILD + int(np.flatnonzero(mask[A.BUILD:A.BUILD + A.MAX_BUILD + 1])[-1])
                seen_build += 1
            apply_action(state, action)
    assert seen_finish > 20 and seen_build > 10
