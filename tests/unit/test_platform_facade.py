"""rules/platform.py gives each name it lists, whatever was imported before it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rules import platform

ROOT = Path(__file__).resolve().parents[2]
NAMES = [*platform.MODULES_ONCE_LOADED, *platform._SOURCES]
# In a fresh interpreter, once Django is set up: the names the games' loading asked are
# forgotten, and the platform's modules a game uses whole are taken off their package (as
# when nothing imported them yet); then every name is asked.
ASK_EACH = """
import sys
import django
django.setup()
import rules.platform as p
for name in {names!r}:
    vars(p).pop(name, None)
for path in {modules!r}:
    package, _, module = path.rpartition(".")
    delattr(sys.modules[package], module)
print([type(getattr(p, name)).__name__ for name in {names!r}])
"""


def test_each_name_comes_whatever_was_imported_before():
    code = ASK_EACH.format(modules=list(platform.MODULES_ONCE_LOADED.values()), names=NAMES)
    env = {"DJANGO_SETTINGS_MODULE": "tests.settings", "DJANGO_DEBUG": "1", "PATH": ""}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert run.returncode == 0, run.stderr


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        platform.nothing_here  # noqa: B018
