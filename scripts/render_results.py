"""Render every published figure from its result file into the pages and the README.

A page marks each generated table with a pair of HTML comments (invisible on GitHub and in the
docs site)::

    <!-- results docs/results/tiny-york-leaderboard.json ladder agents=random,greedy -->
    | ... the table, written by this script ... |
    <!-- end results -->

The opening marker names one or more result files (comma-separated, relative to the repository
root), a view (how to draw the table: ``VIEWS`` below) and the view's options (``key=value``).
``python scripts/render_results.py`` rewrites the tables of README.md and docs/*.md and redraws
the plots (``PLOTS``); ``--check`` rewrites nothing and exits 1 naming every table that differs
from what its result file renders (a test runs it). Result files are the JSON that the tools write
(``tiny-york eval``'s ladder and match files, ``benchmarks/*.py --out``) or, for a figure whose
run kept no file of its own, a ``"kind": "table"`` file with its columns, rows and provenance.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the package of this checkout, also when run without installing it
PAGES = ("README.md", "docs/*.md")
MARKER = re.compile(r"(?P<open><!-- results (?P<spec>[^\n]*?) -->\n)(?P<body>.*?)"
                    r"(?P<close><!-- end results -->)", re.DOTALL)
PLACEHOLDER = re.compile(r"<!-- figures: [^>]* -->")
PERCENT = 100.0

Options = dict[str, str]
View = Callable[[Sequence[dict[str, Any]], Options], str]
VIEWS: dict[str, View] = {}


def view(name: str) -> Callable[[View], View]:
    """Register a view (a function of the loaded result files and the marker's options) by name."""
    def register(function: View) -> View:
        VIEWS[name] = function
        return function
    return register


# ---------------------------------------------------------------- small formatters

def markdown_table(header: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(str(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def percent(rate: float) -> str:
    """0.7654 -> '76.5%'."""
    return f"{rate * PERCENT:.1f}%"


def rate_with_interval(cell: dict[str, Any], bold: bool = False) -> str:
    """'76.5% [72.9, 80.3]': the win rate and its 95% Wilson interval, in percent."""
    rate = percent(cell["win_rate"])
    if bold:
        rate = f"**{rate}**"
    return f"{rate} [{cell['ci_low'] * PERCENT:.1f}, {cell['ci_high'] * PERCENT:.1f}]"


def thousands(value: float) -> str:
    """12345.6 -> '12,346'."""
    return f"{value:,.0f}"


def option_list(options: Options, key: str) -> list[str] | None:
    """A comma-separated option as a list, or None when the marker does not give it."""
    return options[key].split(",") if key in options else None


# ---------------------------------------------------------------- ladder and match views

def ladder_cells(files: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cells of ladder result files (``tiny-york eval --agent``'s ladder.json, or a ``cells`` file)."""
    cells = []
    for data in files:
        if data.get("kind") not in ("ladder", "cells"):
            raise ValueError(f"a ladder view reads ladder or cells files, not {data.get('kind')!r}")
        cells += data["cells"]
    return cells


def ladder_agents(cells: Sequence[dict[str, Any]], options: Options) -> list[str]:
    """The agents to show, in the marker's order (``agents=``) or in the files' order."""
    return option_list(options, "agents") or list(dict.fromkeys(c["agent"] for c in cells))


def ladder_rungs(cells: Sequence[dict[str, Any]], options: Options) -> list[str]:
    """The rungs (Tom levels, bots) to show, as strings, in the marker's or the files' order."""
    chosen = option_list(options, "levels")
    present = list(dict.fromkeys(str(c["level"]) for c in cells))
    if chosen is None:
        return sorted(present, key=lambda r: (not r.isdigit(), int(r) if r.isdigit() else 0, r))
    return chosen


def cell_of(cells: Sequence[dict[str, Any]], agent: str, rung: str) -> dict[str, Any] | None:
    """The cell of ``agent`` at ``rung``, or None where it has none."""
    found = [c for c in cells if c["agent"] == agent and str(c["level"]) == rung]
    if len(found) > 1:
        raise ValueError(f"two cells of {agent} at {rung}: give each agent and rung one file")
    return found[0] if found else None


def rung_label(cells: Sequence[dict[str, Any]], rung: str) -> str:
    """How the files name a rung ('Tom 5 (B4)', 'greedy')."""
    return next(c["opponents"] for c in cells if str(c["level"]) == rung)


@view("ladder")
def ladder_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """Rungs by agents: each agent's win rate with its interval; then mean score and seconds a game."""
    cells = ladder_cells(files)
    agents, rungs = ladder_agents(cells, options), ladder_rungs(cells, options)
    header = [options.get("corner", "opponent"), *(f"`{a}`" for a in agents)]
    rows = []
    for rung in rungs:
        row = [rung_label(cells, rung)]
        for agent in agents:
            cell = cell_of(cells, agent, rung)
            row.append(rate_with_interval(cell) if cell else "-")
        rows.append(row)
    for extra in option_list(options, "extra") or []:
        key, label, form = {"score": ("mean_score", "mean score, all rungs", "{:.1f}"),
                             "margin": ("mean_margin", "mean margin, all rungs", "{:+.1f}"),
                             "seconds": ("seconds_per_game", "seconds per game", "{:.3f}")}[extra]
        row = [label]
        for agent in agents:
            mine = [c for c in cells if c["agent"] == agent and str(c["level"]) in rungs]
            games = sum(c["games"] for c in mine)
            known = games and all(c[key] is not None for c in mine)
            row.append(form.format(sum(c[key] * c["games"] for c in mine) / games) if known else "-")
        rows.append(row)
    return markdown_table(header, rows)


def median_seconds(files: Sequence[dict[str, Any]]) -> dict[tuple[str, str], float]:
    """The median seconds a game of each (agent, rung) cell, from the files' game records (a
    median is unmoved by the few games a paused or busy machine made slow)."""
    medians = {}
    for data in files:
        if "games" not in data:
            raise ValueError("seconds=median reads the games of ladder files kept with their games")
        for index, cell in enumerate(data["cells"]):
            seconds = [g["seconds"] for g in data["games"] if g["cell"] == index]
            medians[cell["agent"], str(cell["level"])] = statistics.median(seconds)
    return medians


@view("ladder-detail")
def ladder_detail_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """One agent's ladder, a row a rung: win rate [interval], games, mean margin, seconds a game
    (the mean, or with ``seconds=median`` the median of the files' games)."""
    cells = ladder_cells(files)
    agent = options.get("agent") or ladder_agents(cells, options)[0]
    medians = median_seconds(files) if options.get("seconds") == "median" else None
    rows = []
    for rung in ladder_rungs([c for c in cells if c["agent"] == agent], options):
        cell = cell_of(cells, agent, rung)
        seconds = cell["seconds_per_game"] if medians is None else medians[agent, rung]
        rows.append([cell["opponents"], rate_with_interval(cell, bold=True), thousands(cell["games"]),
                     f"{cell['mean_margin']:+.1f}", "-" if seconds is None else f"{seconds:.1f}"])
    return markdown_table([options.get("corner", "opponent"), f"`{agent}` win rate [95% CI]", "games",
                           "mean margin", "s / game" if medians is None else "median s / game"], rows)


PART = re.compile(r"--levels (?P<levels>\S+) --games (?P<games>\d+)(?: --first-game (?P<first>\d+))?"
                  r".*?\((?P<note>[^)]*)\)\s*$")


def level_list(text: str) -> list[int]:
    """'1-9,11' -> [1, ..., 9, 11]."""
    levels: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        levels += list(range(int(low), int(high or low) + 1))
    return levels


@view("ladder-parts")
def ladder_parts_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """A joined ladder's parts (its ``settings.merged_from`` commands): games, wins and time of each."""
    (data,) = files
    level_of_cell = [cell["level"] for cell in data["cells"]]
    rows = []
    for command in data["settings"]["merged_from"]:
        match = PART.search(command)
        if match is None:
            raise ValueError(f"cannot read the part {command!r}")
        first = int(match["first"] or 0)
        last = first + int(match["games"]) - 1
        for level in level_list(match["levels"]):
            games = [g for g in data["games"] if level_of_cell[g["cell"]] == level
                     and first <= g["index"] <= last]
            won = sum(g["winner"] == 0 for g in games)
            seconds = sum(g["seconds"] for g in games) / len(games)
            rows.append((level, first, [f"Tom {level}", f"{first}-{last}", won, f"{seconds:.1f}",
                                        match["note"]]))
    rows.sort(key=lambda item: item[:2])
    return markdown_table(["Tom level", "games", "won", "s / game", "played"], [r[2] for r in rows])


def match_setup(settings: dict[str, Any]) -> str:
    """How a match file's settings name its table: '3 players: ppo, greedy, greedy' or
    '3 players: greedy + greedy bot, greedy bot'."""
    agents, bots = settings.get("agents", []), settings.get("bots", [])
    bots_text = " + " + ", ".join(f"{bot} bot" for bot in bots) if bots else ""
    return f"{len(agents) + len(bots)} players: {', '.join(agents)}{bots_text}"


@view("matches")
def matches_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """Match cells (``tiny-york eval --vs``): each agent's games, win rate [interval], mean score and
    margin; ``first=1`` keeps only each match's first agent."""
    rows = []
    for data in files:
        if data.get("kind") != "match":
            raise ValueError(f"the matches view reads match files, not {data.get('kind')!r}")
        cells = data["cells"][:1] if options.get("first") == "1" else data["cells"]
        for cell in cells:
            rows.append([match_setup(data["settings"]), f"`{cell['agent']}`", cell["opponents"],
                         thousands(cell["games"]), rate_with_interval(cell), f"{cell['mean_score']:.1f}",
                         f"{cell['mean_margin']:+.1f}"])
    return markdown_table(["match", "agent", "against", "games", "win rate [95% CI]", "mean score",
                           "mean margin"], rows)


@view("tournament")
def tournament_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """A round robin's standings (``tiny-york tournament``): OpenSkill rating, games, wins, mean score."""
    (data,) = files
    if "standings" not in data:
        raise ValueError("the tournament view reads the tournament.json of tiny-york tournament")
    rows = [[f"`{s['agent']}`", f"{s['rating']:.1f}", f"{s['mu']:.1f} ± {s['sigma']:.1f}", s["games"],
             f"{s['wins']} ({percent(s['win_rate'])})", f"{s['mean_score']:.1f}"] for s in data["standings"]]
    header = ["agent", "rating (mu - 3 sigma)", "mu ± sigma", "games", "wins", "mean score"]
    return markdown_table(header, rows)


COMPARE_DECISIONS = {"H1": "**B better** (H1)", "H0": "B not better (H0)",
                     "inconclusive": "inconclusive (cap)"}


def compare_opponents(settings: dict[str, Any]) -> str:
    """A comparison's opponents as its game names them: 'Tom 12 (C5)', 'greedy bot', 'ppo'."""
    from tiny_york_env.registry import get_game
    game = get_game(settings["game"])
    named = [game.automatic_label(a) for a in settings["automatic"]]
    return ", ".join(named + [f"`{o}`" for o in settings["opponents"]])


@view("compare")
def compare_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """Paired sequential tests (``tiny-york compare``), a row a test: the hypotheses, the decision,
    the deals it took, each agent's wins, the log-likelihood ratio and Wald's bounds."""
    from tiny_york_env.registry import get_game
    rows = []
    for data in files:
        if data.get("kind") != "compare":
            raise ValueError(f"the compare view reads compare.json files, not {data.get('kind')!r}")
        s, r = data["settings"], data["result"]
        rows.append([get_game(s["game"]).title, compare_opponents(s), f"`{s['a']}`", f"`{s['b']}`",
                     f"{s['delta0']:+.2f} / {s['delta1']:+.2f}", COMPARE_DECISIONS[r["decision"]],
                     thousands(r["pairs"]), f"{r['a_wins']:g}", f"{r['b_wins']:g}",
                     f"{r['mean_difference']:+.3f}", f"{r['llr']:+.2f} [{r['lower']:.2f}, {r['upper']:.2f}]",
                     f"{r['a_seconds_per_game']:.2f} / {r['b_seconds_per_game']:.2f}"])
    header = ["game", "against", "A", "B", "H0 / H1: B - A", "decision", "deals", "A won", "B won",
              "B - A a deal", "LLR [bounds]", "s / game A / B"]
    return markdown_table(header, rows)


GATE_OUTCOMES = {True: "accepted", False: "rejected"}


def policy_target_words(row: dict[str, Any]) -> str:
    """A generation's policy target: the search's choice (runs from before the choice: it), or the
    improved policy at its temperature with the share of fitted decisions that had statistics."""
    if row.get("policy_target", "chosen") == "chosen":
        return "search's choice"
    share = row["fitted_searched_decisions"] / row["fitted_decisions"]
    return f"improved (T {row['target_temperature']:g}; {percent(share)} of decisions)"


@view("generations")
def generations_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """An expert-iteration run's ``generations.json``, a row a generation: its searched games and
    decisions, the decisions it was fitted on (its window's) and to what, the search's win rate in them, how
    often it overruled the prior, the network's ladder alone (a column a rung, with 95% intervals),
    the gate's test (decision, deals, LLR) and which network the next generation trained from;
    ``rungs=A,B`` picks the ladder's columns."""
    rows, rungs = [], option_list(options, "rungs")
    for data in files:
        if not isinstance(data.get("generations"), list) or "settings" not in data:
            raise ValueError("the generations view reads an expert-iteration run's generations.json")
        for row in data["generations"]:
            ladder = row["ladder"]
            shown = rungs or sorted(ladder, key=lambda rung: (len(rung), rung))
            gate = row.get("gate")
            verdict = (f"{GATE_OUTCOMES[gate['accepted']]} ({COMPARE_DECISIONS[gate['decision']]}, "
                       f"{thousands(gate['pairs'])} deals, LLR {gate['llr']:+.2f})" if gate else "no gate")
            rows.append([row["generation"], thousands(row["games"]), thousands(row["decisions"]),
                         thousands(row.get("fitted_decisions", row["decisions"])),
                         policy_target_words(row),
                         percent(row["search_win_rate_vs_toms"]), percent(row["changed_share"]),
                         *(rate_with_interval(ladder[rung]) for rung in shown), verdict,
                         f"gen-{row['next_generation']}" if row["next_generation"] else "start",
                         f"{row['seconds'] / 60:.0f}"])
        alone = [f"alone vs {'Tom ' * rung.isdigit()}{rung}" for rung in shown]
        header = ["generation", "games", "decisions", "fitted on", "policy target", "search won",
                  "search overruled the prior", *alone, "gate", "next trains from", "minutes"]
    return markdown_table(header, rows)


# ---------------------------------------------------------------- generic tables

@view("table")
def plain_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """A ``kind: table`` file as it is: its columns and rows (several files: their rows in order);
    ``select=VALUE`` keeps the rows whose first cell is VALUE and drops that column;
    ``provenance=yes`` adds a line under the table: each file's day, machine and note."""
    header = None
    rows: list[list[Any]] = []
    for data in files:
        if data.get("kind") != "table":
            raise ValueError(f"the table view reads table files, not {data.get('kind')!r}")
        if header is not None and data["columns"] != header:
            raise ValueError("the files of one table must have the same columns")
        header = data["columns"]
        rows += data["rows"]
    if "select" in options:  # the rows whose first cell is the value ('+' for a space), without that column
        wanted = options["select"].replace("+", " ")
        header, rows = header[1:], [row[1:] for row in rows if row[0] == wanted]
        if not rows:
            raise ValueError(f"no row of the table starts with {wanted!r}")
    table = markdown_table(header, rows)
    if options.get("provenance") == "yes":
        table += "\n\n" + " ".join(provenance_line(data["provenance"]) for data in files)
    return table


def provenance_line(provenance: dict[str, Any]) -> str:
    """A result file's provenance in one line: ``*day, machine:* note``."""
    return f"*{provenance['date']}, {provenance['machine']}:* {provenance['note']}."


@view("headline")
def headline_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """The README's leaderboard: a row an agent, its win rate at a few rungs."""
    cells = ladder_cells(files)
    agents, rungs = ladder_agents(cells, options), ladder_rungs(cells, options)
    rows = [[f"`{agent}`", *(percent(c["win_rate"]) if (c := cell_of(cells, agent, rung)) else "-"
                             for rung in rungs)] for agent in agents]
    return markdown_table(["agent", *(rung_label(cells, rung) for rung in rungs)], rows)


def ppo_steps(card: dict[str, Any]) -> int:
    """The PPO steps of a card: those of its last stage with a training summary (a policy fitted to
    searched decisions after PPO keeps the earlier stages), else the card's own count."""
    summaries = [stage["summary"]["timesteps"] for stage in card.get("stages", []) if "summary" in stage]
    return summaries[-1] if summaries else card["timesteps"]


def search_decisions(card: dict[str, Any]) -> str:
    """The searched games' decisions a card's policy was fitted to (its expert-iteration stages),
    or a dash."""
    counts = [row["decisions"] for stage in card.get("stages", [])
              for row in stage.get("generations", {}).get("generations", [])]
    return thousands(sum(counts)) if counts else "-"


@view("model-cards")
def model_cards_table(files: Sequence[dict[str, Any]], options: Options) -> str:
    """The shipped policy files' cards (``agents/models/*.json``): what each file holds."""
    rows = []
    for card in files:
        if card.get("format") != "tiny-york-policy":
            raise ValueError("the model-cards view reads the cards of agents/models")
        network = card["network"]
        rows.append([f"`{card['model']}`", card.get("game", "tiny_york"), card["algorithm"],
                     f"{'-'.join(map(str, network['pi']))} ({network['activation']})",
                     card["observation_size"], card["num_actions"], card["weights_dtype"],
                     thousands(ppo_steps(card)), search_decisions(card),
                     f"{card['bytes'] / 1e6:.1f} MB", f"`{card['sha256'][:12]}`"])
    return markdown_table(["file", "game", "algorithm", "policy network", "observation", "actions",
                           "weights", "PPO steps", "fitted to searched decisions", "size", "sha256"], rows)


# ---------------------------------------------------------------- plots

def leaderboard_plot(out: Path) -> None:
    """The Tiny York ladder of the baselines, the shipped agent and the champion, with intervals."""
    from tiny_york_env.arena.records import CellResult, EvalResults
    from tiny_york_env.arena.result_files import plot_ladder
    files = [load_result(name) for name in LEADERBOARD_PLOT_FILES]
    cells = [CellResult(**c) for c in ladder_cells(files)]
    plot_ladder(EvalResults("ladder", cells, settings={"game": "tiny_york"}), out)


def training_curve_plot(card: dict[str, Any], out: Path) -> bool:
    """A shipped policy's training curve from its card (``agents/models/NAME.json``): the win rate
    of each periodic evaluation (``train_ppo``'s ``eval.csv``, kept by ``training.export --stage``)
    by training steps, one line a rung, with the intervals; False where the card kept none."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from tiny_york_env.arena.result_files import PLOT_CAPSIZE, PLOT_DPI, PLOT_SIZE_INCHES
    offset, lines = 0, {}
    for stage in card.get("stages", []):
        for row in stage.get("evaluations", []):
            lines.setdefault(row["opponents"], []).append(row | {"step": offset + row["timesteps"]})
        offset += stage.get("summary", {}).get("timesteps", 0)
    if not lines:
        return False
    figure = Figure(figsize=PLOT_SIZE_INCHES)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for label, rows in lines.items():
        steps = [r["step"] for r in rows]
        rates = [r["win_rate"] for r in rows]
        errors = [[max(r["win_rate"] - r["ci_low"], 0) for r in rows],
                  [max(r["ci_high"] - r["win_rate"], 0) for r in rows]]
        axes.errorbar(steps, rates, yerr=errors, marker="o", capsize=PLOT_CAPSIZE, label=label)
    axes.set_xlabel("training steps (decisions), all stages")
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend()
    axes.set_title(f"{card['model']}: periodic evaluations during training")
    figure.savefig(out, format="png", dpi=PLOT_DPI)
    return True


def training_curve_plots() -> list[str]:
    """Draw the training curve of every shipped card that kept its evaluations; the images written."""
    drawn = []
    for path in sorted((ROOT / "agents" / "models").glob("*.json")):
        out = ROOT / "docs" / "images" / f"training-{path.stem}.png"
        if training_curve_plot(json.loads(path.read_text(encoding="utf-8")), out):
            drawn.append(str(out.relative_to(ROOT)))
    return drawn


LEADERBOARD_PLOT_FILES = ("docs/results/tiny-york-leaderboard.json",
                          "docs/results/tiny-york-leaderboard-search32.json",
                          "docs/results/champion-ladder-seed1.json",
                          "docs/results/champion-tom10-tom12.json",
                          "docs/results/champion-tiny-york-tom1-6.json",
                          "docs/results/champion-tiny-york-tom7-11.json",
                          "docs/results/champion-tiny-york-tom10-tom12.json")
PLOTS: dict[str, Callable[[Path], None]] = {"docs/images/leaderboard.png": leaderboard_plot}


# ---------------------------------------------------------------- the pages

def load_result(name: str) -> dict[str, Any]:
    """A result file by its path relative to the repository root."""
    path = ROOT / name
    if not path.is_file():
        raise ValueError(f"result file {name} does not exist")
    return json.loads(path.read_text(encoding="utf-8"))


def render_marker(spec: str) -> str:
    """The table a marker's spec ('FILES VIEW key=value ...') renders."""
    words = spec.split()
    if len(words) < 2:
        raise ValueError(f"a results marker needs FILES and VIEW: {spec!r}")
    names, view_name, *pairs = words
    if view_name not in VIEWS:
        raise ValueError(f"unknown view {view_name!r}; known: {', '.join(sorted(VIEWS))}")
    options = dict(pair.split("=", 1) for pair in pairs)
    return VIEWS[view_name]([load_result(name) for name in names.split(",")], options)


def render_page(text: str) -> str:
    """The page with every marked table rendered from its result files."""
    def replace(match: re.Match[str]) -> str:
        return f"{match['open']}{render_marker(match['spec'])}\n{match['close']}"
    return MARKER.sub(replace, text)


def pages(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown page of the docs site."""
    return sorted(path for pattern in PAGES for path in root.glob(pattern))


def check_pages(root: Path = ROOT) -> list[str]:
    """What differs: one line per page whose tables are not what their result files render, or
    that still holds a ``<!-- figures: ... -->`` placeholder."""
    problems = []
    for path in pages(root):
        text = path.read_text(encoding="utf-8")
        try:
            rendered = render_page(text)
        except (ValueError, KeyError) as error:
            problems.append(f"{path.relative_to(root)}: {type(error).__name__}: {error}")
            continue
        if text != rendered:
            problems.append(f"{path.relative_to(root)}: a table differs from its result file "
                            "(python scripts/render_results.py rewrites it)")
        if PLACEHOLDER.search(text):
            problems.append(f"{path.relative_to(root)}: a figures placeholder awaits its table")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the tables and plots, or with ``--check`` report what differs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a table differs")
    parser.add_argument("--no-plots", action="store_true", help="leave the plots as they are")
    args = parser.parse_args(argv)
    if args.check:
        problems = check_pages()
        print("\n".join(problems) or "every table matches its result file")
        return 1 if problems else 0
    for path in pages():
        text = path.read_text(encoding="utf-8")
        try:
            rendered = render_page(text)
        except (ValueError, KeyError) as error:
            raise SystemExit(f"{path.relative_to(ROOT)}: {type(error).__name__}: {error}") from None
        if rendered != text:
            path.write_text(rendered, encoding="utf-8")
            print(f"rewrote {path.relative_to(ROOT)}")
    if not args.no_plots:
        for name, draw in PLOTS.items():
            draw(ROOT / name)
            print(f"drew {name}")
        for name in training_curve_plots():
            print(f"drew {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
