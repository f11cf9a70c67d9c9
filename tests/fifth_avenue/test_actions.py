"""5th Avenue's action codec: the blocks tile 0..NUM_ACTIONS-1, every id has words, bad ids are
refused by name."""

import pytest

from tiny_york_env.games.fifth_avenue import actions as A
from tiny_york_env.games.fifth_avenue import data as F


def test_the_blocks_cover_every_id_once():
    starts = [start for start, _ in A.BLOCKS]
    assert starts == sorted(starts) and starts[0] == 0 and starts[-1] == A.NUM_ACTIONS == 158
    names = [A.decode(a)[0] for a in range(A.NUM_ACTIONS)]
    assert names.count("place_start") == F.NUM_PLOTS and names.count("take_pair") == 10
    assert names.count("move") == 2 * 9 and names.count("bid_card") == 18 and names.count("build") == 4


def test_every_action_has_words():
    words = [A.describe_action(a) for a in range(A.NUM_ACTIONS)]
    assert len(set(words)) == A.NUM_ACTIONS
    assert A.describe_action(A.MOVE + A.NUM_DESTINATIONS + A.DEST_CITY_HALL) == (
        "move the beige commissioner to City Hall (the auctions follow)")
    assert A.describe_action(A.SCORE_DISTRICT + F.TIMES_SQUARE) == "D: score Times Square"
    assert A.describe_action(A.BID_CARD + F.NUM_CARD_COLOURS * 3 + 2) == "bid a black 6"
    assert A.describe_action(A.BID_CARD) == "bid an orange 4"  # the article before a vowel


@pytest.mark.parametrize("bad", [-1, A.NUM_ACTIONS, 1.0, True, "3", None])
def test_bad_ids_are_refused(bad):
    with pytest.raises(ValueError, match=f"action .* 0..{A.NUM_ACTIONS - 1}"):
        A.decode(bad)
