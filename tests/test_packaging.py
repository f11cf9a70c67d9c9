"""The wheel a user installs: nothing named ``agents`` or ``training`` at the top of site-packages,
the shipped model, ``py.typed`` and the LICENSE inside, and every import the README shows working
from a fresh venv in a folder that has its own ``agents/`` and ``training/``.

The wheel is built from a copy of the checkout (nothing is written into it) with the running
interpreter's setuptools when it is new enough (no network, about 2 s), else in pip's isolated
build environment. The fresh venv has no pip and no packages of its own: the wheel is installed
into it by the running pip (``--python``), and it sees the dependencies through a ``.pth`` line
naming the running environment's site-packages. A directory named in a ``.pth`` file is added to
``sys.path`` without reading the ``.pth`` files inside it, so this checkout's editable install
(a ``.pth`` file there) stays inactive; the test checks that too.
"""

import ast
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import tiny_york_env

ROOT = Path(__file__).resolve().parents[1]
DIST_NAME = "tiny-york-env"
PACKAGE = "tiny_york_env"
SOURCE_PACKAGES = {PACKAGE: PACKAGE, "agents": f"{PACKAGE}/agents", "training": f"{PACKAGE}/training"}
SHIPPED_MODEL = "agents/models/ppo.zip"
DECOYS = ("agents", "training")  # a user's own folders, which the library must not shadow or use
COPY_IGNORE = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build", "dist",
                                     "runs", "results", ".pytest_cache", ".ruff_cache", "*.pyc")
MIN_SETUPTOOLS = 77  # license = "MIT" (a PEP 639 expression) and license-files
BUILD_TIMEOUT_S = 300
RUN_TIMEOUT_S = 300
# A child interpreter sees no PYTHONPATH (which could name this checkout) and no user site.
DROPPED_ENV = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH", "PYTHONUSERBASE")


def setuptools_major():
    """The major version of the running environment's setuptools, 0 when it has none."""
    try:
        return int(importlib.metadata.version("setuptools").split(".")[0])
    except importlib.metadata.PackageNotFoundError:
        return 0


def child_env():
    """The environment of a child interpreter: no PYTHONPATH, no user site-packages."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    env["PYTHONNOUSERSITE"] = "1"
    return env

WEB_FILES = ("index.html", "board.js", "board.css")  # the browser board's page (package data)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel built from a copy of this checkout."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "src"
    shutil.copytree(ROOT, source, ignore=COPY_IGNORE)
    isolation = ["--no-build-isolation"] if setuptools_major() >= MIN_SETUPTOOLS else []
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "--quiet",
                          str(source), "-w", str(base / "dist")], capture_output=True, text=True,
                         timeout=BUILD_TIMEOUT_S, env=child_env())
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    wheels = list((base / "dist").glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def dist_info(names):
    """The wheel's ``.dist-info`` folder name."""
    folders = {name.split("/")[0] for name in names if name.split("/")[0].endswith(".dist-info")}
    assert len(folders) == 1, folders
    return folders.pop()


def test_wheel_holds_one_package_and_everything_it_ships(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = dist_info(names)
        assert {name.split("/")[0] for name in names} == {PACKAGE, info}  # no agents/, training/
        for required in (f"{PACKAGE}/py.typed", f"{PACKAGE}/{SHIPPED_MODEL}",
                         f"{PACKAGE}/{SHIPPED_MODEL[:-len('.zip')]}.json", f"{info}/licenses/LICENSE",
                         *(f"{PACKAGE}/web/static/{name}" for name in WEB_FILES)):
            assert required in names, f"{required} is not in the wheel"
        shipped = archive.read(f"{PACKAGE}/{SHIPPED_MODEL}")
        assert shipped == (ROOT / SHIPPED_MODEL).read_bytes(), "the shipped model differs (LFS pointer?)"
        assert archive.read(f"{info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
        metadata = archive.read(f"{info}/METADATA").decode()
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
    assert re.search(r"^License-Expression: MIT$", metadata, re.MULTILINE)
    version = re.search(r"^Version: (.+)$", metadata, re.MULTILINE).group(1)
    assert version == tiny_york_env.__version__, "pyproject's version and tiny_york_env.__version__ differ"
    assert re.search(r"^tiny-york = tiny_york_env\.cli:main$", entry_points, re.MULTILINE)
    # every module of the repository's packages is installed (a subpackage missing from
    # pyproject's package list would be left out silently)
    for folder, installed in SOURCE_PACKAGES.items():
        for module in (ROOT / folder).rglob("*.py"):
            relative = module.relative_to(ROOT / folder).as_posix()
            assert f"{installed}/{relative}" in names, f"{folder}/{relative} is not in the wheel"


def readme_imports():
    """Every import statement in the README's Python examples, as source lines."""
    text = (ROOT / "README.md").read_text()
    statements = []
    for block in re.findall(r"```python\n(.*?)```", text, re.DOTALL):
        try:
            nodes = [n for n in ast.walk(ast.parse(block)) if isinstance(n, (ast.Import, ast.ImportFrom))]
            statements += [ast.unparse(node) for node in nodes]
        except SyntaxError:  # an illustrative fragment: its one-line imports still count
            statements += [line.strip() for line in block.splitlines()
                           if re.match(r"\s*(import \w|from [\w.]+ import \w)", line) and "(" not in line]
    return list(dict.fromkeys(statements))


def readme_script_modules():
    """The package's modules the README runs with ``python -m``."""
    text = (ROOT / "README.md").read_text()
    return sorted(set(re.findall(rf"python -m ({PACKAGE}[\w.]*)", text)))


CHECK_SCRIPT = '''
import importlib.metadata, importlib.util, json, sys
site, statements, scripts, version = json.loads(sys.argv[1])
for statement in statements:
    exec(statement, {})
assert not [m for m in sys.modules if m.startswith("__editable__")], "the editable install is active"
outside = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())
           if name.split(".")[0] == "tiny_york_env"
           and not str(getattr(module, "__file__", "")).startswith(site)}
assert not outside, f"modules from outside the fresh venv: {outside}"
for name in scripts:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin.startswith(site), (name, spec)
import agents, training
assert agents.DECOY and training.DECOY, "the user's own agents/ and training/ are shadowed"
assert importlib.metadata.version("tiny-york-env") == version
print("IMPORTS OK", len(statements), len(scripts))
'''


def test_wheel_installs_into_a_fresh_venv_and_the_readme_imports_work(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=RUN_TIMEOUT_S)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True, env=child_env()).stdout.strip()
    # the dependencies (numpy, numba, torch, ...) from the running environment, its .pth files unread
    (Path(site) / "_tiny_york_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                              "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True,
                             timeout=RUN_TIMEOUT_S, env=child_env())
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    assert not [p for p in Path(site).iterdir() if p.name in DECOYS], "agents/ or training/ installed"

    project = tmp_path / "user_project"  # a user's project with folders of the same names
    for name in DECOYS:
        (project / name).mkdir(parents=True)
        (project / name / "__init__.py").write_text("DECOY = True\n")
    (project / "check.py").write_text(CHECK_SCRIPT)
    statements, scripts = readme_imports(), readme_script_modules()
    assert any(PACKAGE in s for s in statements) and scripts, "no imports or scripts found in README.md"
    argument = json.dumps([site, statements, scripts, tiny_york_env.__version__])
    run = subprocess.run([str(python), "check.py", argument], cwd=project, capture_output=True,
                         text=True, timeout=RUN_TIMEOUT_S, env=child_env())
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert f"IMPORTS OK {len(statements)} {len(scripts)}" in run.stdout

    command = subprocess.run([str(venv / "bin" / "tiny-york"), "--version"], cwd=project,
                             capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=child_env())
    assert command.returncode == 0, command.stderr[-3000:]
    assert command.stdout == f"tiny-york {tiny_york_env.__version__}\n"
