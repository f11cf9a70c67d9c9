"""``validate_state``: is a record one Sealed Bids' engine could have made? (the door check)

The compiled engine trusts its record: it indexes arrays with the record's seats, card values,
rounds and counts. A record from outside (a saved game, a socket, a damaged checkpoint) is
checked here first, and a ValueError names the first field that is wrong and what is allowed.
Checked:

- the setup: players 2-4, agent seats (at least one), each seat's kind (agents first, then bots);
- the round and the pending decision: the game is over exactly after the last round; while it
  runs, the round's opener is seat round mod n, the seat to bid follows the bids made so far and
  is an agent's (the engine plays its bots itself), and exactly the seats that bid before it hold
  a face-down bid (R3, R4); at the end nobody is to move and nothing is pending;
- the bid cards: every hand is the bid cards 1..6 less the cards played in resolved rounds and
  the pending bid, each card played at most once (R4); the history is empty after the round;
- the prize cards: each value 1..9 in exactly one place (the deck, the revealed prize, a
  resolved round), the deck's count as the round says, zeros past it (R2, R3);
- each resolved round's winner as its bids say (R5), the scores as the prizes won, the winners
  at the end (R6);
- the generator's words, the bot log (``core/move_log.py``): (a bot's seat, an action) below its
  count, zeros beyond; the current round's logged bids are bots' pending bids.
"""

from __future__ import annotations

import numpy as np

from tiny_york_env.core.move_log import MOVE_ACTION, MOVE_SEAT, move_log_problem

from .actions import BID, NUM_ACTIONS
from .api import as_batch
from .state import (
    BOT_GREEDY,
    BOT_NONE,
    DEC_GAME_OVER,
    MAX_BOT_MOVES,
    MAX_PLAYERS,
    MIN_BID,
    MIN_PLAYERS,
    NO_CARD,
    NO_SEAT,
    NUM_BID_CARDS,
    NUM_DECISIONS,
    NUM_PRIZES,
    NUM_ROUNDS,
    STATE_DTYPE,
)

WORD_LIMIT = 2 ** 32  # the generator's words are 32-bit values (core/rng.py)


class StateError(ValueError):
    """A record the engine could not have made (a ValueError naming the field)."""


def _fail(index: int | None, message: str) -> None:
    where = "" if index is None else f"record {index}: "
    raise StateError(f"invalid Sealed Bids state: {where}{message}")


def _in_range(value, low: int, high: int, field: str, index: int | None) -> int:
    value = int(value)
    if not low <= value <= high:
        _fail(index, f"{field} is {value}, allowed {low}..{high}")
    return value


def _check_setup(rec, index) -> int:
    n = _in_range(rec["num_players"], MIN_PLAYERS, MAX_PLAYERS, "num_players", index)
    agents = _in_range(rec["num_agents"], 1, n, "num_agents", index)
    for seat in range(MAX_PLAYERS):
        kind = int(rec["bot_kind"][seat])
        allowed = (BOT_NONE,) if seat < agents or seat >= n else tuple(range(BOT_NONE + 1, BOT_GREEDY + 1))
        if kind not in allowed:
            _fail(index, f"bot_kind[{seat}] is {kind}, allowed {allowed} (agents in seats "
                         f"0..{agents - 1}, bots after them, nothing beyond seat {n - 1})")
    return n


def _check_turn(rec, n, index) -> bool:
    """The round, the decision and whose it is; True while the game runs."""
    decision = _in_range(rec["decision"], 0, NUM_DECISIONS - 1, "decision", index)
    r = _in_range(rec["round"], 0, NUM_ROUNDS, "round", index)
    running = decision != DEC_GAME_OVER
    if running == (r == NUM_ROUNDS):
        _fail(index, f"decision {decision} in round {r}: the game is over exactly after round {NUM_ROUNDS}")
    opener = (r if running else NUM_ROUNDS - 1) % n
    if int(rec["start_seat"]) != opener:
        _fail(index, f"start_seat is {int(rec['start_seat'])}, but round {r} is opened by seat {opener}")
    if running:
        made = _in_range(rec["bids_made"], 0, n - 1, "bids_made", index)
        actor = (opener + made) % n
        if int(rec["actor"]) != actor:
            _fail(index, f"actor is {int(rec['actor'])}, but after {made} bids seat {actor} bids")
        if rec["bot_kind"][actor] != BOT_NONE:
            _fail(index, f"actor is {actor}, a bot's seat, in a running game: the engine plays its bots "
                         f"itself, so the seat to move is an agent's")
        _in_range(rec["prize"], 1, NUM_PRIZES, "prize (a round is open)", index)
    else:
        for field, value in (("actor", NO_SEAT), ("bids_made", 0), ("prize", NO_CARD)):
            if int(rec[field]) != value:
                _fail(index, f"{field} is {int(rec[field])} at the end, must be {value}")
    for seat in range(MAX_PLAYERS):
        bid = int(rec["pending_bid"][seat])
        has_bid = running and seat < n and (seat - opener) % n < int(rec["bids_made"])
        if not has_bid and bid != NO_CARD:
            _fail(index, f"pending_bid[{seat}] is {bid}, but that seat has no bid this round")
        if has_bid:
            _in_range(bid, MIN_BID, NUM_BID_CARDS, f"pending_bid[{seat}]", index)
    return running


def _check_bids(rec, n, index) -> None:
    r = int(rec["round"])
    history = rec["bid_history"].astype(np.int64)
    if history[n:].any() or history[:, r:].any():
        _fail(index, f"bid_history must be zero for absent seats and rounds not yet resolved ({r} are)")
    hand = rec["hand"].astype(np.int64)
    if np.any((hand != 0) & (hand != 1)) or hand[n:].any():
        _fail(index, "hand entries are 0 or 1, and zero beyond the last seat")
    for seat in range(n):
        played = history[seat, :r]
        if played.size and (played.min() < MIN_BID or played.max() > NUM_BID_CARDS
                            or len(set(played.tolist())) != played.size):
            _fail(index, f"seat {seat} played {played.tolist()}: each bid card "
                         f"1..{NUM_BID_CARDS} at most once")
        gone = set(played.tolist())
        bid = int(rec["pending_bid"][seat])
        if bid in gone:
            _fail(index, f"seat {seat}'s pending bid {bid} was already played in a resolved round")
        if bid != NO_CARD:
            gone.add(bid)
        expected = [0 if v + MIN_BID in gone else 1 for v in range(NUM_BID_CARDS)]
        if hand[seat].tolist() != expected:
            _fail(index, f"seat {seat}'s hand {hand[seat].tolist()} is not the bid cards less those "
                         f"played and bid ({expected})")


def _check_prizes(rec, running, index) -> None:
    r = int(rec["round"])
    count = _in_range(rec["prize_count"], 0, NUM_PRIZES, "prize_count", index)
    expected = NUM_PRIZES - r - (1 if running else 0)
    if count != expected:
        _fail(index, f"prize_count is {count}; after {r} rounds it is {expected}")
    deck = rec["prize_deck"].astype(np.int64)
    if deck[count:].any():
        _fail(index, "prize_deck must be zero past prize_count")
    prizes = rec["prize_history"].astype(np.int64)
    if prizes[r:].any():
        _fail(index, "prize_history must be zero for rounds not yet resolved")
    seen = deck[:count].tolist() + prizes[:r].tolist() + ([int(rec["prize"])] if running else [])
    if sorted(seen) != list(range(1, NUM_PRIZES + 1)):
        _fail(index, f"the prize cards are {sorted(seen)}: each of 1..{NUM_PRIZES} must be in exactly one "
                     "place (deck, revealed prize, a resolved round)")


def _check_results(rec, n, running, index) -> None:
    r = int(rec["round"])
    history = rec["bid_history"].astype(np.int64)
    score = np.zeros(MAX_PLAYERS, np.int64)
    for k in range(NUM_ROUNDS):
        winner = NO_SEAT
        if k < r:
            bids = history[:n, k]
            best = int(bids.max())
            if int(np.sum(bids == best)) == 1:
                winner = int(np.argmax(bids))
                score[winner] += int(rec["prize_history"][k])
        if int(rec["round_winner"][k]) != winner:
            why = f"its bids make it {winner}" if k < r else f"round {k} is not resolved ({NO_SEAT})"
            _fail(index, f"round_winner[{k}] is {int(rec['round_winner'][k])}, but {why}")
    if rec["score"].astype(np.int64).tolist() != score.tolist():
        _fail(index, f"score is {rec['score'].tolist()}, but the prizes won make it {score.tolist()}")
    mask = 0
    if not running:
        best = int(score[:n].max())
        mask = sum(1 << seat for seat in range(n) if score[seat] == best)
    if int(rec["winner_mask"]) != mask:
        _fail(index, f"winner_mask is {int(rec['winner_mask'])}, must be {mask}")


def _check_rng_and_log(rec, n, index) -> None:
    words = rec["rng"].astype(np.int64)
    if words.min() < 0 or words.max() >= WORD_LIMIT or not words.any():
        _fail(index, "the generator's words must be 32-bit values, not all zero")
    problem = move_log_problem(rec, n, NUM_ACTIONS, MAX_BOT_MOVES)
    if problem:
        _fail(index, problem)
    count = int(rec["bot_move_count"])
    start = _in_range(rec["log_round_start"], 0, count, "log_round_start", index)
    for i in range(start, min(count, rec["bot_moves"].shape[0])):
        seat, action = int(rec["bot_moves"][i, MOVE_SEAT]), int(rec["bot_moves"][i, MOVE_ACTION])
        if int(rec["pending_bid"][seat]) != action - BID + MIN_BID:
            _fail(index, f"bot_moves[{i}] is seat {seat}'s bid this round, but its pending bid differs")


def validate_record(rec: np.void, index: int | None = None) -> None:
    """ValueError (``StateError``) naming the first thing wrong with one record."""
    n = _check_setup(rec, index)
    running = _check_turn(rec, n, index)
    _check_bids(rec, n, index)
    _check_prizes(rec, running, index)
    _check_results(rec, n, running, index)
    _check_rng_and_log(rec, n, index)


def validate_state(state: np.ndarray) -> None:
    """ValueError unless ``state`` (one game of shape ``()`` or a 1-d batch of STATE_DTYPE) holds
    only records the engine could have made; see the module doc for what is checked."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.ndim > 1:
        raise StateError("validate_state takes a numpy array of Sealed Bids' STATE_DTYPE: one game "
                         "(shape ()) or a 1-d batch")
    if state.ndim == 0:
        validate_record(as_batch(state)[0])
        return
    for i in range(state.shape[0]):
        validate_record(state[i], i)
