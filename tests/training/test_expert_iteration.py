"""Expert iteration (training/expert_iteration.py): one tiny generation end to end."""

import dataclasses
import json

import numpy as np
import pytest

from tiny_york_env.agents.policy_search import CHAMPION_MARGIN_WEIGHT, CHAMPION_SKIP_ABOVE
from tiny_york_env.agents.ppo_agent import CHAMPION_MODEL_PATH, DEFAULT_MODEL_PATH, POLICY_FILE, PPOAgent
from tiny_york_env.games.tiny_york.observation import OBS_SIZE
from tiny_york_env.training import expert_iteration
from tiny_york_env.training.expert_iteration import (
    DECISIONS_FILE,
    RESULTS_FILE,
    ExpertIterationSettings,
    build_parser,
    game_config,
    main,
    play_search_games,
    resumed_results,
    run,
    settings_from_args,
)
from tiny_york_env.training.export import recorded_path
from tiny_york_env.training.imitate import Demonstrations


@pytest.mark.usefixtures("one_torch_thread")
def test_one_tiny_generation_end_to_end(tmp_path):
    settings = ExpertIterationSettings(out=str(tmp_path / "exit"), generations=1, games=3, simulations=4,
                                       levels=(5,), selfplay_every=3, epochs=1, eval_levels=(5,),
                                       eval_games=2)
    results = run(settings, progress=False)
    written = json.loads((tmp_path / "exit" / RESULTS_FILE).read_text())
    assert written["best"] == results["best"] and written["best"]["generation"] == 1
    (row,) = written["generations"]
    assert row["trained_from"] == recorded_path(CHAMPION_MODEL_PATH)  # by default, the champion's network
    assert row["ladder"]["5"]["games"] == 2 and 0 <= row["ladder"]["5"]["win_rate"] <= 1
    assert 0 <= row["search_win_rate_vs_toms"] <= 1  # the two solo games (the third is self-play)
    assert 0 < row["searched_decisions"] < row["decisions"]  # forced and sure decisions are not searched
    assert 0 <= row["changed_decisions"] <= row["searched_decisions"]
    demos = Demonstrations.load(tmp_path / "exit" / "gen-1" / DECISIONS_FILE)
    assert len(demos) == row["decisions"] > 100
    assert set(np.unique(demos.games)) == {0, 1, 2}
    assert demos.observations.shape == (len(demos), OBS_SIZE)
    assert demos.masks[np.arange(len(demos)), demos.actions].all()  # every target is legal
    # the new network is a policy file that plays, and the fit changed the start's choices
    new, old = PPOAgent(row["network"]), PPOAgent(CHAMPION_MODEL_PATH)
    differs = [not np.allclose(new.action_logits(o), old.action_logits(o)) for o in demos.observations[:20]]
    assert any(differs)


class Interrupted(Exception):
    """Stands for a run stopped part way (Ctrl-C, a machine taken back)."""


@pytest.mark.usefixtures("one_torch_thread")
def test_a_stopped_run_resumes_and_a_run_is_never_overwritten(tmp_path, monkeypatch):
    """A run stopped at its third game goes on with --resume from the two it wrote; without
    --resume its folder is refused; resumed again it has nothing left to do; resumed from where it
    was moved, its rows and best name the networks there; its games stay as the generation's records."""
    settings = ExpertIterationSettings(out=str(tmp_path / "exit"), generations=1, games=3, simulations=4,
                                       levels=(5,), selfplay_every=3, epochs=1, eval_levels=(5,),
                                       eval_games=2)
    play = expert_iteration.play_search_game

    def stops_at_game_two(settings, network, generation, index):
        if index == 2:
            raise Interrupted
        return play(settings, network, generation, index)

    monkeypatch.setattr(expert_iteration, "play_search_game", stops_at_game_two)
    with pytest.raises(Interrupted):
        run(settings, progress=False)
    started = json.loads((tmp_path / "exit" / RESULTS_FILE).read_text())
    assert started["generations"] == [] and started["settings"]["games"] == 3  # written before any game
    assert len(list((tmp_path / "exit" / "gen-1" / "games").iterdir())) == 2
    with pytest.raises(ValueError, match="already holds an expert-iteration run"):
        run(settings, progress=False)
    with pytest.raises(ValueError, match="simulations was 4, now 8"):
        run(ExpertIterationSettings(**{**settings.__dict__, "simulations": 8}), progress=False, resume=True)
    monkeypatch.setattr(expert_iteration, "play_search_game", play)
    results = run(settings, progress=False, resume=True)
    (row,) = results["generations"]
    assert row["resumed_games"] == 2 and row["games"] == 3
    assert len(list((tmp_path / "exit" / "gen-1" / "games").iterdir())) == 3  # the records, kept
    decisions = Demonstrations.load(tmp_path / "exit" / "gen-1" / DECISIONS_FILE)
    assert set(np.unique(decisions.games)) == {0, 1, 2}
    replayed = expert_iteration.kept_games(settings, 1, tmp_path / "exit" / "gen-1" / "games")
    assert sum(len(log.actions) for game in replayed.values() for log in game.seats) == len(decisions)
    assert json.loads((tmp_path / "exit" / RESULTS_FILE).read_text()) == results

    def never(*args):
        raise AssertionError("a finished generation plays no game")

    monkeypatch.setattr(expert_iteration, "play_search_game", never)
    assert run(settings, progress=False, resume=True) == results  # nothing left to do
    moved = tmp_path / "moved"
    (tmp_path / "exit").rename(moved)
    resumed = run(ExpertIterationSettings(**{**settings.__dict__, "out": str(moved)}), progress=False,
                  resume=True)
    assert len(list((moved / "gen-1" / "games").iterdir())) == 3
    network = str(moved / "gen-1" / POLICY_FILE)
    assert resumed["best"]["network"] == resumed["generations"][0]["network"] == network


def test_resume_checks_the_recorded_run(tmp_path):
    settings = ExpertIterationSettings(out=str(tmp_path), games=3)
    results_path = tmp_path / RESULTS_FILE
    with pytest.raises(ValueError, match="nothing to resume"):
        resumed_results(settings, results_path)
    for text in ("{", "[]", '{"settings": [], "generations": []}'):
        results_path.write_text(text)
        with pytest.raises(ValueError, match="not an expert-iteration results file"):
            resumed_results(settings, results_path)
    recorded = {"settings": {**json.loads(json.dumps(settings.__dict__)), "workers": 4, "generations": 9},
                "generations": [], "best": None}
    results_path.write_text(json.dumps(recorded))
    assert resumed_results(settings, results_path)["settings"]["workers"] == 1  # may change
    recorded["settings"]["levels"] = [7]
    recorded["generations"] = [{"generation": 1, "network": "gone.zip"}]
    results_path.write_text(json.dumps(recorded))
    with pytest.raises(ValueError, match=r"levels was \[7\], now \[1, 4, 7, 10, 12\]"):
        resumed_results(settings, results_path)
    recorded["settings"]["levels"] = list(settings.levels)
    results_path.write_text(json.dumps(recorded))
    with pytest.raises(ValueError, match="generation 1's network .* is missing"):
        resumed_results(settings, results_path)


def test_settings_are_checked_and_self_play_comes_in_turn(tmp_path):
    settings = ExpertIterationSettings(out=str(tmp_path), levels=(1, 12), selfplay_every=3)
    kinds = [(game_config(settings, i).num_agents, game_config(settings, i).toms) for i in range(6)]
    assert kinds[2][0] == 2 and kinds[5][0] == 2 and not kinds[2][1]
    assert kinds[0] == (1, ("A6",)) and kinds[1] == (1, ("C5",))
    defaults = ExpertIterationSettings(out=str(tmp_path))  # 5 levels, self-play every 5th game
    solo = [game_config(defaults, i).toms for i in range(40) if game_config(defaults, i).toms]
    assert {t for (t,) in solo} == {"A6", "A7", "A8", "A9", "C5"}  # every level, Tom 12 (C5) too
    assert [t for (t,) in solo][:5] == ["A6", "A7", "A8", "A9", "C5"]
    with pytest.raises(ValueError, match="seed"):
        ExpertIterationSettings(out=str(tmp_path), seed=-1)
    with pytest.raises(ValueError, match="policy file"):
        ExpertIterationSettings(out=str(tmp_path), start=str(tmp_path / "missing.zip"))
    with pytest.raises(ValueError, match="games"):
        ExpertIterationSettings(out=str(tmp_path), games=0)
    with pytest.raises(ValueError, match="selfplay_every"):
        ExpertIterationSettings(out=str(tmp_path), selfplay_every=-1)
    with pytest.raises(ValueError, match="levels"):
        ExpertIterationSettings(out=str(tmp_path), levels=(13,))


def same_details(first, second):
    """Whether two lists of decisions' search statistics (SearchStats or None) are equal."""
    return len(first) == len(second) and all(
        (a is None and b is None) or (a is not None and b is not None and a.step == b.step
                                      and all(np.array_equal(getattr(a, f), getattr(b, f))
                                              for f in ("prior", "visits", "means")))
        for a, b in zip(first, second, strict=True))


@pytest.mark.usefixtures("one_torch_thread")
def test_games_in_worker_processes_give_the_same_records(tmp_path):
    """Every game is seeded by its index: two processes record what one does, in game order."""
    common = dict(out=str(tmp_path), games=3, simulations=4, levels=(10,), selfplay_every=3)
    alone = play_search_games(ExpertIterationSettings(**common), DEFAULT_MODEL_PATH, 1, progress=False)
    pooled = play_search_games(ExpertIterationSettings(**common, workers=2), DEFAULT_MODEL_PATH, 1,
                               progress=False)
    assert alone[2:] == pooled[2:]  # win rate and the search's choice counts
    assert same_details(alone[1], pooled[1])  # each decision's search statistics
    for field in ("observations", "masks", "actions", "returns", "games"):
        assert np.array_equal(getattr(alone[0], field), getattr(pooled[0], field)), field
    assert set(np.unique(alone[0].games)) == {0, 1, 2}


def test_the_command_line_reads_every_option(tmp_path, capsys):
    args = build_parser().parse_args(["--out", str(tmp_path), "--levels", "7,10", "--eval-levels", "12",
                                      "--workers", "2", "--simulations", "32", "--margin-weight", "1.5"])
    settings = settings_from_args(args)
    assert (settings.levels, settings.eval_levels, settings.workers, settings.simulations) == ((7, 10), (12,),
                                                                                             2, 32)
    assert settings.margin_weight == 1.5 and settings.skip_above == CHAMPION_SKIP_ABOVE
    every = settings_from_args(build_parser().parse_args(["--out", str(tmp_path), "--search-every-decision"]))
    assert every.skip_above is None and every.margin_weight == CHAMPION_MARGIN_WEIGHT
    for bad, named in ((["--levels", "7,x"], "--levels"), (["--skip-above", "1.5"], "skip_above"),
                       (["--workers", "0"], "workers")):
        with pytest.raises(SystemExit):
            main(["--out", str(tmp_path / "never"), *bad])
        assert named in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "never"), "--resume"])
    assert "nothing to resume" in capsys.readouterr().err
    assert build_parser().parse_args(["--out", str(tmp_path), "--resume"]).resume
    assert not (tmp_path / "never").exists()  # refused before anything is written


def test_another_game_runs_a_generation_against_its_bots(tmp_path):
    """Expert iteration reads the record: Construction Yard's solo games against a greedy bot (with
    Dirk, two players), a self-play game, its shipped two-player policy as the first network, the
    ladder of its bots."""
    from tiny_york_env.agents.shipped import shipped_policy_path
    from tiny_york_env.registry import get_game
    game = get_game("construction_yard")
    settings = ExpertIterationSettings(out=str(tmp_path / "cy"), generations=1, games=3, simulations=2,
                                       levels=("greedy",), selfplay_every=3, epochs=1,
                                       eval_levels=("random",), eval_games=2, game=game.name)
    assert game_config(settings, 2) == game.seat_config(2, ())  # every third game: self-play
    results = run(settings, progress=False)
    (row,) = results["generations"]
    assert row["trained_from"] == recorded_path(shipped_policy_path(game, 2))
    assert row["ladder"]["random"]["games"] == 2
    demos = Demonstrations.load(tmp_path / "cy" / "gen-1" / DECISIONS_FILE, game.obs_size, game.num_actions)
    assert set(np.unique(demos.games)) == {0, 1, 2}
    assert PPOAgent(row["network"]).game.name == game.name
    assert ExpertIterationSettings(out=str(tmp_path), game=game.name).levels == ("greedy", "random")
    with pytest.raises(ValueError, match="rungs of Construction Yard are its bots"):
        ExpertIterationSettings(out=str(tmp_path), game=game.name, levels=(5,))


@pytest.mark.usefixtures("one_torch_thread")
def test_the_gate_tests_each_generation_by_sprt(tmp_path):
    """With gate_vs, each generation's search is tested against the search it came from by paired
    games (training.compare); the test's file and decision are in the row, and the next generation
    starts from the new network only when the test accepted it."""
    settings = ExpertIterationSettings(out=str(tmp_path / "exit"), generations=1, games=2, simulations=2,
                                       levels=(1,), selfplay_every=0, epochs=1, eval_levels=(1,),
                                       eval_games=1, gate_vs=(1,), gate_delta1=0.5, gate_max_pairs=4)
    (row,) = run(settings, progress=False)["generations"]
    gate = row["gate"]
    written = json.loads((tmp_path / "exit" / "gen-1" / "gate" / "compare.json").read_text())
    assert gate["file"].endswith("gen-1/gate/compare.json")
    assert written["result"]["decision"] == gate["decision"]
    assert written["settings"]["b"] == "search:gen-1/policy.zip"
    assert written["settings"]["a"] == "search:models/champion.zip"
    assert set(written["settings"]["files"]) == {row["network"], str(CHAMPION_MODEL_PATH)}
    assert gate["pairs"] <= 4 and gate["accepted"] == (gate["decision"] == "H1")
    assert row["next_network"] == (row["network"] if gate["accepted"] else str(CHAMPION_MODEL_PATH))
    with pytest.raises(ValueError, match="gate_vs"):
        ExpertIterationSettings(out=str(tmp_path / "x"), gate_vs=(13,))
    with pytest.raises(ValueError, match=r"gate_player must be one of \('search', 'alone'\)"):
        ExpertIterationSettings(out=str(tmp_path / "x"), gate_vs=(1,), gate_player="both")
    with pytest.raises(ValueError, match="gate_delta1 is the win share"):
        ExpertIterationSettings(out=str(tmp_path / "x"), gate_vs=(1,), gate_delta1=0.0)


@pytest.mark.usefixtures("one_torch_thread")
def test_a_rejected_generation_is_not_trained_on_nor_named_best(tmp_path, monkeypatch):
    """Generation 1 accepted, generation 2 rejected: generation 2 trains from generation 1's network,
    and the network after it is still generation 1's, which is the best (whatever the ladders say)."""
    decisions = iter([True, False])

    def gate(settings, previous, candidate, gen_dir, generation):
        accepted = next(decisions)
        return {"decision": "H1" if accepted else "H0", "accepted": accepted, "pairs": 1, "llr": 0.0,
                "mean_difference": 0.0, "file": ""}

    monkeypatch.setattr(expert_iteration, "gate_generation", gate)
    settings = ExpertIterationSettings(out=str(tmp_path / "exit"), generations=2, games=2, simulations=2,
                                       levels=(1,), selfplay_every=0, epochs=1, eval_levels=(1,),
                                       eval_games=1, gate_vs=(1,))
    results = run(settings, progress=False)
    first, second = results["generations"]
    assert second["trained_from"] == first["network"] == first["next_network"] == second["next_network"]
    assert (first["next_generation"], second["next_generation"]) == (1, 1)
    assert results["best"]["generation"] == 1
    moved = tmp_path / "moved"  # resumed where the run was moved, a third generation: from gen-1 there
    (tmp_path / "exit").rename(moved)
    (moved / "gen-2" / POLICY_FILE).unlink()  # a kept run may leave out a rejected network
    grown = dataclasses.replace(settings, out=str(moved), generations=3)
    decisions = iter([True])
    third = run(grown, progress=False, resume=True)["generations"][2]
    assert third["trained_from"] == str(moved / "gen-1" / POLICY_FILE)
    (moved / "gen-1" / POLICY_FILE).unlink()  # but not an accepted one
    with pytest.raises(ValueError, match="generation 1's network .* is missing"):
        run(grown, progress=False, resume=True)


def test_a_run_from_before_the_gate_resumes(tmp_path):
    """A generations.json written before the gate existed has no gate settings: they read as none."""
    settings = ExpertIterationSettings(out=str(tmp_path), generations=1, games=2, simulations=2, levels=(1,),
                                       selfplay_every=0, epochs=1, eval_levels=(1,), eval_games=1)
    recorded = json.loads(json.dumps(dataclasses.asdict(settings)))
    for name in ("gate_vs", "gate_delta1", "gate_max_pairs"):
        del recorded[name]
    (tmp_path / RESULTS_FILE).write_text(json.dumps({"settings": recorded, "generations": [], "best": None}))
    assert resumed_results(settings, tmp_path / RESULTS_FILE)["settings"]["gate_vs"] == []


def small_policy_file(path, widths, game="tiny_york"):
    """A freshly initialised policy file with hidden layers ``widths`` (both sides)."""
    from tiny_york_env.training.export import save_policy
    from tiny_york_env.training.train_ppo import make_config, make_model, make_vec_env
    config = make_config(net_arch=widths, out=str(path.parent), num_envs=1, batch_size=2, n_steps=2,
                         game=game)
    env = make_vec_env(config, config.stages[0], 0)
    save_policy(make_model(config, env), path, game=game, written_by="tests")
    env.close()
    return path


@pytest.mark.usefixtures("one_torch_thread")
def test_a_generation_keeps_the_start_networks_layers(tmp_path):
    """A small network made for search goes on with its own widths, not the shipped 256 x 256."""
    from tiny_york_env.agents.ppo_agent import read_policy_file
    start = small_policy_file(tmp_path / "small.zip", (16, 8))
    assert expert_iteration.network_widths(start) == (16, 8)
    settings = ExpertIterationSettings(out=str(tmp_path / "exit"), generations=1, games=2, simulations=4,
                                       levels=(5,), selfplay_every=0, epochs=1, eval_levels=(5,),
                                       eval_games=1, start=str(start))
    (row,) = run(settings, progress=False)["generations"]
    card, _ = read_policy_file(row["network"])
    assert card["network"]["pi"] == card["network"]["vf"] == [16, 8]


def test_a_network_with_two_different_sides_is_refused(tmp_path):
    from tiny_york_env.agents.ppo_agent import read_policy_file, write_policy_file
    card, state = read_policy_file(small_policy_file(tmp_path / "small.zip", (16, 8)))
    card["network"]["vf"] = [16]
    state = {name: tensor for name, tensor in state.items()
             if not name.startswith("mlp_extractor.value_net.2")}
    state["value_net.weight"] = state["value_net.weight"].new_zeros((1, 16))
    with open(tmp_path / "odd.zip", "wb") as handle:
        write_policy_file(handle, card, state)
    with pytest.raises(ValueError, match="same hidden layers; this one has pi=\\[16, 8\\], vf=\\[16\\]"):
        expert_iteration.network_widths(tmp_path / "odd.zip")


@pytest.mark.usefixtures("one_torch_thread")
def test_the_gate_may_play_the_networks_alone(tmp_path):
    """gate_player="alone": the paired games play each network without search."""
    settings = ExpertIterationSettings(out=str(tmp_path / "exit"), generations=1, games=2, simulations=2,
                                       levels=(1,), selfplay_every=0, epochs=1, eval_levels=(1,),
                                       eval_games=1, gate_vs=(1,), gate_delta1=0.5, gate_max_pairs=4,
                                       gate_player="alone")
    (row,) = run(settings, progress=False)["generations"]
    written = json.loads((tmp_path / "exit" / "gen-1" / "gate" / "compare.json").read_text())
    assert (written["settings"]["a"], written["settings"]["b"]) == ("alone:models/champion.zip",
                                                                    "alone:gen-1/policy.zip")
    assert set(written["settings"]["files"]) == {row["network"], str(CHAMPION_MODEL_PATH)}
    assert row["gate"]["pairs"] <= 4
    assert build_parser().parse_args(["--out", "x", "--gate-player", "alone"]).gate_player == "alone"


@pytest.mark.usefixtures("one_torch_thread")
def test_a_window_fits_each_generation_on_the_games_before_it_too(tmp_path):
    """window=2: generation 2 is fitted on its own games and generation 1's, replayed from their
    records and numbered apart; generation 1 on its own."""
    settings = ExpertIterationSettings(out=str(tmp_path / "exit"), generations=2, games=2, simulations=2,
                                       levels=(5,), selfplay_every=0, epochs=1, eval_levels=(5,),
                                       eval_games=1, window=2)
    first, second = run(settings, progress=False)["generations"]
    assert first["fitted_on_generations"] == [1] and first["fitted_decisions"] == first["decisions"]
    assert second["fitted_on_generations"] == [1, 2]
    assert second["fitted_decisions"] == first["decisions"] + second["decisions"]
    fitted = Demonstrations.load(tmp_path / "exit" / "gen-2" / DECISIONS_FILE)
    assert len(fitted) == second["fitted_decisions"] and set(np.unique(fitted.games)) == {0, 1, 2, 3}
    own = Demonstrations.load(tmp_path / "exit" / "gen-1" / DECISIONS_FILE)
    assert np.array_equal(fitted.observations[:len(own)], own.observations)  # replayed as played
    assert np.array_equal(fitted.actions[:len(own)], own.actions)
    with pytest.raises(ValueError, match="window must be"):
        ExpertIterationSettings(out=str(tmp_path / "x"), window=0)


@pytest.mark.usefixtures("one_torch_thread")
def test_the_improved_target_fits_every_searched_decision_of_the_window(tmp_path, monkeypatch):
    """policy_target="improved": the fit gets a distribution for every decision, the improved
    policy of its own search where the search ran (its own games' and, replayed from the records,
    the window's: each one's statistics choose the action recorded at that row), one-hot
    elsewhere; the rows say so."""
    from tiny_york_env.training.search_targets import improved_policy
    given = []
    make_targets = expert_iteration.policy_targets

    def recording_targets(details, actions, masks, temperature):
        targets = make_targets(details, actions, masks, temperature)
        given.append((list(details), actions, masks, targets))
        return targets

    monkeypatch.setattr(expert_iteration, "policy_targets", recording_targets)
    settings = ExpertIterationSettings(out=str(tmp_path / "exit"), generations=2, games=2, simulations=4,
                                       levels=(5,), selfplay_every=0, epochs=1, eval_levels=(5,),
                                       eval_games=1, window=2, skip_above=None,
                                       policy_target="improved", target_temperature=0.2)
    first, second = run(settings, progress=False)["generations"]
    assert first["policy_target"] == second["policy_target"] == "improved"
    assert first["target_temperature"] == 0.2
    assert first["fitted_searched_decisions"] == first["searched_decisions"] > 0
    assert second["fitted_searched_decisions"] == first["searched_decisions"] + second["searched_decisions"]
    assert [len(actions) for _, actions, _, _ in given] == [first["fitted_decisions"],
                                                            second["fitted_decisions"]]
    for details, actions, masks, targets in given:
        for row, detail in enumerate(details):
            legal = np.flatnonzero(masks[row])
            if detail is None:
                assert targets[row].tolist() == np.eye(masks.shape[1])[actions[row]].tolist()
                continue
            chosen = np.lexsort((-np.arange(legal.size), detail.prior, detail.means, detail.visits))[-1]
            assert legal[chosen] == actions[row]  # the search's own choice: the statistics are its row's
            assert targets[row, legal] == pytest.approx(improved_policy(detail, 0.2), rel=1e-5, abs=1e-7)
            assert (targets[row][~masks[row]] == 0).all()
    with pytest.raises(ValueError, match="policy_target must be one of"):
        ExpertIterationSettings(out=str(tmp_path / "x"), policy_target="visits")
    chosen = settings_from_args(build_parser().parse_args(
        ["--out", "x", "--policy-target", "improved", "--target-temperature", "0.3"]))
    assert (chosen.policy_target, chosen.target_temperature) == ("improved", 0.3)
