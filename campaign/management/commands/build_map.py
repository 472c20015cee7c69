"""manage.py build_map SCENARIO | --all [--check] | --campaign ID"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from campaign.maps.build import MapError, build_map, dumps
from campaign.maps.stored import map_file
from campaign.models import Campaign, CampaignMap
from campaign.play.scenarios import (
    Projection,
    ScenarioError,
    available_scenarios,
    load_scenario_file,
)


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
            "--campaign",
            type=int,
            help=(
                "Build the map of one campaign from its areas' points, as the GM has moved "
                "them (Area x and y, in the admin), and keep it with the campaign."
            ),
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help=(
                "Build in memory only, and fail if the stored map differs from the new build "
                "(with --all: every stored map)."
            ),
        )

    def handle(self, *args, scenario, every, check, campaign, **options):
        if campaign is not None:
            if scenario or every or check:
                raise CommandError("--campaign goes alone.")
            self._build_campaign(campaign)
            return
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

    def _build_campaign(self, campaign_id: int) -> None:
        """Build a campaign's own map and keep it (CampaignMap); nothing is kept when the
        build fails."""
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"No campaign #{campaign_id}.")
        try:
            document = build_map(f"campaign-{campaign.pk}", campaign_scenario(campaign))
        except MapError as exc:
            problems = "\n".join(f"  - {problem}" for problem in exc.problems)
            raise CommandError(f"{campaign}: the map cannot be built:\n{problems}") from None
        with transaction.atomic():
            CampaignMap.objects.update_or_create(campaign=campaign, defaults={"document": document})
            campaign.bump_version(state=False)  # the pages' cached maps are drawn again
        self.stdout.write(f"Built the map of {campaign} ({len(document['areas'])} areas).")


def campaign_scenario(campaign: Campaign) -> dict:
    """The campaign's areas and adjacency as a scenario's, each area's latitude and
    longitude read back from its point (Area.x, y) through its scenario's projection."""
    paths = {info.key: info.path for info in available_scenarios()}
    if campaign.scenario not in paths:
        raise CommandError(f"{campaign}: its scenario {campaign.scenario!r} is not shipped here.")
    shipped = load_scenario_file(paths[campaign.scenario])["areas"]
    projection = Projection.of({a["key"]: (a["lat"], a["lon"]) for a in shipped})
    areas = []
    for area in campaign.areas.order_by("pk"):
        lat, lon = projection.coordinates(area.x, area.y)
        areas.append(
            {"key": area.key, "name": area.name, "kind": area.kind, "lat": lat, "lon": lon}
        )
    links = campaign.adjacencies.select_related("a", "b").order_by("pk")
    return {"areas": areas, "adjacency": [[link.a.key, link.b.key] for link in links]}


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
