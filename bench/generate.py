"""Generate Empires in Arms campaigns of any size for the benchmarks.

    python bench/generate.py --areas 400          # the large campaign of issue 6
    python bench/generate.py --areas 40           # the small one
    python bench/generate.py --areas 400 --count 3 --revolts 60 --guerrillas 300 --corps 150
    python bench/generate.py --clean              # delete every generated campaign

Importable: ``make_campaign(areas=400)`` (Django set up by the caller) returns a
Generated campaign with a user seated at every seat. The tables are filled the way
tests/factories.py make_eia_campaign fills them, scaled up: the seven powers and their
political status, provinces (home nations, some ceded, Spanish ones with a printed
guerrilla value, Ottoman ones Islamic) and minor countries (allied, client, conquered or
neutral), a grid of adjacencies, the Minor Country Chart, wars and alliances, revolts
with their revolt guerrillas, Spanish guerrilla stacks, corps (some fought, besieged or
besieging), depots and let-downs. The default counts are issue 6's large campaign
scaled to the number of areas: per 400 areas, 60 revolts, 300 guerrilla stacks,
150 corps. The same seed gives the same campaign.

``bench_orders(world, phase_key)`` gives every power orders that use the rules as much
as the state allows (legal.py's choices): one lapse, three revolt attempts each, every
possible operation, guerrilla move and depot attack, conquest choices, aid to every
revolt. They are what the phase benchmark resolves.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":  # run as a script: make the project importable, set Django up
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.common import setup_django

    setup_django()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import transaction  # noqa: E402

from campaign.models import Adjacency, Area, Campaign, PowerRelation, Seat
from campaign.play.services import start_campaign  # noqa: E402
from rules.empires_in_arms.models import (
    Corps,
    Depot,
    EiaArea,
    GuerrillaStack,
    LetDown,
    NationalModifier,
    Revolt,
)
from tests.factories import POWERS, eia_powers  # noqa: E402

KEYS = [key for key, *_ in POWERS]
WARS = (("france", "great_britain"), ("france", "spain"), ("france", "austria"))
ALLIANCES = (("great_britain", "spain"), ("austria", "russia"))
NAME_PREFIX = "Bench"  # every generated campaign's name starts with it


def scaled(areas: int, per_400: int) -> int:
    return max(1, round(per_400 * areas / 400))


@dataclass
class Generated:
    """A generated campaign, its users by role or power key, and what it holds."""

    campaign: Campaign
    users: dict = field(default_factory=dict)  # "gm", "observer", power key -> User
    counts: dict = field(default_factory=dict)


def make_campaign(
    *,
    areas: int = 400,
    revolts: int | None = None,
    guerrillas: int | None = None,
    corps: int | None = None,
    seed: int = 1805,
    name: str | None = None,
    users: bool = True,
    start: bool = True,
) -> Generated:
    """An EIA campaign with ``areas`` areas (at least 20), opened at its first phase (the
    peace step of January 1805) when ``start``. ``users``: a user (unusable password;
    benchmarks log in with a session) in every seat, the GM's included."""
    if areas < 20:
        raise ValueError("at least 20 areas")
    revolts = scaled(areas, 60) if revolts is None else revolts
    guerrillas = scaled(areas, 300) if guerrillas is None else guerrillas
    corps = scaled(areas, 150) if corps is None else corps
    rng = random.Random(seed)
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name or f"{NAME_PREFIX} EIA {areas} areas",
            ruleset="empires_in_arms",
            scenario="bench",
            setup={"start_year": 1805, "start_month": 1, "political_months": [1, 4, 7, 10]},
            dice_mode=Campaign.DiceMode.SEEDED,
        )
        powers = eia_powers(campaign, treasury=60, political_points=20)
        by_key = {p.key: p for p in powers}
        area_rows = _areas(campaign, areas, by_key, rng)
        _adjacency(campaign, area_rows)
        minors = [a for a in area_rows if a.kind == "minor"]
        NationalModifier.objects.bulk_create(
            [
                NationalModifier(
                    campaign=campaign, area=a, power=p, value=rng.choice((-1, 0, 0, 1, 1, 2))
                )
                for a in minors
                for p in powers
            ]
        )
        PowerRelation.objects.bulk_create(
            [
                PowerRelation(campaign=campaign, a=a, b=b, kind=kind)
                for pairs, kind in ((WARS, "war"), (ALLIANCES, "alliance"))
                for a, b in (sorted((by_key[x], by_key[y]), key=lambda p: p.pk) for x, y in pairs)
            ]
        )
        revolt_rows = _revolts(campaign, area_rows, by_key, revolts, rng)
        stacks = _guerrillas(campaign, area_rows, revolt_rows, by_key, guerrillas, rng)
        corps_rows = _corps(campaign, area_rows, revolt_rows, by_key, corps, rng)
        depots = _depots(campaign, area_rows, by_key, rng)
        let_downs = LetDown.objects.bulk_create(
            [
                LetDown(campaign=campaign, power=by_key[KEYS[i % 7]], area=a, count=1)
                for i, a in enumerate(minors[: max(1, areas // 20)])
            ]
        )
        seats = [
            Seat(campaign=campaign, role=Seat.Role.GM),
            Seat(campaign=campaign, role=Seat.Role.OBSERVER),
        ] + [Seat(campaign=campaign, role=Seat.Role.PLAYER, power=p) for p in powers]
        people = _users(campaign, seats) if users else {}
        Seat.objects.bulk_create(seats)
        if people:
            campaign.created_by = people["gm"]
            campaign.save(update_fields=["created_by"])
    if start:
        start_campaign(campaign, actor=people.get("gm"))
        campaign.refresh_from_db()
    counts = {
        "areas": len(area_rows),
        "powers": len(powers),
        "adjacencies": Adjacency.objects.filter(campaign=campaign).count(),
        "chart cells": len(minors) * len(powers),
        "revolts": len(revolt_rows),
        "guerrilla stacks": len(stacks),
        "corps": len(corps_rows),
        "depots": len(depots),
        "let-downs": len(let_downs),
    }
    return Generated(campaign, people, counts)


def _areas(campaign: Campaign, count: int, by_key: dict, rng: random.Random) -> list[Area]:
    """60 % provinces of the seven home nations (every eighth ceded to another power),
    40 % minor countries (one in ten neutral), on a grid."""
    columns = math.ceil(math.sqrt(count * 1.5))
    rows, details = [], []
    minors = round(count * 0.4)
    for i in range(count):
        x, y = 30 + (i % columns) * 960 / columns, 30 + (i // columns) * 640 / (count / columns)
        if i % 5 in (1, 3) and minors > 0:  # 2 in 5: a minor
            minors -= 1
            holder = None if i % 10 == 3 else KEYS[(i // 5) % 7]
            status = "" if holder is None else ("allied", "client", "conquered")[i % 3]
            rows.append(
                Area(
                    campaign=campaign,
                    key=f"m{i:03d}",
                    name=f"Minor {i:03d}",
                    kind="minor",
                    controller=by_key[holder] if holder else None,
                    capital=f"Town {i}",
                    x=x,
                    y=y,
                )
            )
            details.append({"manpower": 1 + i % 3, "minor_status": status})
        else:
            home = KEYS[i % 7]
            ceded = i % 8 == 0
            holder = KEYS[(i + 3) % 7] if ceded and home != "france" else home
            if home == "spain" and ceded:
                holder = "france"
            rows.append(
                Area(
                    campaign=campaign,
                    key=f"p{i:03d}-{home}",
                    name=f"Province {i:03d} ({home.replace('_', ' ').title()})",
                    kind="province",
                    home_power=by_key[home],
                    controller=by_key[holder],
                    capital=f"City {i}",
                    x=x,
                    y=y,
                )
            )
            details.append(
                {
                    "ceded": ceded and holder != home,
                    "manpower": 1 + i % 4,
                    "guerrilla_value": 2 + i % 3 if home == "spain" else None,
                    "islamic": home == "turkey",
                }
            )
    area_rows = Area.objects.bulk_create(rows)
    EiaArea.objects.bulk_create(
        [EiaArea(area=a, **extra) for a, extra in zip(area_rows, details, strict=True)]
    )
    return area_rows


def _adjacency(campaign: Campaign, areas: list[Area]) -> None:
    columns = math.ceil(math.sqrt(len(areas) * 1.5))
    links = []
    for i, area in enumerate(areas):
        if (i + 1) % columns and i + 1 < len(areas):
            links.append((area, areas[i + 1]))
        if i + columns < len(areas):
            links.append((area, areas[i + columns]))
    Adjacency.objects.bulk_create([Adjacency(campaign=campaign, a=a, b=b) for a, b in links])


def _targetable(area: Area) -> bool:
    return area.controller_id is not None and (
        area.kind == "minor" or (area.kind == "province" and area.eia.ceded)
    )


def _revolts(campaign, areas, by_key, count, rng) -> list[Revolt]:
    """Revolts in held minors and ceded provinces, sponsored by a power that is neither
    the controller nor its ally."""
    allied = {frozenset(pair) for pair in ALLIANCES}
    pkey = {p.pk: k for k, p in by_key.items()}
    candidates = [a for a in areas if _targetable(a)]
    rng.shuffle(candidates)
    rows = []
    for area in candidates[:count]:
        holder = pkey[area.controller_id]
        sponsors = [
            k
            for k in KEYS
            if k != holder
            and frozenset((k, holder)) not in allied
            # a ceded province's revolt: its former home nation, where it can
            and (area.kind == "minor" or area.home_power_id != by_key[holder].pk)
        ]
        home = pkey.get(area.home_power_id)
        sponsor = home if area.kind == "province" and home in sponsors else rng.choice(sponsors)
        rows.append(
            Revolt(
                campaign=campaign,
                sponsor=by_key[sponsor],
                area=area,
                number=rng.randint(2, 5),
                months_without_guerrillas=rng.choice((0, 0, 0, 1)),
                started_turn=1,
            )
        )
    return Revolt.objects.bulk_create(rows)


def _guerrillas(campaign, areas, revolts, by_key, count, rng) -> list[GuerrillaStack]:
    """Two revolt guerrilla stacks per revolt (one besieged) within the 5 × manpower cap,
    the rest Spanish guerrillas spread over Spain's provinces."""
    rows = []
    by_pk = {a.pk: a for a in areas}
    for revolt in revolts:
        if len(rows) >= count:
            break
        area = by_pk[revolt.area_id]
        cap = 5 * max(1, area.eia.manpower)
        free = rng.randint(1, min(3, cap))
        rows.append(
            GuerrillaStack(
                campaign=campaign,
                area=area,
                origin=area,
                nationality=revolt.sponsor,
                factors=free,
            )
        )
        if len(rows) < count and cap - free >= 1:
            rows.append(
                GuerrillaStack(
                    campaign=campaign,
                    area=area,
                    origin=area,
                    nationality=revolt.sponsor,
                    factors=1,
                    besieged=True,
                )
            )
    spanish = [a for a in areas if a.home_power_id == by_key["spain"].pk]
    for i in range(count - len(rows)):
        area = spanish[i % len(spanish)]
        origin = spanish[(i + i // len(spanish)) % len(spanish)]
        rows.append(
            GuerrillaStack(
                campaign=campaign,
                area=area,
                origin=origin,
                nationality=by_key["spain"],
                factors=rng.randint(1, 3),
                revolt=False,
            )
        )
    return GuerrillaStack.objects.bulk_create(rows)


def _corps(campaign, areas, revolts, by_key, count, rng) -> list[Corps]:
    """The controller's corps in each revolting area (two in every third, for the +1),
    French corps in Spain's provinces, the rest at home; one in ten fought this step,
    one in twenty besieged, one in twenty besieging."""
    by_pk = {a.pk: a for a in areas}
    placed: list[tuple[int, int]] = []  # (power pk, area pk)
    for i, revolt in enumerate(revolts):
        area = by_pk[revolt.area_id]
        placed += [(area.controller_id, area.pk)] * (2 if i % 3 == 0 else 1)
    spanish = [a for a in areas if a.home_power_id == by_key["spain"].pk]
    placed += [(by_key["france"].pk, a.pk) for a in spanish]
    homes = [a for a in areas if a.kind == "province"]
    while len(placed) < count:
        area = rng.choice(homes)
        placed.append((area.controller_id, area.pk))
    rows = []
    for i, (power, area) in enumerate(placed[:count]):
        rows.append(
            Corps(
                campaign=campaign,
                power_id=power,
                area_id=area,
                name=f"{i + 1:03d}",
                fought=i % 10 == 9,
                besieged=i % 20 == 7,
                besieging=i % 20 == 13,
            )
        )
    return Corps.objects.bulk_create(rows)


def _depots(campaign, areas, by_key, rng) -> list[Depot]:
    """French depots in Spain's provinces (targets of Spanish guerrilla depot attacks) and
    a depot in every tenth home province."""
    spanish = [a for a in areas if a.home_power_id == by_key["spain"].pk]
    rows = [
        Depot(campaign=campaign, power=by_key["france"], area=a, port_city=i % 4 == 0, garrison=i)
        for i, a in enumerate(spanish)
    ]
    rows += [
        Depot(campaign=campaign, power_id=a.controller_id, area=a, garrison=2)
        for a in areas[::10]
        if a.kind == "province" and a.home_power_id != by_key["spain"].pk
    ]
    return Depot.objects.bulk_create(rows)


def _users(campaign: Campaign, seats: list[Seat]) -> dict:
    """A user in every seat, named bench<id>-<role or power key>."""
    User = get_user_model()
    people = {}
    for seat in seats:
        role = seat.power.key if seat.power_id else seat.role
        people[role] = User(username=f"bench{campaign.pk}-{role}", password="!")
    User.objects.bulk_create(people.values())
    for seat in seats:
        seat.user = people[seat.power.key if seat.power_id else seat.role]
    return people


# -- orders -----------------------------------------------------------------------------


def bench_orders(world, phase_key: str) -> dict[str, dict]:
    """Every power's orders for the phase, as much as the rules allow now (legal.py), in
    the payload shape the order forms produce."""
    from rules.empires_in_arms import legal

    orders: dict[str, dict] = {}
    lapsed = False
    for power in world.powers:
        if phase_key == "peace":  # one revolt lapses (the first sponsor's first)
            own = legal.own_revolts(world, power)
            payload = {"lapse": [own[0].area] if own and not lapsed else []}
            lapsed = lapsed or bool(own)
        elif phase_key == "revolt":
            payload = {"targets": legal.revolt_targets(world, power)[: legal.MAX_ATTEMPTS]}
        elif phase_key == "land":
            moves = [
                {"stack": g.id, "to": legal.guerrilla_destinations(world, g)[0]}
                for g in legal.movable_stacks(world, power)
            ]
            payload = {
                "moves": moves,
                "operations": legal.operation_areas(world, power),
                "depot_attacks": legal.depot_attack_areas(world, power),
            }
        elif phase_key == "conquest":
            revolts = legal.conquest_choice_revolts(world, power)
            payload = {"choices": {r.area: "client" for r in revolts}}
        elif phase_key == "economic":
            budget, aid = world.powers[power].treasury, {}
            for revolt in legal.aidable_revolts(world, power):
                if budget >= 2:
                    aid[revolt.area], budget = 2, budget - 2
            payload = {"aid": aid}
        else:
            raise ValueError(phase_key)
        orders[power] = payload
    return orders


def clean() -> int:
    """Delete every generated campaign (scenario "bench") and the generator's users."""
    ids = list(Campaign.objects.filter(scenario="bench").values_list("pk", flat=True))
    for pk in ids:  # one at a time: each cascade stays small
        Campaign.objects.filter(pk=pk).delete()
    get_user_model().objects.filter(username__regex=r"^bench[0-9]+-").delete()
    return len(ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--areas", type=int, default=400)
    parser.add_argument("--revolts", type=int, help="default: 60 per 400 areas")
    parser.add_argument("--guerrillas", type=int, help="stacks; default: 300 per 400 areas")
    parser.add_argument("--corps", type=int, help="default: 150 per 400 areas")
    parser.add_argument("--count", type=int, default=1, help="how many campaigns")
    parser.add_argument("--seed", type=int, default=1805)
    parser.add_argument("--no-start", action="store_true", help="do not open the first phase")
    parser.add_argument(
        "--clean", action="store_true", help="delete every generated campaign, generate none"
    )
    args = parser.parse_args()
    if args.clean:
        print(f"Deleted {clean()} generated campaign(s) and their users.")
        return
    for n in range(args.count):
        started = time.perf_counter()
        generated = make_campaign(
            areas=args.areas,
            revolts=args.revolts,
            guerrillas=args.guerrillas,
            corps=args.corps,
            seed=args.seed + n,
            start=not args.no_start,
        )
        took = time.perf_counter() - started
        campaign = generated.campaign
        print(f"Campaign {campaign.pk} “{campaign.name}” generated in {took:.2f} s:")
        print("  " + ", ".join(f"{v} {k}" for k, v in generated.counts.items()))
        print(
            "  users (no password; log in with a session or set one with "
            "manage.py changepassword): " + ", ".join(u.username for u in generated.users.values())
        )


if __name__ == "__main__":
    main()
