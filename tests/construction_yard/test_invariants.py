"""Invariants over thousands of random Construction Yard games (2-6 players, the Dirk game, and
games with bots), written from the rulebook and the record's documented meaning, not from the
engine's helpers, so an engine bug cannot hide in both:

* batch games (``new_games`` / ``legal_masks`` / ``apply_actions``), every state checked at
  once: every money card (108 or 72), both scoring cards and all 54 buildings accounted for;
  the legal mask recomputed from the rules (Y3, Y4, Y8); the decision fields consistent; scores
  only for scorings done; the end state (display given away, three scorings, winners);
* a random illegal action probed in every state of the batch (flagged, game byte-identical);
* every transition of a subset of those games replayed by a reference model of the rules in
  plain Python (take, buy, pay, keep/give, pass, refills, scorings with Dirk's share, the end),
  compared field by field with the engine's record;
* single games through the public verbs: ``step`` pure, ``apply_action`` refusing illegal
  actions with a ValueError and the state unchanged, ``current_player`` and ``is_terminal``;
* compiled ``play_random_kernel`` batches that end and repeat with their seed.
"""

from collections import Counter

import numpy as np
import pytest

from tiny_york_env.core.jit import JIT_ENABLED
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.games.construction_yard import (
    NUM_ACTIONS,
    STATE_DTYPE,
    GameConfig,
    apply_action,
    apply_actions,
    current_player,
    final_scores,
    is_terminal,
    legal_actions,
    legal_mask,
    legal_masks,
    new_game,
    new_games,
    step,
    winners,
)
from tiny_york_env.games.construction_yard.actions import (
    BUY,
    GIVE_TO_DIRK,
    KEEP,
    NUM_SUBSETS,
    PASS,
    PAY,
    PAY_DONE,
    TAKE_MONEY,
    decode,
)
from tiny_york_env.games.construction_yard.batch import play_random_kernel
from tiny_york_env.games.construction_yard.data import BUILDING_COUNTS, BUILDING_PRICE, BUILDING_TYPE
from tiny_york_env.games.construction_yard.state import (
    DEC_CHOOSE,
    DEC_DIRK,
    DEC_GAME_OVER,
    DEC_PAY,
    DIRK_ROW,
    NO_CARD,
    SCORING_A,
    SCORING_B,
)

# Under TINY_YORK_JIT=0 (debugging, coverage) the engine is plain Python: play fewer games.
_SCALE = 1 if JIT_ENABLED else 20
BATCH_GAMES = 1000 // _SCALE  # per player count, every state checked
MODEL_GAMES = 40 // _SCALE  # of those, every transition replayed by the reference model
SINGLE_GAMES = 6  # per player count, through the single-game verbs
KERNEL_GAMES = 1000 // _SCALE  # per config, end states checked
MAX_DECISIONS = 5_000  # far above any real game (about 300-450 decisions)
PLAYER_COUNTS = (2, 3, 4, 5, 6)

# Printed numbers restated from the rulebook (not imported from the engine).
NUM_MONEY_CODES = 36  # 4 currencies x values 1..9
VALUES = np.arange(1, 10)
SLOT_CURRENCY = (0, 1, 2, 3)  # the construction yard, left to right (data: default order)
TAKE_LIMIT = 5
RANK_OFFSETS = ((1,), (8, 1), (16, 8, 1))  # reference card: A i+1; B i+8, i+1; C i+16, i+8, i+1
DIRK_AFTER_A = 6
SUBSET_SLOTS = [[k for k in range(4) if (s + 1) >> k & 1] for s in range(NUM_SUBSETS)]
SUBSET_MATRIX = np.array([[(s + 1) >> k & 1 for k in range(4)] for s in range(NUM_SUBSETS)], dtype=bool)


def copies_of(num_players):
    """Copies of each currency-value: 2 with two players (one sorted out), else 3."""
    return 2 if num_players == 2 else 3


def expect(ok, what, states):
    """Fail naming the first game where the per-game bool ``ok`` is False."""
    ok = np.asarray(ok, dtype=bool)
    if ok.all():
        return
    i = int(np.flatnonzero(~ok)[0])
    r = states[i]
    raise AssertionError(f"{what}: game {i} ({int(r['num_players'])} players, turn {int(r['turn'])}, "
                         f"decision {int(r['decision'])}, actor {int(r['actor'])})")


def rows_of(num_players):
    """The participant rows that score: the seats, and Dirk with two players."""
    return list(range(num_players)) + ([DIRK_ROW] if num_players == 2 else [])


# --- the state checks, on a whole batch at once ---------------------------------------------------

def money_counts(st):
    """(B, 38): every money card and scoring card of each game, wherever it is."""
    b_count = len(st)
    counts = np.zeros((b_count, NUM_MONEY_CODES + 2), dtype=np.int64)
    for cards, count in (("money_deck", "money_count"), ("discard", "discard_count")):
        live = np.arange(st[cards].shape[1])[None, :] < st[count][:, None]
        g, k = np.nonzero(live)
        np.add.at(counts, (g, st[cards][g, k].astype(np.int64)), 1)
    g, k = np.nonzero(st["money_display"] != NO_CARD)
    np.add.at(counts, (g, st["money_display"][g, k].astype(np.int64)), 1)
    counts[:, :NUM_MONEY_CODES] += st["hand"].sum(axis=1).reshape(b_count, NUM_MONEY_CODES)
    paying = st["decision"] == DEC_PAY
    for slot, currency in enumerate(SLOT_CURRENCY):
        sel = paying & (st["buy_slot"] == slot)
        counts[sel, currency * 9:currency * 9 + 9] += st["payment"][sel]
    return counts


def building_cards(st):
    """(ids seen per game (B, 54): deck + display + pending; free per type (B, 6))."""
    b_count = len(st)
    seen = np.zeros((b_count, 54), dtype=np.int64)
    live = np.arange(54)[None, :] < st["building_count"][:, None]
    g, k = np.nonzero(live)
    np.add.at(seen, (g, st["building_deck"][g, k].astype(np.int64)), 1)
    g, k = np.nonzero(st["building_display"] != NO_CARD)
    np.add.at(seen, (g, st["building_display"][g, k].astype(np.int64)), 1)
    g = np.flatnonzero(st["pending_building"] != NO_CARD)
    np.add.at(seen, (g, st["pending_building"][g].astype(np.int64)), 1)
    by_type = np.stack([seen[:, BUILDING_TYPE == t].sum(axis=1) for t in range(6)], axis=1)
    free = np.array(BUILDING_COUNTS)[None, :] - by_type - st["buildings"].sum(axis=1)
    return seen, free


def expected_masks(st):
    """(B, NUM_ACTIONS): the legal actions recomputed from the rules (Y3, Y4, Y8)."""
    b_count = len(st)
    masks = np.zeros((b_count, NUM_ACTIONS), dtype=bool)
    g = np.arange(b_count)
    dec = st["decision"]
    actor = st["actor"].astype(np.int64)
    hand = st["hand"][g, actor]  # (B, 4, 9)
    # DEC_CHOOSE: each subset of filled money slots that is one card or totals at most 5.
    display = st["money_display"].astype(np.int64)
    filled = display != NO_CARD
    values = np.where(filled, display % 9 + 1, 0)
    all_filled = (filled[:, None, :] | ~SUBSET_MATRIX[None]).all(axis=2)
    total = (values[:, None, :] * SUBSET_MATRIX[None]).sum(axis=2)
    single = SUBSET_MATRIX.sum(axis=1) == 1
    take_ok = all_filled & (single[None, :] | (total <= TAKE_LIMIT))
    bdisp = st["building_display"].astype(np.int64)
    price = np.where(bdisp != NO_CARD, BUILDING_PRICE[np.maximum(bdisp, 0)], 10 ** 6)
    funds = (hand * VALUES).sum(axis=2)[:, list(SLOT_CURRENCY)]
    buy_ok = funds >= price
    choose = dec == DEC_CHOOSE
    masks[choose, TAKE_MONEY:TAKE_MONEY + NUM_SUBSETS] = take_ok[choose]
    masks[choose, BUY:BUY + 4] = buy_ok[choose]
    masks[choose, PASS] = ~(take_ok.any(axis=1) | buy_ok.any(axis=1))[choose]
    # DEC_PAY: one more card of any value held in the slot's currency; done once covered.
    paying = np.flatnonzero(dec == DEC_PAY)
    if len(paying):
        slot = st["buy_slot"][paying].astype(np.int64)
        currency = np.array(SLOT_CURRENCY)[slot]
        masks[paying, PAY:PAY + 9] = hand[paying, currency] > 0
        card = st["building_display"][paying, slot].astype(np.int64)
        masks[paying, PAY_DONE] = st["paid"][paying] >= BUILDING_PRICE[card]
    masks[dec == DEC_DIRK, KEEP] = True
    masks[dec == DEC_DIRK, GIVE_TO_DIRK] = True
    return masks


def check_states(st, num_players):
    """Every invariant of a batch of records of ``num_players``-player games."""
    n, dirk = num_players, num_players == 2
    over = st["decision"] == DEC_GAME_OVER
    live = ~over
    # Money: every card exactly once; the scoring cards until they are drawn; no scoring card
    # anywhere but in the deck; the payment only while paying.
    counts = money_counts(st)
    expect((counts[:, :NUM_MONEY_CODES] == copies_of(n)).all(axis=1), "money cards conserved", st)
    expect(counts[:, NUM_MONEY_CODES] == 1 - st["scorings_done"][:, 0], "scoring card A until scored", st)
    expect(counts[:, NUM_MONEY_CODES + 1] == 1 - st["scorings_done"][:, 1], "scoring card B until scored", st)
    expect((st["money_display"] < NUM_MONEY_CODES).all(axis=1), "no scoring card on display", st)
    discard_live = np.arange(st["discard"].shape[1])[None, :] < st["discard_count"][:, None]
    expect(((st["discard"] < NUM_MONEY_CODES) | ~discard_live).all(axis=1), "no scoring card discarded", st)
    expect((st["hand"][:, n:] == 0).all(axis=(1, 2, 3)), "no hands beyond the seats", st)
    paying = st["decision"] == DEC_PAY
    expect(paying | (st["payment"] == 0).all(axis=1), "a payment only while paying", st)
    expect(st["paid"] == (st["payment"] * VALUES).sum(axis=1), "paid is the payment's total", st)
    # The piles (Y1): pile bottoms stacked, each unscored card still inside its pile.
    bottoms = st["pile_bottom"].astype(np.int64)
    expect((np.diff(bottoms, axis=1) <= 0).all(axis=1) & (bottoms[:, -1] == 0), "piles stacked", st)
    deck_live = np.arange(st["money_deck"].shape[1])[None, :] < st["money_count"][:, None]
    for card, pile in ((SCORING_A, 1), (SCORING_B, 3)):
        at = (st["money_deck"] == card) & deck_live
        g, where = np.nonzero(at)
        ok = np.ones(len(st), dtype=bool)
        ok[g] = (bottoms[g, pile] <= where) & (where < bottoms[g, pile - 1])
        expect(ok, f"scoring card {'AB'[pile // 2]} inside its pile", st)
    # Buildings: each id at most once among deck, display and pending; every card of each type
    # in a row or there; the rest removed (only at the end).
    seen, free = building_cards(st)
    expect((seen <= 1).all(axis=1), "a building card in two places", st)
    expect((free >= 0).all(axis=1) & (free.sum(axis=1) == st["removed"]), "buildings conserved", st)
    expect(over | (st["removed"] == 0), "cards leave the game only at the end", st)
    expect((st["buildings"][:, n:DIRK_ROW] == 0).all(axis=(1, 2)), "no buildings beyond the seats", st)
    if not dirk:
        expect((st["buildings"][:, DIRK_ROW] == 0).all(axis=1), "Dirk only with two players", st)
        expect(st["decision"] != DEC_DIRK, "keep-or-give only with two players", st)
    else:
        expect(st["buildings"][:, DIRK_ROW].sum(axis=1) >= 6, "Dirk's six from setup", st)
    # Decisions.
    expect(live | (st["building_display"] == NO_CARD).all(axis=1), "the display is given away at the end", st)
    expect(live | (st["scorings_done"][:, 2] == 1), "scoring C at the end", st)
    expect(st["scorings_done"][:, 1] <= st["scorings_done"][:, 0], "B is drawn after A (piles 2 and 4)", st)
    expect(over | (st["scorings_done"][:, 2] == 0), "scoring C only at the end", st)
    expect(over | ((0 <= st["actor"]) & (st["actor"] < n)), "the actor is a seat", st)
    pending = st["pending_building"] != NO_CARD
    expect((st["decision"] == DEC_DIRK) == pending, "a pending building only for keep/give", st)
    expect(paying == (st["buy_slot"] != NO_CARD), "a buy slot only while paying", st)
    paid_for = st["building_display"][np.arange(len(st)), np.maximum(st["buy_slot"], 0)]
    expect(~paying | (paid_for != NO_CARD), "paying for a building on display", st)
    start = live & (st["decision"] == DEC_CHOOSE) & (st["actions_in_turn"] == 0)
    expect(~start | (st["building_display"] != NO_CARD).all(axis=1), "a full building display each turn", st)
    full_money = (st["money_display"] != NO_CARD).all(axis=1)
    empty_supply = (st["money_count"] == 0) & (st["discard_count"] == 0)
    expect(~start | full_money | empty_supply, "a full money display each turn unless none is left", st)
    gaps = (st["building_display"] == NO_CARD).sum(axis=1)
    expect(over | (gaps == st["actions_in_turn"] + (st["decision"] == DEC_DIRK)),
           "one gap per purchase this turn (no refill during the turn)", st)
    expect(st["actions_in_turn"] <= 4, "at most four sharp purchases a turn (Buy, Note)", st)
    # Scores: only for scorings done, only for the rows that score.
    done = st["scorings_done"].astype(bool)
    expect(((st["score_lines"] == 0) | done[:, None, :]).all(axis=(1, 2)), "points only from scorings done",
           st)
    scoring_rows = np.zeros(7, dtype=bool)
    scoring_rows[rows_of(n)] = True
    expect((st["score_lines"][:, ~scoring_rows] == 0).all(axis=(1, 2)), "points only for scoring rows", st)
    totals = st["score_lines"][:, :n].sum(axis=2)
    best = totals.max(axis=1)
    winner_bits = ((totals == best[:, None]) * (1 << np.arange(n))[None, :]).sum(axis=1)
    expect(np.where(over, st["winner_mask"] == winner_bits, st["winner_mask"] == 0),
           "winners: the seats with the highest total, Dirk never", st)
    # Masks: the rules' legal actions; some before the end, none after.
    masks = legal_masks(st)
    expect((masks == expected_masks(st)).all(axis=1), "legal mask equals the rules' legal actions", st)
    expect(np.where(over, ~masks.any(axis=1), masks.any(axis=1)), "masks never empty before the end", st)
    return masks


# --- the reference model of one transition ------------------------------------------------------

def reference_score(r, num_players, scoring):
    """Points per scoring row for ``scoring`` (0 A, 1 B, 2 C) from the rulebook: ranks by count
    among rows holding the type, tied rows share the sum of their ranks' points, rounded down."""
    points = Counter()
    rows = rows_of(num_players)
    offsets = RANK_OFFSETS[scoring]
    for t in range(6):
        have = {row: int(r["buildings"][row, t]) for row in rows if r["buildings"][row, t] > 0}
        for row, mine in have.items():
            above = sum(1 for c in have.values() if c > mine)
            tied = sum(1 for c in have.values() if c == mine)
            pot = sum(t + offsets[k] for k in range(above, above + tied) if k < len(offsets))
            points[row] += pot // tied
    return points


def draw_buildings(e, count):
    """Pop up to ``count`` building ids from the top of ``e``'s deck."""
    out = []
    while len(out) < count and e["building_count"] > 0:
        e["building_count"] -= 1
        out.append(int(e["building_deck"][e["building_count"]]))
    return out


class Reshuffled(Exception):
    """The reference reached a reshuffle of the discard: the new order is the generator's."""


def reference_end_turn(e, after, num_players):
    """Refills, scorings and the end (Y5, Y7, Y8, Y9) applied to ``e``; a reshuffle takes the
    engine's order from ``after`` once the card pool is checked."""
    for slot in range(4):
        if e["building_display"][slot] == NO_CARD:
            drawn = draw_buildings(e, 1)
            if drawn:
                e["building_display"][slot] = drawn[0]
    if (e["building_display"] == NO_CARD).any():  # the game ends (Y8), money not refilled
        for slot in range(4):
            card = int(e["building_display"][slot])
            if card == NO_CARD:
                continue
            funds = (e["hand"][:num_players, SLOT_CURRENCY[slot]] * VALUES).sum(axis=1)
            best = funds.max()
            if best > 0 and (funds == best).sum() == 1:
                e["buildings"][int(np.argmax(funds)), BUILDING_TYPE[card]] += 1
            else:
                e["removed"] += 1
            e["building_display"][slot] = NO_CARD
        for row, pts in reference_score(e, num_players, 2).items():
            e["score_lines"][row, 2] += pts
        e["scorings_done"][2] = 1
        totals = e["score_lines"][:num_players].sum(axis=1)
        e["winner_mask"] = sum(1 << s for s in range(num_players) if totals[s] == totals.max())
        e["decision"] = DEC_GAME_OVER
        return
    for slot in range(4):
        while e["money_display"][slot] == NO_CARD:
            if e["money_count"] == 0:
                if e["discard_count"] == 0:
                    break
                reshuffle_from(e, after, slot)
                break
            e["money_count"] -= 1
            card = int(e["money_deck"][e["money_count"]])
            if card in (SCORING_A, SCORING_B):
                scoring = 0 if card == SCORING_A else 1
                for row, pts in reference_score(e, num_players, scoring).items():
                    e["score_lines"][row, scoring] += pts
                e["scorings_done"][scoring] = 1
                if num_players == 2:  # Y7: Dirk's share from the face-down deck
                    share = DIRK_AFTER_A if scoring == 0 else int(e["building_count"]) // 3
                    for card_id in draw_buildings(e, share):
                        e["buildings"][DIRK_ROW, BUILDING_TYPE[card_id]] += 1
            else:
                e["money_display"][slot] = card
    e["actor"] = (e["actor"] + 1) % num_players
    e["actions_in_turn"] = 0
    e["turn"] += 1
    e["decision"] = DEC_CHOOSE


def reshuffle_from(e, after, slot):
    """The discard becomes the deck in a random order: check that the engine's new display
    cards (from ``slot`` on) and deck are exactly the old discard, then adopt its order."""
    pool = Counter(int(c) for c in e["discard"][:e["discard_count"]])
    empty = [k for k in range(slot, 4) if e["money_display"][k] == NO_CARD]
    got = Counter(int(after["money_display"][k]) for k in empty if after["money_display"][k] != NO_CARD)
    got += Counter(int(c) for c in after["money_deck"][:after["money_count"]])
    assert got == pool, "the reshuffled deck and the refilled cards are the discard pile"
    for k in empty:
        e["money_display"][k] = after["money_display"][k]
    e["money_deck"][:] = after["money_deck"]
    e["money_count"] = after["money_count"]
    e["discard_count"] = 0
    e["pile_bottom"][:] = 0
    e["rng"][:] = after["rng"]  # the only draw from the generator


def reference_step(before, action, after, sharp_pending):
    """The record ``action`` should give from ``before`` (all seats agents); ``after`` (the
    engine's result) only supplies a reshuffled order. ``sharp_pending``: whether the purchase
    awaiting keep/give was paid sharp."""
    record = np.empty(1, dtype=STATE_DTYPE)
    record[0] = before
    e = record[0]  # a view: writes go into ``record``
    num_players = int(e["num_players"])
    actor = int(e["actor"])
    kind, payload = decode(action)
    if kind == "take_money":
        for slot in SUBSET_SLOTS[payload - 1]:
            card = int(e["money_display"][slot])
            e["hand"][actor, card // 9, card % 9] += 1
            e["money_display"][slot] = NO_CARD
        reference_end_turn(e, after, num_players)
    elif kind == "buy":
        e["decision"] = DEC_PAY
        e["buy_slot"] = payload
    elif kind == "pay":
        currency = SLOT_CURRENCY[int(e["buy_slot"])]
        e["hand"][actor, currency, payload - 1] -= 1
        e["payment"][payload - 1] += 1
        e["paid"] += payload
    elif kind == "pay_done":
        slot = int(e["buy_slot"])
        card = int(e["building_display"][slot])
        sharp = int(e["paid"]) == int(BUILDING_PRICE[card])
        for v in range(9):
            for _ in range(int(e["payment"][v])):
                e["discard"][e["discard_count"]] = SLOT_CURRENCY[slot] * 9 + v
                e["discard_count"] += 1
        e["payment"][:] = 0
        e["paid"] = 0
        e["building_display"][slot] = NO_CARD
        e["buy_slot"] = NO_CARD
        if num_players == 2:
            e["pending_building"] = card
            e["decision"] = DEC_DIRK
            return e, sharp
        e["buildings"][actor, BUILDING_TYPE[card]] += 1
        reference_after_purchase(e, after, sharp, num_players)
    elif kind in ("keep", "give_to_dirk"):
        row = actor if kind == "keep" else DIRK_ROW
        e["buildings"][row, BUILDING_TYPE[int(e["pending_building"])]] += 1
        e["pending_building"] = NO_CARD
        reference_after_purchase(e, after, sharp_pending, num_players)
    else:  # pass
        reference_end_turn(e, after, num_players)
    return e, None


def reference_after_purchase(e, after, sharp, num_players):
    """Sharp: one more action; otherwise the turn ends."""
    if sharp:
        e["actions_in_turn"] += 1
        e["decision"] = DEC_CHOOSE
    else:
        reference_end_turn(e, after, num_players)


LIVE_COUNT = {"money_deck": "money_count", "building_deck": "building_count", "discard": "discard_count"}
PRIVATE_FIELDS = {"paid_exactly"}  # the engine's own bookkeeping, not part of the documented record


def compare_records(expected, actual, where):
    """Field-by-field equality; decks compared on their live part, the discard as a multiset."""
    for name in STATE_DTYPE.names:
        if name in PRIVATE_FIELDS:
            continue
        if name in ("money_deck", "building_deck", "discard"):
            count = LIVE_COUNT[name]
            e, a = expected[name][:int(expected[count])], actual[name][:int(actual[count])]
            if name == "discard":
                e, a = sorted(e.tolist()), sorted(a.tolist())
            ok = np.array_equal(np.asarray(e), np.asarray(a))
        else:
            ok = np.array_equal(expected[name], actual[name])
        assert ok, f"{where}: field {name!r} expected {expected[name]!r}, engine has {actual[name]!r}"


# --- the tests -------------------------------------------------------------------------------------

@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_batch_games_keep_every_card_and_every_rule(num_players):
    """1,000 random games in lockstep: all states checked, an illegal action probed in each,
    and the first ``MODEL_GAMES`` games' transitions replayed by the reference model."""
    states = new_games(GameConfig(num_players=num_players), range(BATCH_GAMES))
    rng = np.random.default_rng(num_players)
    sharp_pending = {}
    model = np.arange(MODEL_GAMES)
    for _ in range(MAX_DECISIONS):
        masks = check_states(states, num_players)
        live = states["decision"] != DEC_GAME_OVER
        if not live.any():
            break
        # An illegal action for every game (a live one's or any for a finished one): refused.
        probe = states.copy()
        illegal = np.argmax(rng.random(masks.shape) * ~masks, axis=1)
        flagged = apply_actions(probe, illegal)
        assert flagged.all() and probe.tobytes() == states.tobytes()
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        before = states[model].copy()
        flagged = apply_actions(states, actions)
        expect(~(flagged & live), "a legal action was refused", states)
        for i in model[live[model]]:
            where = f"game {i}, turn {int(before[i]['turn'])}, action {int(actions[i])}"
            expected, sharp = reference_step(before[i], int(actions[i]), states[i], sharp_pending.get(i))
            sharp_pending[i] = sharp
            compare_records(expected, states[i], where)
    else:
        raise AssertionError(f"games still running after {MAX_DECISIONS} decisions")
    scores = states["score_lines"][:, :num_players].sum(axis=2)
    assert (scores.max(axis=1) > 0).all()


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_single_games_through_the_public_verbs(num_players):
    """``step`` is pure, ``apply_action`` refuses illegal actions with a ValueError and leaves the
    state byte-identical, ``current_player``/``is_terminal``/``final_scores`` agree."""
    rng = np.random.default_rng(100 + num_players)
    for seed in range(SINGLE_GAMES):
        state = new_game(GameConfig(num_players=num_players), seed=seed)
        earlier = [state.copy()]
        with pytest.raises(ValueError, match="not over"):
            final_scores(state)
        while not is_terminal(state):
            mask = legal_mask(state)
            assert current_player(state) == int(state["actor"])
            bad = [a for a in range(NUM_ACTIONS) if not mask[a]] + [-1, NUM_ACTIONS]
            snapshot = state.tobytes()
            for a in rng.choice(bad, size=3, replace=False):
                with pytest.raises(ValueError, match="illegal action|outside|must be"):
                    apply_action(state, int(a))
                assert state.tobytes() == snapshot
            action = int(rng.choice(np.flatnonzero(mask)))
            new = step(state, action)
            assert state.tobytes() == snapshot  # step is pure
            apply_action(state, action)
            assert new.tobytes() == state.tobytes()
            earlier.append(state.copy())
        assert current_player(state) == -1 and not legal_mask(state).any()
        with pytest.raises(ValueError, match="game is over"):
            apply_action(state, int(legal_actions(earlier[0])[0]))
        scores = final_scores(state)
        assert set(winners(state)) == set(np.flatnonzero(scores == scores.max()))
        # Replaying the same actions from the same seed gives the same game.
        assert earlier[0].tobytes() == new_game(GameConfig(num_players=num_players), seed=seed).tobytes()


KERNEL_CONFIGS = [GameConfig(num_players=2), GameConfig(num_players=2, bots=("greedy",)),
                  GameConfig(num_players=3, bots=("random",)), GameConfig(num_players=4),
                  GameConfig(num_players=5, bots=("greedy", "greedy")),
                  GameConfig(num_players=6, bots=("greedy", "random"))]


@pytest.mark.parametrize("config", KERNEL_CONFIGS, ids=lambda c: f"{c.num_players}p{len(c.bots)}bots")
def test_thousands_of_compiled_games_end_and_repeat_with_their_seed(config):
    states = new_games(config, range(KERNEL_GAMES))
    again = new_games(config, range(KERNEL_GAMES))
    assert states.tobytes() == again.tobytes()
    words, words_again = np.zeros(4, np.int64), np.zeros(4, np.int64)
    seed_rng(words, 9)
    seed_rng(words_again, 9)
    for i in range(states.shape[0]):
        assert play_random_kernel(states, i, words, MAX_DECISIONS) < MAX_DECISIONS
        play_random_kernel(again, i, words_again, MAX_DECISIONS)
    assert states.tobytes() == again.tobytes()
    check_states(states, config.num_players)  # every end state: cards, display, scorings, winners
    assert (states["decision"] == DEC_GAME_OVER).all()
    assert (states["winner_mask"] < (1 << config.num_players)).all()
    assert len({s.tobytes() for s in new_games(config, range(50))}) == 50


def test_bot_seats_never_wait_for_an_agent():
    """After any public call the seat to move is an agent's (bots play inside the engine)."""
    config = GameConfig(num_players=4, bots=("greedy", "random"))
    rng = np.random.default_rng(3)
    for seed in range(10):
        state = new_game(config, seed=seed)
        while not is_terminal(state):
            assert current_player(state) < config.num_agents
            apply_action(state, int(rng.choice(legal_actions(state))))
