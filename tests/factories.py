"""Campaigns for tests, built directly (no scenario file), of any size.

make_eia_campaign(areas=N) always holds the same cast, whatever N: the seven powers,
French-held Palatinate (manpower 2) in a British-sponsored revolt with 3 guerrilla
factors and a French corps, French-held ceded Andalusia, unceded Old Castile with a
French corps, and N − 3 filler minors, alternately French- and Austrian-held.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise

from django.contrib.auth import get_user_model

from campaign.models import (
    Adjacency,
    Area,
    Campaign,
    Event,
    Order,
    Phase,
    Power,
    PowerRelation,
    RollRecord,
    Seat,
)
from campaign.play.scenarios import create_campaign
from campaign.play.services import add_observer_seat, start_campaign
from campaign.state.archive_rows import SITE_FIELDS
from campaign.state.storage import state_tables
from rules.empires_in_arms.models import (
    Corps,
    EiaArea,
    EiaPowerStatus,
    GuerrillaStack,
    NationalModifier,
    Revolt,
)
from rules.engine import ruleset_for
from rules.pax_baltica.models import Block, PbNation, PbSide, PbTerritory
from rules.virgin_queen.models import VqLeader, VqPower, VqSpace, VqUnits, VqZone

POWERS = (
    ("france", "France", "#2b50aa", "Dominant"),
    ("great_britain", "Great Britain", "#c8102e", "Dominant"),
    ("spain", "Spain", "#f1bf00", "Neutral"),
    ("austria", "Austria", "#f5f5f5", "Neutral"),
    ("prussia", "Prussia", "#3b3b3b", "Neutral"),
    ("russia", "Russia", "#1b7f3b", "Instability"),
    ("turkey", "Turkey", "#7a3db8", "Neutral"),
)
PASSWORD = "test-pass-123"


def eia_powers(campaign: Campaign, *, treasury: int, political_points: int) -> list[Power]:
    """The seven Empires in Arms powers of POWERS, with their political status zones
    (the benchmarks' generator builds its campaigns with them too)."""
    powers = Power.objects.bulk_create(
        [
            Power(
                campaign=campaign,
                key=key,
                name=name,
                color=color,
                sort=i,
            )
            for i, (key, name, color, _) in enumerate(POWERS)
        ]
    )
    EiaPowerStatus.objects.bulk_create(
        [
            EiaPowerStatus(power=p, zone=z, treasury=treasury, political_points=political_points)
            for p, (*_, z) in zip(powers, POWERS, strict=True)
        ]
    )
    return powers


def seated(campaign: Campaign, powers: list[Power], *, start: bool) -> Campaign:
    """The campaign with a GM seat, an observer seat and a seat per power (no users),
    started if ``start``."""
    Seat.objects.bulk_create(
        [
            Seat(campaign=campaign, role=Seat.Role.GM),
            Seat(campaign=campaign, role=Seat.Role.OBSERVER),
        ]
        + [Seat(campaign=campaign, role=Seat.Role.PLAYER, power=p) for p in powers]
    )
    if start:
        start_campaign(campaign, actor=None)
        campaign.refresh_from_db()
    return campaign


def make_eia_campaign(
    *, areas: int = 10, dice_mode: str = "seeded", start: bool = True, options: dict | None = None
) -> Campaign:
    """An EIA campaign with ``areas`` areas (at least 3), seats for every power, a GM seat
    and an observer seat (all without users), opened at its first phase."""
    campaign = Campaign.objects.create(
        name=f"Test campaign ({areas} areas)",
        ruleset="empires_in_arms",
        scenario="test",
        setup={"start_year": 1805, "start_month": 1, "political_months": [1, 4, 7, 10]},
        options=options or {},
        dice_mode=dice_mode,
    )
    powers = eia_powers(campaign, treasury=20, political_points=10)
    by_key = {p.key: p for p in powers}
    rows = [
        Area(
            campaign=campaign,
            key="palatinate",
            name="Palatinate",
            kind="minor",
            controller=by_key["france"],
            capital="Mannheim",
            x=420,
            y=260,
        ),
        Area(
            campaign=campaign,
            key="andalusia",
            name="Andalusia",
            kind="province",
            home_power=by_key["spain"],
            controller=by_key["france"],
            capital="Seville",
            x=160,
            y=560,
        ),
        Area(
            campaign=campaign,
            key="old-castile",
            name="Old Castile",
            kind="province",
            home_power=by_key["spain"],
            controller=by_key["spain"],
            capital="Burgos",
            x=170,
            y=470,
        ),
    ]
    for i in range(areas - 3):
        holder = by_key["france"] if i % 2 == 0 else by_key["austria"]
        rows.append(
            Area(
                campaign=campaign,
                key=f"minor-{i}",
                name=f"Minor {i:03d}",
                kind="minor",
                controller=holder,
                capital=f"Town {i}",
                x=40 + (i * 37) % 900,
                y=40 + (i * 53) % 600,
            )
        )
    area_rows = Area.objects.bulk_create(rows)
    manpower = [2, 3, 3] + [1 + i % 3 for i in range(areas - 3)]
    EiaArea.objects.bulk_create(
        [
            EiaArea(
                area=a,
                ceded=a.key == "andalusia",
                manpower=n,
                guerrilla_value=3 if a.home_power_id else None,
            )
            for a, n in zip(area_rows, manpower, strict=True)
        ]
    )
    Adjacency.objects.bulk_create(
        [Adjacency(campaign=campaign, a=x, b=y) for x, y in pairwise(area_rows)]
    )
    NationalModifier.objects.bulk_create(
        [
            NationalModifier(campaign=campaign, area=a, power=by_key["great_britain"], value=1)
            for a in area_rows
            if a.kind == "minor"
        ]
    )
    palatinate, _, old_castile = area_rows[:3]
    Corps.objects.bulk_create(
        [
            Corps(campaign=campaign, power=by_key["france"], area=palatinate, name="I"),
            Corps(campaign=campaign, power=by_key["france"], area=old_castile, name="II"),
        ]
    )
    Revolt.objects.create(
        campaign=campaign,
        sponsor=by_key["great_britain"],
        area=palatinate,
        number=4,
        started_turn=1,
    )
    GuerrillaStack.objects.create(
        campaign=campaign,
        area=palatinate,
        origin=palatinate,
        nationality=by_key["great_britain"],
        factors=3,
    )
    PowerRelation.objects.create(
        campaign=campaign, a=by_key["france"], b=by_key["great_britain"], kind="war"
    )
    return seated(campaign, powers, start=start)


def seat_users(campaign: Campaign, player: str = "france", other: str = "great_britain") -> dict:
    """Users for every role: gm, observer, player (``player``, France by default),
    other_player (``other``, Great Britain by default), outsider (no seat). Passwords are
    PASSWORD."""
    User = get_user_model()
    suffix = campaign.pk

    def user(name: str):
        return User.objects.create_user(f"{name}-{suffix}", password=PASSWORD)

    users = {name: user(name) for name in ("gm", "observer", "player", "other_player", "outsider")}
    seats = campaign.seats.select_related("power")
    for seat in seats:
        if seat.role == Seat.Role.GM:
            seat.user = users["gm"]
        elif seat.role == Seat.Role.OBSERVER:
            seat.user = users["observer"]
        elif seat.power.key == player:
            seat.user = users["player"]
        elif seat.power.key == other:
            seat.user = users["other_player"]
        else:
            continue
        seat.save(update_fields=["user"])
    campaign.created_by = users["gm"]
    campaign.save(update_fields=["created_by"])
    return users


def snapshot(campaign: Campaign) -> dict:
    """Every row of the campaign's state, to assert that a refused request changed nothing
    (all but the clock's bookkeeping: SITE_FIELDS)."""

    campaign.refresh_from_db()
    kept = [
        f.attname for f in Campaign._meta.concrete_fields if f.name not in SITE_FIELDS[Campaign]
    ]
    tables = {
        "campaign": Campaign.objects.filter(pk=campaign.pk).values(*kept),
        "powers": Power.objects.filter(campaign=campaign).values(),
        "seats": Seat.objects.filter(campaign=campaign).values(),
        "areas": Area.objects.filter(campaign=campaign).values(),
        "phases": Phase.objects.filter(campaign=campaign).values(),
        "orders": Order.objects.filter(campaign=campaign).values(),
        "rolls": RollRecord.objects.filter(campaign=campaign).values(),
        "events": Event.objects.filter(campaign=campaign).values(),
    }
    for t in state_tables():  # the core's and its ruleset's (no other ruleset's has its rows)
        if t.ruleset in (None, campaign.ruleset):
            tables[t.key] = t.model.objects.filter(**{t.scope: campaign}).values()
    return {
        name: sorted((tuple(sorted(row.items())) for row in rows), key=repr)
        for name, rows in tables.items()
    }


PB_NATIONS = (
    ("sweden", "Sweden", "#1d4f91", "sweden", 20, ["livland", "narva"], ["livland"]),
    ("russia", "Russia", "#2e7d32", "coalition", 16, ["velikaya", "rzhev"], []),
    ("saxony", "Saxony-Poland", "#c62828", "coalition", 12, ["lausitz", "lietuva"], []),
    ("denmark", "Denmark", "#b71c1c", "coalition", 16, ["copenhagen"], ["copenhagen"]),
)
# key, name, nation, (x, y), forage points, garrison, flags
PB_TERRITORIES = (
    ("livland", "Livland", "sweden", (520, 260), 2, 2, {"port": True}),
    ("narva", "Narva", "sweden", (600, 180), 2, 2, {}),
    ("velikaya", "Velikaya", "russia", (640, 300), 2, 1, {}),
    ("rzhev", "Rzhev", "russia", (760, 320), 2, 1, {}),
    ("kurland", "Kurland", None, (470, 330), 3, 0, {"port": True}),
    ("lietuva", "Lietuva", "saxony", (520, 420), 2, 0, {"in_poland": True}),
    ("lausitz", "Lausitz", "saxony", (300, 520), 3, 2, {}),
    ("copenhagen", "Copenhagen", "denmark", (240, 330), 3, 3, {"port": True}),
)
PB_LINKS = (
    ("livland", "narva"),
    ("livland", "velikaya"),
    ("velikaya", "rzhev"),
    ("velikaya", "narva"),
    ("livland", "kurland"),
    ("kurland", "lietuva"),
    ("lietuva", "lausitz"),
)
PB_SEA = (("central_baltic", (420, 250)), ("southern_baltic", (320, 380)))
PB_SEA_LINKS = (
    ("livland", "central_baltic"),
    ("kurland", "central_baltic"),
    ("central_baltic", "southern_baltic"),
    ("copenhagen", "southern_baltic"),
)
# nation, kind, name, strength, max, rating, trains, location (None: the pool)
PB_BLOCKS = (
    ("sweden", "army", "Karl XII", 2, 4, "B3", 1, "lietuva"),
    ("sweden", "regiment", "Upplands", 3, 3, "B2", 0, "narva"),
    ("sweden", "fleet", "Wachtmeister", 3, 4, "B2", 0, "livland"),
    ("sweden", "regiment", "Dalregementet", 3, 3, "B2", 0, None),
    ("russia", "army", "Pyotr I", 4, 4, "C2", 1, "kurland"),
    ("russia", "army", "Sheremetev", 4, 4, "C2", 1, "kurland"),
    ("russia", "regiment", "Woronjetski", 3, 3, "C1", 0, "kurland"),
    ("russia", "army", "Menshikov", 3, 4, "C2", 1, "narva"),
    ("saxony", "army", "August II", 1, 4, "C2", 1, "lausitz"),
    ("saxony", "army", "Schulenburg", 4, 4, "C2", 1, None),
    ("saxony", "army", "Lubomirski", 4, 4, "C2", 0, None),
    ("denmark", "fleet", "Danish fleet", 3, 4, "B2", 0, "copenhagen"),
)


def make_pb_campaign(
    *, territories: int = 10, dice_mode: str = "seeded", start: bool = True, options=None
) -> Campaign:
    """A Pax Baltica campaign with ``territories`` land territories (at least 8): the
    seed's cast (Karl XII in Lietuva without a friendly garrison, Pyotr I, Sheremetev and
    Woronjetski in Kurland, August II at strength 1 in Lausitz, a Russian army before
    Swedish Narva, Schulenburg and Lubomirski in Saxony-Poland's pool), two sea zones,
    and filler territories alternately Swedish and Russian, every fourth with a regiment.
    Seats for every nation, a GM seat and an observer seat (without users)."""
    campaign = Campaign.objects.create(
        name=f"Test Pax Baltica ({territories} territories)",
        ruleset="pax_baltica",
        scenario="test",
        setup={"start_year": 1700},
        options=options or {},
        dice_mode=dice_mode,
    )
    powers = Power.objects.bulk_create(
        [
            Power(campaign=campaign, key=k, name=n, color=c, sort=i)
            for i, (k, n, c, *_) in enumerate(PB_NATIONS)
        ]
    )
    by_key = {p.key: p for p in powers}
    PbNation.objects.bulk_create(
        [
            PbNation(power=by_key[k], side=side, rp_level=rp, deployment=dep, fleet_ports=ports)
            for k, _, _, side, rp, dep, ports in PB_NATIONS
        ]
    )
    land = list(PB_TERRITORIES)
    for i in range(territories - len(PB_TERRITORIES)):
        nation = "russia" if i % 2 else "sweden"
        xy = (40 + (i * 37) % 900, 40 + (i * 53) % 600)
        land.append((f"t-{i}", f"Territory {i:03d}", nation, xy, 2, 1, {}))
    rows = [
        Area(
            campaign=campaign,
            key=key,
            name=name,
            kind="territory",
            home_power=by_key.get(nation),
            controller=by_key.get(nation),
            capital="Copenhagen" if key == "copenhagen" else "",
            x=x,
            y=y,
        )
        for key, name, nation, (x, y), *_ in land
    ]
    rows += [
        Area(campaign=campaign, key=k, name=k.replace("_", " ").title(), kind="sea", x=x, y=y)
        for k, (x, y) in PB_SEA
    ]
    areas = {a.key: a for a in Area.objects.bulk_create(rows)}
    PbTerritory.objects.bulk_create(
        [
            PbTerritory(area=areas[key], forage_points=fp, garrison=garrison, **flags)
            for key, _, _, _, fp, garrison, flags in land
        ]
    )
    fillers = [key for key, *_ in land[len(PB_TERRITORIES) :]]
    links = [*PB_LINKS, *pairwise(["rzhev", *fillers])]
    Adjacency.objects.bulk_create(
        [Adjacency(campaign=campaign, a=areas[a], b=areas[b]) for a, b in links]
        + [
            Adjacency(campaign=campaign, a=areas[a], b=areas[b], kind="sea")
            for a, b in PB_SEA_LINKS
        ]
    )
    PbSide.objects.bulk_create(
        [
            PbSide(campaign=campaign, key="sweden", sort=0, actions=3, actions_per_season=3),
            PbSide(campaign=campaign, key="coalition", sort=1, actions=3, actions_per_season=3),
        ]
    )
    blocks = list(PB_BLOCKS)
    for i, key in enumerate(fillers):
        if i % 4 == 0:
            nation = "russia" if i % 8 else "sweden"
            blocks.append((nation, "regiment", f"Regiment {i:03d}", 2, 3, "C1", 0, key))
    Block.objects.bulk_create(
        [
            Block(
                campaign=campaign,
                power=by_key[nation],
                kind=kind,
                name=name,
                strength=strength,
                max_strength=top,
                rating=rating,
                supply_trains=trains,
                location=areas.get(where),
            )
            for nation, kind, name, strength, top, rating, trains, where in blocks
        ]
    )
    return seated(campaign, powers, start=start)


VQ_POWERS = (
    ("ottoman", "Ottoman Empire", "#2e7d32", False),
    ("spain", "Spain", "#f1bf00", True),
    ("england", "England", "#c8102e", False),
    ("france", "France", "#2b50aa", True),
    ("hre", "Holy Roman Empire", "#5d4037", True),
    ("protestant", "Protestant", "#6a3d9a", False),
)
# key, name, zone, religion, controller, (x, y), flags
VQ_SPACES = (
    ("paris", "Paris", "france", "catholic", "france", (300, 200), {"fortified": True}),
    ("orleans", "Orléans", "france", "catholic", "france", (280, 300), {"fortified": True}),
    ("lyon", "Lyon", "france", "protestant", "france", (420, 420), {"fortified": True}),
    ("dijon", "Dijon", "france", "protestant", "france", (440, 300), {}),
    ("clermont", "Clermont", "france", "protestant", "france", (330, 440), {}),
    ("bourges", "Bourges", "france", "protestant", "france", (320, 350), {"besieged": True}),
    (
        "la_rochelle",
        "La Rochelle",
        "france",
        "protestant",
        "protestant",
        (150, 420),
        {"fortified": True, "protestant_home": True, "port": True},
    ),
    ("calais", "Calais", "france", "catholic", "france", (280, 80), {"port": True}),
    ("brussels", "Brussels", "netherlands", "catholic", "spain", (420, 90), {"fortified": True}),
    ("antwerp", "Antwerp", "netherlands", "protestant", "spain", (400, 40), {"port": True}),
    (
        "amsterdam",
        "Amsterdam",
        "netherlands",
        "protestant",
        "spain",
        (450, 10),
        {"port": True, "protestant_home": True},
    ),
)
VQ_LINKS = (
    ("paris", "orleans"),
    ("paris", "dijon"),
    ("paris", "calais"),
    ("orleans", "lyon"),
    ("orleans", "bourges"),
    ("orleans", "la_rochelle"),
    ("lyon", "dijon"),
    ("lyon", "clermont"),
    ("clermont", "bourges"),
    ("calais", "brussels"),
    ("brussels", "antwerp"),
    ("antwerp", "amsterdam"),
)
VQ_SEA_LINKS = (("calais", "north_sea"), ("antwerp", "north_sea"), ("amsterdam", "north_sea"))
# power, kind, space, count
VQ_UNITS = (
    ("france", "regular", "lyon", 1),
    ("france", "mercenary", "lyon", 2),
    ("france", "regular", "paris", 3),
    ("spain", "regular", "antwerp", 2),
    ("spain", "naval", "antwerp", 1),
    ("protestant", "regular", "la_rochelle", 2),
)


def make_vq_campaign(
    *, spaces: int = 12, start: bool = True, dice_mode: str = "seeded", auto_resolve: bool = True
):
    """A Virgin Queen campaign with ``spaces`` land spaces (at least 11): the seed's Lyon
    (1 French regular, 2 mercenaries) beside Protestant Dijon and Clermont, fortified
    Orléans, Paris the French capital, La Rochelle the Huguenot capital, besieged
    Bourges; Spanish Brussels, Protestant Antwerp (2 Spanish regulars, 1 naval unit) and
    Amsterdam on the North Sea with French Calais; filler Catholic spaces in Germany.
    One impulse round a turn; seats for every power, a GM and an observer (no users).
    ``auto_resolve`` False: the GM drives it, and answers for a power without a player."""
    campaign = Campaign.objects.create(
        name=f"Test Virgin Queen ({spaces} spaces)",
        ruleset="virgin_queen",
        scenario="test",
        setup={"start_year": 1559, "impulse_rounds": 1},
        dice_mode=dice_mode,
        auto_resolve=auto_resolve,
    )
    powers = Power.objects.bulk_create(
        [
            Power(campaign=campaign, key=k, name=n, color=c, sort=i)
            for i, (k, n, c, _) in enumerate(VQ_POWERS)
        ]
    )
    by_key = {p.key: p for p in powers}
    VqPower.objects.bulk_create(
        [VqPower(power=by_key[k], catholic=catholic) for k, _, _, catholic in VQ_POWERS]
    )
    land = list(VQ_SPACES)
    for i in range(spaces - len(VQ_SPACES)):
        xy = (560 + (i * 37) % 400, 40 + (i * 53) % 600)
        land.append((f"s-{i}", f"Space {i:03d}", "germany", "catholic", "hre", xy, {}))
    homes = {"la_rochelle": "france", "paris": "france"}
    rows = [
        Area(
            campaign=campaign,
            key=key,
            name=name,
            kind="space",
            home_power=by_key.get(homes.get(key, controller)),
            controller=by_key.get(controller),
            capital="Paris" if key == "paris" else "",
            x=x,
            y=y,
        )
        for key, name, _, _, controller, (x, y), _ in land
    ]
    rows.append(Area(campaign=campaign, key="north_sea", name="North Sea", kind="sea", x=350, y=5))
    areas = {a.key: a for a in Area.objects.bulk_create(rows)}
    VqSpace.objects.bulk_create(
        [
            VqSpace(
                area=areas[key],
                zone=zone,
                religion=religion,
                capital_of=by_key["france"] if key == "paris" else None,
                **flags,
            )
            for key, _, zone, religion, _, _, flags in land
        ]
    )
    fillers = [key for key, *_ in land[len(VQ_SPACES) :]]
    Adjacency.objects.bulk_create(
        [Adjacency(campaign=campaign, a=areas[a], b=areas[b]) for a, b in VQ_LINKS]
        + [
            Adjacency(campaign=campaign, a=areas[a], b=areas[b])
            for a, b in pairwise(["dijon", *fillers])
        ]
        + [
            Adjacency(campaign=campaign, a=areas[a], b=areas[b], kind="sea")
            for a, b in VQ_SEA_LINKS
        ]
    )
    VqZone.objects.bulk_create(
        [
            VqZone(
                campaign=campaign,
                key="france",
                name="France",
                capital=areas["la_rochelle"],
                regulars_available=6,
            ),
            VqZone(campaign=campaign, key="netherlands", name="Netherlands", regulars_available=2),
            VqZone(campaign=campaign, key="germany", name="Germany"),
        ]
    )
    VqUnits.objects.bulk_create(
        [
            VqUnits(campaign=campaign, power=by_key[p], kind=k, area=areas[s], count=n)
            for p, k, s, n in VQ_UNITS
        ]
    )
    VqLeader.objects.bulk_create(
        [
            VqLeader(
                campaign=campaign,
                name="Coligny",
                power=by_key["protestant"],
                area=areas["la_rochelle"],
                zone="france",
            ),
            VqLeader(
                campaign=campaign,
                name="William of Orange",
                power=by_key["protestant"],
                zone="netherlands",
                can_enter=True,
            ),
        ]
    )
    return seated(campaign, powers, start=start)


def make_toy_campaign() -> Campaign:
    """A Beacons campaign (tests/toy) from its scenario, with an observer seat."""

    creator = get_user_model().objects.create_user(f"warden-{Campaign.objects.count()}")
    campaign = create_campaign(scenario_key="toy-1", name="Beacons", gm=creator)
    add_observer_seat(campaign_id=campaign.pk, actor=creator)
    campaign.refresh_from_db()
    return campaign


def swap_resolver(monkeypatch, ruleset: str, phase: str, resolve) -> Callable:
    """Resolve the phase ``phase`` of ``ruleset`` with ``resolve`` for one test; the
    real service, returned, is still there to call."""
    phases = ruleset_for(ruleset).hooks.phases
    real = phases[phase]
    monkeypatch.setitem(phases, phase, replace(real, resolve=resolve))
    return real.resolve


def dashboard_with_edits(client, campaign) -> str:
    """The GM dashboard with the forms of every edit panel, as loaded on opening each."""
    from django.urls import reverse

    html = client.get(reverse("campaign:gm", args=[campaign.pk])).content.decode()
    for key in campaign.rules.hooks.edit_forms:
        url = reverse("campaign:edit_panel", args=[campaign.pk, key])
        html += client.get(url, HTTP_HX_REQUEST="true").content.decode()
    return html
