"""The documentation site builds without a warning, its examples run, and every published table is
what its result file renders."""

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tiny_york_env.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README_MAX_LINES = 250
# The pages whose examples a new user copies first: every ```python block runs as written.
RUN_PAGES = ("getting-started.md", "pettingzoo.md", "gymnasium.md", "openspiel.md", "rllib-ray.md",
             "tianshou-cleanrl.md", "agents.md", "saved-games.md", "web-api.md")
ISSUE_NUMBER = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
MARKDOWN_LINK = re.compile(r"\]\((?!https?://|#|mailto:)([^)#\s]+)(?:#[^)]*)?\)")


def _render_results():
    """The scripts/render_results.py module."""
    spec = importlib.util.spec_from_file_location("render_results", ROOT / "scripts" / "render_results.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _python_blocks(path: Path) -> list[str]:
    """The ```python blocks of a Markdown page, in order."""
    text = path.read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE)


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    """`make docs`'s build: a broken link, reference or docstring fails it."""
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                             str(DOCS), str(tmp_path / "html")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-4000:]
    assert (tmp_path / "html" / "api.html").is_file()
    assert "ChampionAgent" in (tmp_path / "html" / "api.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", RUN_PAGES)
def test_the_examples_of_a_page_run(page, tmp_path):
    """Each ```python block of the page runs as written, in a fresh namespace, from the repository root."""
    blocks = _python_blocks(DOCS / page)
    assert blocks, f"{page} shows no Python example"
    runner = tmp_path / "run_blocks.py"
    runner.write_text(
        "import sys\n"
        "for k, path in enumerate(sys.argv[1:]):\n"
        "    code = open(path).read()\n"
        "    try:\n"
        "        exec(compile(code, path, 'exec'), {'__name__': '__main__'})\n"
        "    except BaseException as error:\n"
        "        print(f'block {k} failed: {type(error).__name__}: {error}', file=sys.stderr)\n"
        "        raise\n")
    paths = []
    for k, code in enumerate(blocks):
        paths.append(tmp_path / f"block_{k}.py")
        paths[-1].write_text(code)
    result = subprocess.run([sys.executable, str(runner), *map(str, paths)], cwd=ROOT, capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, f"{page}:\n{result.stderr[-3000:]}"


def test_every_table_is_what_its_result_file_renders():
    """No table of figures is typed by hand: each marked table equals its rendering, and no
    placeholder awaits one."""
    assert _render_results().check_pages() == []


def test_the_figures_of_the_readme_and_the_game_pages_come_from_result_files():
    """The README's leaderboard and each game page's figures are marked tables."""
    for page in ("README.md", "docs/tiny-york.md", "docs/construction-yard.md", "docs/fifth-avenue.md",
                 "docs/agents.md", "docs/benchmarks.md", "docs/champion.md", "docs/model-cards.md"):
        assert "<!-- results docs/results/" in (ROOT / page).read_text(encoding="utf-8") or \
            "<!-- results agents/models/" in (ROOT / page).read_text(encoding="utf-8"), page


def test_a_result_file_that_changes_changes_the_rendered_table(tmp_path):
    """The check sees a figure that differs from its file."""
    render = _render_results()
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    rendered = render.render_page(page)
    assert rendered == page
    tampered = page.replace("| 2 agents |", "| 2 agents (typed by hand) |", 1)
    assert tampered != page and render.render_page(tampered) != tampered


def test_the_leaderboard_plot_is_drawn_from_its_result_files(tmp_path):
    """The README's plot is drawn from the same files as its table."""
    out = tmp_path / "leaderboard.png"
    _render_results().leaderboard_plot(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_readme_is_a_short_front_door():
    """About 250 lines: what it is, the two commands, one example per interface, the leaderboard, links."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    for interface in ("## PettingZoo", "## Gymnasium", "## OpenSpiel", "## RLlib", "## The engine"):
        assert interface in text


def test_the_readme_and_the_pages_speak_of_the_project_not_of_issues():
    """No issue numbers in the README or the docs pages."""
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        found = ISSUE_NUMBER.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.relative_to(ROOT)}: {found}"


def test_the_readmes_links_lead_to_files():
    """Every relative link of the README names a file of the repository."""
    for target in MARKDOWN_LINK.findall((ROOT / "README.md").read_text(encoding="utf-8")):
        assert (ROOT / target).exists(), target


def test_a_benchmark_writes_a_result_file_the_pages_render(tmp_path):
    """`benchmarks/engine.py --out` writes a table result file with its provenance; the table view
    renders it."""
    out = tmp_path / "engine.json"
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "engine.py"), "--game", "tiny_york",
                             "--games", "20", "--repeats", "1", "--out", str(out)], cwd=ROOT,
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {"command", "date", "machine", "version"} <= set(data["provenance"])
    table = _render_results().VIEWS["table"]([data], {})
    assert table.splitlines()[0] == "| game | setup | decisions/s | games/s | decisions/game |"
    assert len(table.splitlines()) == 2 + len(data["rows"]) >= 3


def test_a_training_curve_is_drawn_from_a_cards_evaluations(tmp_path):
    """A card that kept its stages' periodic evaluations gives a curve; one that kept none, no image."""
    render = _render_results()
    row = {"opponents": "Tom 5 (B4)", "win_rate": 0.2, "ci_low": 0.1, "ci_high": 0.3}
    card = {"model": "x.zip", "stages": [{"summary": {"timesteps": 100}, "evaluations": [
        row | {"timesteps": 50}, row | {"timesteps": 100, "win_rate": 0.4, "ci_high": 0.5}]},
        {"summary": {"timesteps": 100},
         "evaluations": [row | {"timesteps": 100, "win_rate": 0.6, "ci_high": 0.7}]}]}
    out = tmp_path / "curve.png"
    assert render.training_curve_plot(card, out) and out.read_bytes()[:4] == b"\x89PNG"
    no_curve = {"model": "y.zip", "stages": [{"summary": {}}]}
    assert not render.training_curve_plot(no_curve, tmp_path / "none.png")
    assert not (tmp_path / "none.png").exists()


def test_a_ladders_median_seconds_ignore_a_few_slow_games():
    """``seconds=median`` reads the games: one game a paused machine made slow moves the mean, not
    the median."""
    render = _render_results()
    cell = {"agent": "a", "level": 5, "opponents": "Tom 5 (B4)", "games": 3, "win_rate": 2 / 3,
            "ci_low": 0.2, "ci_high": 0.9, "mean_margin": 1.0, "seconds_per_game": 104.0}
    games = [{"cell": 0, "seconds": s} for s in (6.0, 8.0, 298.0)]
    ladder = {"kind": "ladder", "cells": [cell], "games": games}
    assert render.ladder_detail_table([ladder], {}).splitlines()[-1].endswith("| 104.0 |")
    median = render.ladder_detail_table([ladder], {"seconds": "median"}).splitlines()
    assert median[0].endswith("| median s / game |") and median[-1].endswith("| 8.0 |")
    with pytest.raises(ValueError, match="seconds=median reads the games"):
        render.ladder_detail_table([{"kind": "ladder", "cells": [cell]}], {"seconds": "median"})


def test_an_expert_iteration_run_renders_a_row_a_generation():
    """The generations view: each generation's games, the network alone on its ladder with the
    interval, the gate's outcome, and which network the next one trained from."""
    cell = {"games": 200, "wins": 50, "win_rate": 0.25, "ci_low": 0.195, "ci_high": 0.314}
    row = {"generation": 1, "games": 240, "decisions": 30000, "search_win_rate_vs_toms": 0.5,
           "changed_share": 0.3, "ladder": {"12": cell, "10": cell}, "next_generation": 0,
           "seconds": 600, "gate": {"accepted": False, "decision": "H0", "pairs": 120, "llr": -2.95}}
    improved = {"policy_target": "improved", "target_temperature": 0.02, "fitted_decisions": 40000,
                "fitted_searched_decisions": 10000}
    run = {"settings": {}, "generations": [row, row | improved | {
        "generation": 2, "next_generation": 2, "gate": {"accepted": True, "decision": "H1", "pairs": 80,
                                                        "llr": 2.95}}]}
    lines = _render_results().VIEWS["generations"]([run], {"rungs": "12"}).splitlines()
    assert lines[0].startswith("| generation | games | decisions | fitted on | policy target | search won |")
    assert "| alone vs Tom 12 | gate |" in lines[0] and "alone vs Tom 10" not in lines[0]
    assert lines[2].startswith("| 1 | 240 | 30,000 | 30,000 | search's choice | 50.0% | 30.0% | 25.0% [19.5, "
                               "31.4] | rejected")
    assert "| 40,000 | improved (T 0.02; 25.0% of decisions) | 50.0% |" in lines[3]
    assert lines[2].endswith("| start | 10 |") and lines[3].endswith("| gen-2 | 10 |")
    assert "accepted (**B better** (H1), 80 deals, LLR +2.95)" in lines[3]
    with pytest.raises(ValueError, match="generations.json"):
        _render_results().VIEWS["generations"]([{"kind": "table"}], {})


def test_the_vecenv_benchmark_writes_the_memory_bound_and_the_split_beside_its_figures(tmp_path):
    """`benchmarks/vector_env.py --out F --breakdown` writes F and F-breakdown with the memory-copy
    bandwidth in the machine and the bytes a game step moves in the note; ``provenance=yes`` shows
    them under the table."""
    out = tmp_path / "vecenv.json"
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "vector_env.py"), "--sizes", "8",
                             "--seconds", "0.2", "--repeats", "1", "--threads", "1", "--obs-dtype", "uint8",
                             "--breakdown", "--out", str(out)], cwd=ROOT / "benchmarks",
                            capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(out.read_text(encoding="utf-8"))
    split = json.loads((tmp_path / "vecenv-breakdown.json").read_text(encoding="utf-8"))
    assert split["columns"] == ["threads", "num_envs", "whole step", "kernel", "Python"]
    assert [row[:2] for row in split["rows"]] == [[1, 8]]
    game = get_game("tiny_york")
    record, obs, mask = game.state_dtype.itemsize, game.obs_size, game.num_actions  # uint8: a byte an entry
    moved = (f"a game step moves at least {record + obs + mask:,} bytes (record {record:,}, observation "
             f"{obs:,}, mask {mask:,})")
    for data in (figures, split):
        assert re.search(r"memory copy \d+\.\d GB/s$", data["provenance"]["machine"])
        assert moved in data["provenance"]["note"]
    table = _render_results().VIEWS["table"]([figures], {"provenance": "yes"})
    provenance = figures["provenance"]
    assert table.splitlines()[-1] == f"*{provenance['date']}, {provenance['machine']}:* {provenance['note']}."
    assert _render_results().VIEWS["table"]([figures], {}).count("\n") == 1 + len(figures["rows"])
