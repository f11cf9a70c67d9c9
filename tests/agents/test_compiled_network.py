"""The compiled forward pass (core/network.py, agents/compiled_network.py) agrees with torch, and
the compiled playouts (core/batch_loops.py's network_playouts) search as the torch path does."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tiny_york_env.agents.compiled_network import CompiledNetwork, check_tower  # noqa: E402
from tiny_york_env.agents.policy_search import PolicyNetwork, PolicySearchAgent  # noqa: E402
from tiny_york_env.agents.ppo_agent import build_network, policy_card, write_policy_file  # noqa: E402
from tiny_york_env.agents.shipped import champion_network  # noqa: E402
from tiny_york_env.core.network import rational_tanh  # noqa: E402
from tiny_york_env.registry import BUILTIN_GAMES, get_game  # noqa: E402

GAMES = tuple(BUILTIN_GAMES)
TOLERANCE = 1e-4  # float32 sums in another order: logits of size ~10 agree to this
NEAR_TIE = 1e-3  # where the best two legal logits are closer, the argmax may differ by rounding
POSITION_GAMES = 6  # random games a game whose positions are compared
VIEW_GAMES = 20  # random games searched for positions with a choice, at most


def two_seat_config(game):
    """A setup with two agent seats of ``game`` (every seat's observation is compared)."""
    return game.seat_config(2, ())


def positions(game, games=POSITION_GAMES, seed=0):
    """(observations float32[N, obs_size], legal masks bool[N, num_actions]) of the seats to move
    in ``games`` random games."""
    rng = np.random.default_rng(seed)
    observations, masks = [], []
    for g in range(games):
        state = game.new_game(two_seat_config(game), seed + g)
        while not game.is_terminal(state):
            seat, mask = game.current_player(state), game.legal_mask(state)
            observations.append(game.encode(state, seat))
            masks.append(mask)
            game.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
    return np.array(observations, dtype=np.float32), np.array(masks)


def torch_logits(network: PolicyNetwork, observations):
    """The policy's logits by the network's torch modules, the dense way (no shortcut)."""
    with torch.no_grad():
        body = network.network
        return body["action_net"](body["mlp_extractor"]["policy_net"](torch.from_numpy(observations))).numpy()


def torch_values(network: PolicyNetwork, observations):
    """The value head's output by the torch modules, the dense way."""
    with torch.no_grad():
        body = network.network
        values = body["value_net"](body["mlp_extractor"]["value_net"](torch.from_numpy(observations)))
        return values[:, 0].numpy()


def assert_agrees(network: PolicyNetwork, observations, masks):
    """The compiled logits (legal entries; -inf elsewhere), values and argmax agree with torch's."""
    compiled = CompiledNetwork.from_policy_network(network)
    expected = torch_logits(network, observations)
    got = compiled.logits(observations, masks)
    assert np.all(np.isneginf(got[~masks]))
    np.testing.assert_allclose(got[masks], expected[masks], rtol=TOLERANCE, atol=TOLERANCE)
    np.testing.assert_allclose(compiled.values(observations), torch_values(network, observations),
                               rtol=TOLERANCE, atol=TOLERANCE)
    legal_expected = np.where(masks, expected, -np.inf)
    ordered = np.sort(legal_expected, axis=1)
    clear = (masks.sum(axis=1) < 2) | (ordered[:, -1] - ordered[:, -2] > NEAR_TIE)
    assert clear.mean() > 0.9  # the comparison below covers nearly every position
    np.testing.assert_array_equal(np.argmax(got, axis=1)[clear], np.argmax(legal_expected, axis=1)[clear])


def test_rational_tanh_is_within_float_precision_of_tanh():
    """The vectorisable tanh of the compiled pass is within 3.5e-7 of tanh, saturation included."""
    x = np.linspace(-20.0, 20.0, 400_001).astype(np.float32)
    y = x.copy()
    rational_tanh(y)
    assert np.abs(y.astype(np.float64) - np.tanh(x.astype(np.float64))).max() < 3.5e-7
    assert np.all(np.abs(y) <= 1.0)


@pytest.mark.parametrize("name", GAMES)
def test_compiled_forward_pass_agrees_with_torch_on_the_champion_network(name):
    """Over every position of random games, the champion network's compiled logits, values and
    choices are torch's (within float tolerance; choices where no near-tie)."""
    game = get_game(name)
    network = PolicyNetwork(champion_network(game, two_seat_config(game)), game)
    observations, masks = positions(game)
    assert_agrees(network, observations, masks)


@pytest.mark.parametrize("shape", [{"pi": [], "vf": [], "activation": "tanh"},
                                   {"pi": [32], "vf": [16, 8], "activation": "relu"},
                                   {"pi": [24, 16, 12], "vf": [20], "activation": "tanh"}])
def test_compiled_forward_pass_agrees_with_torch_for_other_shapes(tmp_path, shape):
    """Towers without a hidden layer, with ReLU and with three layers agree with torch too."""
    game = get_game("tiny_york")
    card = policy_card(shape, game=game)
    torch.manual_seed(0)
    network = build_network(card)
    for parameter in network.parameters():  # weights large enough that the activations bend
        torch.nn.init.normal_(parameter, std=0.3)
    path = tmp_path / "policy.zip"
    with open(path, "wb") as handle:
        write_policy_file(handle, card, network.state_dict())
    observations, masks = positions(game, games=2)
    assert_agrees(PolicyNetwork(path, game), observations, masks)


def search_views(game, count=6, seed=1):
    """``count`` (view, seat) pairs with at least three legal actions from random games."""
    rng = np.random.default_rng(seed)
    views = []
    for g in range(VIEW_GAMES):
        state = game.new_game(two_seat_config(game), seed + g)
        while not game.is_terminal(state) and len(views) < count:
            seat, mask = game.current_player(state), game.legal_mask(state)
            if mask.sum() >= 3 and rng.random() < 0.1:
                views.append((game.determinize(state, seat, rng), seat))
            game.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
        if len(views) == count:
            return views
    raise AssertionError("too few positions with a choice")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("value_depth", [None, 6])
def test_compiled_playouts_search_as_the_torch_path(name, value_depth):
    """With the same seed, the search on compiled playouts runs the same playouts as on torch's:
    the same candidates, visits, means (to float rounding) and actions."""
    game = get_game(name)
    network = PolicyNetwork(champion_network(game, two_seat_config(game)), game)
    searches = {}
    for forward in ("torch", "compiled"):
        agent = PolicySearchAgent(game, simulations=24, seed=5, network=network, forward=forward,
                                  value_depth=value_depth)
        searches[forward] = [agent.search(view, seat) for view, seat in search_views(game)]
        assert agent.evaluations > 0
    for torch_search, compiled_search in zip(searches["torch"], searches["compiled"], strict=True):
        assert compiled_search["action"] == torch_search["action"]
        np.testing.assert_array_equal(compiled_search["visits"], torch_search["visits"])
        np.testing.assert_allclose(compiled_search["means"], torch_search["means"], atol=1e-5)


def test_forward_is_checked():
    """An unknown forward pass is refused with the choices."""
    with pytest.raises(ValueError, match="forward must be one of"):
        PolicySearchAgent("tiny_york", forward="gpu")


def test_a_network_that_does_not_fit_the_game_is_refused_before_compiled_code_reads_it():
    """The compiled code reads the arrays unchecked, so their shapes are checked at the door."""
    tiny_york = get_game("tiny_york")
    compiled = PolicyNetwork(champion_network(tiny_york), tiny_york).compiled
    compiled.check_fits(tiny_york)
    with pytest.raises(ValueError, match="observation entries"):
        compiled.check_fits(get_game("construction_yard"))
    first, params, widths = compiled.policy_arrays
    with pytest.raises(ValueError, match="params"):
        check_tower((first, params[:-1], widths))
    with pytest.raises(ValueError, match="float32"):
        check_tower((first.astype(np.float64), params, widths))
    observations, masks = positions(tiny_york, games=1)
    with pytest.raises(ValueError, match="masks of shape"):
        compiled.logits(observations[:2], masks[:1])
    with pytest.raises(ValueError, match="observations of shape"):
        compiled.logits(observations[:2, :-1])
