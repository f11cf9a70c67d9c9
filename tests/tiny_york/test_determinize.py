"""``determinize``: a seat's view of a game, everything it may not know resampled (R25, D1-D7).

Mid-game states of 2-4 agents, with and without Toms, at every stage of the game; every seat's
view of each is checked against the original.
"""

import json
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from tests.tiny_york.scenario import (
    deal_cards,
    give_character,
    play_until,
    rec,
    resume,
    set_cards,
    set_press,
    strip_characters,
)
from tests.tiny_york.test_invariants import check_states, play_checked
from tiny_york_env.core.jit import JIT_ENABLED
from tiny_york_env.games.tiny_york import (
    STATE_DTYPE,
    GameConfig,
    apply_action,
    current_player,
    determinize,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.tiny_york import components as C
from tiny_york_env.games.tiny_york import state as S
from tiny_york_env.games.tiny_york.actions import BID_CARD, BID_DONE, USE_CHARACTER
from tiny_york_env.games.tiny_york.determinize import revealed_start_stack_count, tom_wild_cap
from tiny_york_env.games.tiny_york.observation import encode

REPO_ROOT = Path(__file__).resolve().parents[2]
CONFIGS = (
    GameConfig(num_agents=2), GameConfig(num_agents=3), GameConfig(num_agents=4),
    GameConfig(num_agents=1, toms=(5,)), GameConfig(num_agents=2, toms=(3,)),
    GameConfig(num_agents=1, toms=("C9", 12, "B2")), GameConfig(num_agents=3, toms=(11,)),
)
GAMES_PER_CONFIG = 4
SNAPSHOT_EVERY = 17  # decisions between two snapshots of a game
# Fields determinize may change; every other field is public or the game's progress (R25).
RESAMPLED = ("draw_pile", "discard", "hand", "reserve", "elevator_stack", "prestige_stack",
             "start_stacks", "rng")
KEPT = tuple(name for name in STATE_DTYPE.names if name not in RESAMPLED)
SEED_A, SEED_B = 11, 12
MIN_DIFFERENT_SHARE = 0.95  # of states whose hidden part can differ at all
MANY_TILES = 6  # face-down prestige tiles: two shuffles agree by chance once in 720
MANY_STACKS = 3  # hidden start stacks: two shuffles of both columns agree once in 36


@lru_cache(maxsize=1)
def mid_game_states():
    """(config index, state) snapshots of random games, from the start-character draft to the end
    of round 5."""
    out = []
    for ci, config in enumerate(CONFIGS):
        for g in range(GAMES_PER_CONFIG):
            rng = np.random.default_rng(1000 * ci + g)
            state = new_game(config, seed=1000 * ci + g)
            n = 0
            while not is_terminal(state):
                if n % SNAPSHOT_EVERY == g:
                    out.append((ci, state.copy()))
                apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
                n += 1
    return out


def seats_of(state):
    return range(int(state["num_seats"]))


def unseen_counts(state, seat):
    """Per type: the cards ``seat`` cannot see (draw pile, discard, others' hands and face-down
    reserve cards; face-up ones of character 3 are public, D7)."""
    counts = np.bincount(state["draw_pile"][: int(state["draw_count"])], minlength=C.NUM_CARD_TYPES)
    counts = counts + state["discard"]
    for other in seats_of(state):
        if other != seat:
            counts = counts + state["hand"][other] + state["reserve"][other] - state["reserve_faceup"][other]
    return counts


def hidden_start_rows(state):
    return slice(int(revealed_start_stack_count(state.reshape(1)[0])), C.NUM_START_STACKS)


def test_states_cover_the_game():
    states = [s for _, s in mid_game_states()]
    assert len(states) > 300
    assert {int(s["round"]) for s in states} == set(range(C.NUM_GAME_ROUNDS + 1))
    decisions = {int(s["decision"]) for s in states}
    assert {S.DEC_START_STACK, S.DEC_PICK_PAIR, S.DEC_BID, S.DEC_ELEVATOR} <= decisions


def test_the_input_never_changes():
    for _, state in mid_game_states():
        before = state.tobytes()
        for seat in seats_of(state):
            view = determinize(state, seat, SEED_A)
            assert view is not state and view.shape == () and view.dtype == STATE_DTYPE
            assert state.tobytes() == before


def test_public_state_and_own_cards_are_kept():
    for _, state in mid_game_states():
        for seat in seats_of(state):
            view = determinize(state, seat, SEED_A)
            for name in KEPT:
                assert np.array_equal(view[name], state[name]), name
            assert np.array_equal(view["hand"][seat], state["hand"][seat])
            assert np.array_equal(view["reserve"][seat], state["reserve"][seat])
            # sizes: every hand, reserve, the draw and discard piles (R25: sizes are public)
            assert np.array_equal(view["hand"].sum(1), state["hand"].sum(1))
            assert np.array_equal(view["reserve"].sum(1), state["reserve"].sum(1))
            assert (view["reserve"] >= view["reserve_faceup"]).all(), "face-up cards stay (D7)"
            assert view["discard"].sum() == state["discard"].sum()
            count = int(state["draw_count"])
            assert (view["draw_pile"][count:] == S.EMPTY).all(), "cards drawn earlier still show"
            # face-down tiles: the same tiles, only their order may change
            top = int(state["prestige_next"])
            assert np.array_equal(view["prestige_stack"][:top], state["prestige_stack"][:top])
            assert sorted(view["prestige_stack"][top:]) == sorted(state["prestige_stack"][top:])
            for row in range(C.NUM_TILE_VALUES):
                n = int(state["elevator_count"][row])
                assert sorted(view["elevator_stack"][row, :n]) == sorted(state["elevator_stack"][row, :n])
                assert np.array_equal(view["elevator_stack"][row, n:], state["elevator_stack"][row, n:])
            hidden = hidden_start_rows(state)
            shown = slice(0, hidden.start)
            assert np.array_equal(view["start_stacks"][shown], state["start_stacks"][shown])
            for column in range(2):
                assert (sorted(view["start_stacks"][hidden, column])
                        == sorted(state["start_stacks"][hidden, column]))


def test_cards_and_tiles_are_conserved():
    views, originals = [], []
    for _, state in mid_game_states():
        for seat in seats_of(state):
            view = determinize(state, seat, SEED_B)
            assert np.array_equal(unseen_counts(view, seat), unseen_counts(state, seat))
            views.append(view)
            originals.append(state)
    check_states(np.stack(views))  # 15 cards of each type, every tile in one place, ...


def test_the_seat_sees_exactly_what_it_saw():
    for _, state in mid_game_states():
        for seat in seats_of(state):
            view = determinize(state, seat, SEED_A)
            assert np.array_equal(encode(view, seat), encode(state, seat))


def test_the_same_seed_gives_the_same_view():
    for _, state in mid_game_states()[::5]:
        for seat in seats_of(state):
            assert determinize(state, seat, SEED_A).tobytes() == determinize(state, seat, SEED_A).tobytes()


def _can_differ_cards(state, seat):
    """More than one arrangement of the unseen cards exists."""
    counts = unseen_counts(state, seat)
    return (counts > 0).sum() >= 2


def test_different_seeds_resample_every_hidden_part():
    card_fields = ("draw_pile", "discard", "hand", "reserve")
    tallies = {"cards": [0, 0], "elevator": [0, 0], "prestige": [0, 0], "start": [0, 0]}
    for _, state in mid_game_states():
        seat = max(0, current_player(state))
        a, b = determinize(state, seat, SEED_A), determinize(state, seat, SEED_B)
        assert not np.array_equal(a["rng"], b["rng"])
        checks = {
            "cards": (_can_differ_cards(state, seat),
                      any(not np.array_equal(a[f], b[f]) for f in card_fields)),
            "elevator": (True, not np.array_equal(a["elevator_stack"], b["elevator_stack"])),
            "prestige": (C.NUM_PRESTIGE_TILES - int(state["prestige_next"]) >= MANY_TILES,
                         not np.array_equal(a["prestige_stack"], b["prestige_stack"])),
            "start": (state["stage"] == S.STAGE_START_CHARACTERS
                      and C.NUM_START_STACKS - hidden_start_rows(state).start >= MANY_STACKS,
                      not np.array_equal(a["start_stacks"], b["start_stacks"])),
        }
        for name, (possible, differs) in checks.items():
            if possible:
                tallies[name][0] += 1
                tallies[name][1] += differs
    for name, (possible, differed) in tallies.items():
        assert possible > 0, name
        assert differed >= MIN_DIFFERENT_SHARE * possible, (name, differed, possible)


def test_the_view_depends_only_on_what_the_seat_knows():
    # A view of a view agrees with the game on all the seat knows and differs in the hidden
    # parts; the next view drawn from it must not tell the two apart.
    for _, state in mid_game_states()[::3]:
        for seat in seats_of(state):
            twin = determinize(state, seat, SEED_A)
            assert determinize(twin, seat, SEED_B).tobytes() == determinize(state, seat, SEED_B).tobytes()


def test_a_hidden_card_moved_elsewhere_does_not_show():
    state = new_game(GameConfig(num_agents=3), seed=5)
    while int(state["decision"]) != S.DEC_BID:
        apply_action(state, int(np.flatnonzero(legal_mask(state))[0]))
    seat = current_player(state)
    other = (seat + 1) % 3
    twin = state.copy()
    card = int(np.flatnonzero(twin["hand"][other])[0])
    # swap a card of the other seat's hand with the highest pile card of another type
    top = max(k for k in range(int(twin["draw_count"])) if twin["draw_pile"][k] != card)
    twin["hand"][other][card] -= 1
    twin["hand"][other][int(twin["draw_pile"][top])] += 1
    twin["draw_pile"][top] = card
    assert twin.tobytes() != state.tobytes()
    assert determinize(twin, seat, SEED_A).tobytes() == determinize(state, seat, SEED_A).tobytes()


def test_views_play_on_legally_to_the_end():
    rng = np.random.default_rng(3)
    views = []
    for _, state in mid_game_states()[::8]:
        if is_terminal(state):
            continue
        for seat in seats_of(state):  # the seat to move, and every other seat too
            views.append(determinize(state, seat, int(rng.integers(1 << 62))))
    games = play_checked(np.stack(views), rng)  # masks never empty, every invariant, to the end
    assert (games["decision"] == S.DEC_GAME_OVER).all()


def test_a_numpy_generator_is_a_seed():
    state = mid_game_states()[40][1]
    seat = max(0, current_player(state))
    by_generator = determinize(state, seat, np.random.default_rng(9))
    assert by_generator.tobytes() == determinize(state, seat, np.random.default_rng(9)).tobytes()
    drawn = int(np.random.default_rng(9).integers(2 ** 63))
    assert by_generator.tobytes() == determinize(state, seat, drawn).tobytes()


@pytest.mark.parametrize("seat", [-1, 2, 7, True, "0", 1.0])
def test_a_seat_outside_the_game_is_refused(seat):
    state = new_game(GameConfig(num_agents=2), seed=1)
    with pytest.raises(ValueError, match=r"seats are 0\.\.1"):
        determinize(state, seat, 0)


@pytest.mark.parametrize("seed", [-1, 1.5, None, "7", False])
def test_a_bad_seed_is_refused(seed):
    state = new_game(GameConfig(num_agents=2), seed=1)
    with pytest.raises(ValueError, match="seed must be a non-negative int or a numpy Generator"):
        determinize(state, 0, seed)


def test_only_a_single_game_record_is_accepted():
    with pytest.raises(ValueError, match="STATE_DTYPE"):
        determinize({"hand": 0}, 0, 0)
    with pytest.raises(ValueError, match="single game"):
        determinize(np.zeros(2, STATE_DTYPE), 0, 0)


# The same views computed by the plain-Python engine (TINY_YORK_JIT=0) in a subprocess.
PLAIN_VIEWS = r'''
import json, sys
import numpy as np
from tiny_york_env.games.tiny_york import GameConfig, apply_action, determinize, legal_mask, new_game
from tiny_york_env.core import jit as jit_module
out = []
for agents, toms, seed, steps, seat, view_seed in json.loads(sys.argv[1]):
    state = new_game(GameConfig(num_agents=agents, toms=tuple(toms)), seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
    out.append(determinize(state, seat, view_seed).tobytes().hex())
print(json.dumps({"jit": jit_module.JIT_ENABLED, "views": out}))
'''
PLAIN_CASES = [(2, [], 3, 0, 1, 5), (3, [], 4, 90, 2, 6), (2, [4], 5, 60, 0, 7), (4, [], 6, 150, 3, 8)]


@pytest.mark.skipif(not JIT_ENABLED, reason="compares against the compiled engine")
def test_compiled_and_plain_python_views_agree():
    env = dict(os.environ, TINY_YORK_JIT="0")
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", PLAIN_VIEWS, json.dumps(PLAIN_CASES)], cwd=REPO_ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    plain = json.loads(proc.stdout.strip().splitlines()[-1])
    assert plain["jit"] is False
    for (agents, toms, seed, steps, seat, view_seed), want in zip(PLAIN_CASES, plain["views"], strict=True):
        state = new_game(GameConfig(num_agents=agents, toms=tuple(toms)), seed)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
        assert determinize(state, seat, view_seed).tobytes().hex() == want


def test_the_real_record_keeps_no_drawn_card_in_the_pile():
    """Drawn cards are blanked in ``draw_pile`` (R25): the record itself never shows where a card
    went, so code reading the raw state (not a view) cannot see others' hands there either."""
    for _, state in mid_game_states():
        count = int(state["draw_count"])
        assert (state["draw_pile"][count:] == S.EMPTY).all()
        assert (state["draw_pile"][:count] != S.EMPTY).all()


# --- D7: character 3's face-up reserve cards are public ------------------------------------
FACEUP_SEEDS = 60


def _faceup_position():
    """A 3-agent game at a bidding turn; seat 1's reserve holds a press card face up (character
    3, R25) and one face-down card."""
    state = new_game(GameConfig(num_agents=3), seed=5)
    play_until(state, lambda r: r["decision"] == S.DEC_BID)
    r = rec(state)
    moved = {C.PRESS: 1, C.DOLLARS: 1}  # taken from the draw pile, the old reserve put there
    pile = list(r["draw_pile"][: int(r["draw_count"])])
    for t, n in enumerate(r["reserve"][1]):
        pile += [t] * int(n)  # the old reserve goes back into the pile
    for t, n in moved.items():
        for _ in range(n):
            pile.remove(t)
    r["draw_pile"][:] = S.EMPTY
    r["draw_pile"][: len(pile)] = pile
    r["draw_count"] = len(pile)
    set_cards(state, 1, reserve=moved)
    r["reserve_size"][1] = 2
    r["reserve_faceup"][1, C.PRESS] = 1
    return state


def test_face_up_reserve_cards_stay_and_the_rest_is_resampled():
    """D7: every view keeps seat 1's face-up press card in its reserve; the face-down card is
    dealt from the unseen pool, so it differs between seeds."""
    state = _faceup_position()
    observer = 0
    faceup = state["reserve_faceup"].copy()
    hidden_cards = set()
    for seed in range(FACEUP_SEEDS):
        view = determinize(state, observer, seed)
        assert np.array_equal(view["reserve_faceup"], faceup)
        assert view["reserve"][1, C.PRESS] >= 1 and view["reserve"][1].sum() == 2
        rest = view["reserve"][1] - faceup[1]
        hidden_cards.add(int(np.flatnonzero(rest)[0]))
        assert np.array_equal(unseen_counts(view, observer), unseen_counts(state, observer))
    assert len(hidden_cards) >= 3, "the face-down card is resampled"
    own = determinize(state, 1, SEED_A)
    assert np.array_equal(own["reserve"][1], state["reserve"][1])


def test_the_face_up_card_shows_the_face_down_one_does_not():
    """R25 and D7: games differing in which card of seat 1's reserve is face up give seat 0
    different views and observations; games differing only in the face-down card do not."""
    state = _faceup_position()
    flipped = state.copy()
    flipped["reserve_faceup"][1] = 0
    flipped["reserve_faceup"][1, C.DOLLARS] = 1
    assert determinize(state, 0, SEED_A).tobytes() != determinize(flipped, 0, SEED_A).tobytes()
    assert not np.array_equal(encode(state, 0), encode(flipped, 0))
    swapped = state.copy()  # seat 1's face-down dollars card changes place with a pile card
    k = max(i for i in range(int(swapped["draw_count"])) if swapped["draw_pile"][i] != C.DOLLARS)
    card = int(swapped["draw_pile"][k])
    swapped["reserve"][1, C.DOLLARS] -= 1
    swapped["reserve"][1, card] += 1
    swapped["draw_pile"][k] = C.DOLLARS
    assert swapped.tobytes() != state.tobytes()
    assert determinize(swapped, 0, SEED_A).tobytes() == determinize(state, 0, SEED_A).tobytes()


# --- D4 with character 18 ------------------------------------------------------------------
TOM = 2
CAP_SEEDS = 200


def _tom_bid_before_the_18_user():
    """Agents 0, 1 and Tom 2 (mode A: no draw before the bids) in the dollars round, bidding
    clockwise from seat 0. Seat 0 declares 18 and bids last (P17); seat 1 bids 3; Tom, with one
    dollars card and one wild, cannot beat it and adds no wild (R21). Seat 0 is to bid."""
    state = new_game(GameConfig(num_agents=2, toms=("A5",)), seed=2)
    play_until(state, lambda r: r["decision"] == S.DEC_PICK_PAIR)
    strip_characters(state)
    give_character(state, 0, 18)
    r = rec(state)
    r["dollars"][:2] = 1
    set_press(state, [0, 2, 1])
    deal_cards(state, 0, hand={C.DOLLARS: 1})
    deal_cards(state, 1, hand={C.DOLLARS: 3})
    deal_cards(state, TOM, hand={C.DOLLARS: 1, C.WILD: 1, C.ELEVATOR: 3})
    for card in r["pairs"].ravel():  # Phase I is over: the pairs left go to the discard pile
        if card != S.EMPTY:
            r["discard"][card] += 1
    r["pairs"][:] = S.EMPTY
    r["bid_round"] = C.DOLLARS
    r["bid_start"] = 0
    r["stage"] = S.STAGE_BID_START
    r["decision"] = S.DEC_NONE
    resume(state)
    assert r["decision"] == S.DEC_DECLARE_BID_LAST and r["actor"] == 0
    apply_action(state, USE_CHARACTER + 18 - 1)
    assert list(r["order"][:3]) == [1, TOM, 0]
    apply_action(state, BID_CARD)
    apply_action(state, BID_CARD)
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    assert r["decision"] == S.DEC_BID and r["actor"] == 0
    assert r["bid_value"][TOM] == 1 and r["hand"][TOM, C.WILD] == 1
    return state


def test_toms_wild_cap_still_holds_when_18_sends_an_agent_last():
    """D4 with P17: 18 is declared before the first bid, so the bids Tom had to beat are those
    before him in the bidding order, the 18 user excluded. Seat 1's 3 (ahead of Tom on the press
    track) needed 3 wilds; Tom added none, so he holds at most 2 wilds (building plans
    included), and no view gives him more."""
    state = _tom_bid_before_the_18_user()
    assert tom_wild_cap(rec(state), TOM) == 2
    most = 0
    for seed in range(CAP_SEEDS):
        view = determinize(state, 0, seed)
        wilds = int(view["hand"][TOM, C.WILD] + view["hand"][TOM, C.PLANS])
        assert wilds <= 2, f"seed {seed}: Tom holds {wilds} wilds"
        assert view["hand"][TOM, C.PRESS] == 0 and view["hand"][TOM, C.DOLLARS] == 0
        most = max(most, wilds)
    assert most == 2, "the cap binds in some view"
