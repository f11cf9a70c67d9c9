"""Sealed Bids' action codec: one flat table of every action id.

Layout (NUM_ACTIONS = 6)::

    BID   0..5   # + bid card value - 1: lay the card of that value face down (R4)
"""

from tiny_york_env.core.checked import action_id, is_int

from .state import MIN_BID, NUM_BID_CARDS

BID = 0
NUM_ACTIONS = BID + NUM_BID_CARDS
# (kind name, first id, payload count)
ACTION_KINDS = (("bid", BID, NUM_BID_CARDS),)


def encode(kind: str, payload: int = MIN_BID) -> int:
    """The action id of ``kind`` ("bid") with ``payload`` (the card value 1..6); ValueError
    otherwise."""
    for name, first, count in ACTION_KINDS:
        if name == kind:
            if not is_int(payload) or not 0 <= payload - MIN_BID < count:
                raise ValueError(f"bad payload {payload!r} for {kind!r}: a bid card is "
                                 f"{MIN_BID}..{NUM_BID_CARDS}")
            return first + int(payload) - MIN_BID
    raise ValueError(f"unknown action kind {kind!r}; kinds: {[k[0] for k in ACTION_KINDS]}")


def decode(action: int) -> tuple[str, int]:
    """(kind, payload) of an action id, the inverse of ``encode``; ValueError outside the space."""
    action = action_id(action, NUM_ACTIONS)
    for name, first, count in ACTION_KINDS:
        if first <= action < first + count:
            return name, action - first + MIN_BID
    raise AssertionError("unreachable: the kinds cover 0..NUM_ACTIONS-1")


def bid_value(action: int) -> int:
    """The bid card of a bid action id (compiled code uses ``action - BID + MIN_BID`` too)."""
    return decode(action)[1]


def describe_action(action: int) -> str:
    """The action in words, e.g. ``'bid 4'``."""
    kind, payload = decode(action)
    return f"{kind} {payload}"


def action_names() -> list[str]:
    """``describe_action`` of every id, in id order."""
    return [describe_action(a) for a in range(NUM_ACTIONS)]
