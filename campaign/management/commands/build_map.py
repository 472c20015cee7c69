"""manage.py build_map SCENARIO | --all [--check]"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from campaign.maps.build import MapError, build_map, dumps
from campaign.maps.stored import map_file
from campaign.scenarios import ScenarioError, available_scenarios, load_scenario_file


class Command(BaseCommand):
    help = (
        "Build a scenario's map (each area's shape and label place, from Natural Earth's "
        "coastline) into <scenario>.map.json beside its JSON file. Needs shapely (the "
        "'map' extra)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "scenario", nargs="?", help="A scenario key (eia-1805) or a scenario .json file."
        )
        parser.add_argument(
            "--all", dest="every", action="store_true", help="Build every shipped scenario."
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help=(
                "Build in memory only, and fail if the stored map differs from the new build "
                "(with --all: every stored map)."
            ),
        )

    def handle(self, *args, scenario, every, check, **options):
        if bool(scenario) == every:
            raise CommandError("Give one scenario (a key or a .json file), or --all.")
        if every:
            paths = [info.path for info in available_scenarios()]
            if check:  # a scenario that was never built (a test ruleset's) is not stale
                paths = [path for path in paths if map_file(path).is_file()]
        else:
            paths = [_path_of(scenario)]
        failures = [failure for path in paths if (failure := self._build(path, check))]
        if failures:
            raise CommandError("\n".join(failures))

    def _build(self, path: Path, check: bool) -> str | None:
        """Build one scenario's map; what went wrong, or None."""
        try:
            text = dumps(build_map(path.stem, load_scenario_file(path)))
        except ScenarioError as exc:
            return str(exc)
        except MapError as exc:
            return f"{path.name}: the map cannot be built:\n" + "\n".join(
                f"  - {problem}" for problem in exc.problems
            )
        target = map_file(path)
        if check:
            stored = target.read_text(encoding="utf-8") if target.is_file() else None
            if stored != text:
                state = "differs from a new build" if stored else "is missing"
                return f"{target}: {state} (run manage.py build_map {path.stem})."
            self.stdout.write(f"{target.name} is up to date.")
            return None
        _write_atomically(target, text)
        self.stdout.write(f"Wrote {target} ({len(text.encode()) // 1024} KB).")
        return None


def _path_of(scenario: str) -> Path:
    """The scenario file named by a key or a path."""
    if scenario.endswith(".json"):
        path = Path(scenario)
        if not path.is_file():
            raise CommandError(f"No file {scenario}.")
        return path
    paths = {info.key: info.path for info in available_scenarios()}
    if scenario not in paths:
        raise CommandError(f"No scenario {scenario!r}; shipped: {', '.join(paths)}.")
    return paths[scenario]


def _write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``target``, then rename it over it."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
