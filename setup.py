"""The package list, found (pyproject.toml holds everything else): ``tiny_york_env`` and its
subpackages (every game a folder of ``tiny_york_env/games``), and the repository's ``agents/`` and
``training/`` folders installed as ``tiny_york_env.agents`` and ``tiny_york_env.training`` with
their subfolders, so nothing named ``agents`` or ``training`` lands at the top of site-packages."""

from setuptools import find_namespace_packages, find_packages, setup

PACKAGE = "tiny_york_env"
ROOT_LAYERS = ("agents", "training")  # folders at the repository's root, subpackages when installed
NOT_PACKAGES = ["__pycache__", "*.__pycache__"]

packages = find_packages(include=[PACKAGE, f"{PACKAGE}.*"])
package_dir = {}
for folder in ROOT_LAYERS:
    name = f"{PACKAGE}.{folder}"
    package_dir[name] = folder
    packages += [name] + [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=NOT_PACKAGES)]

setup(packages=packages, package_dir=package_dir)
