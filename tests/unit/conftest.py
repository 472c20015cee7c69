"""A small Empires in Arms map for the pure rules tests (no database)."""

from __future__ import annotations

import pytest

from rules.empires_in_arms.state import MINOR, PROVINCE, Area, Power, World

POWERS = {
    "france": "France",
    "great_britain": "Great Britain",
    "spain": "Spain",
    "austria": "Austria",
    "prussia": "Prussia",
    "russia": "Russia",
    "turkey": "Turkey",
}


def build_world(**options) -> World:
    """France holds the Palatinate and ceded Andalusia; Spain holds Castile and Granada;
    the Ottomans hold Bosnia and Wallachia. Every power has 10 PP and $20."""
    powers = {
        key: Power(key, name, political_points=10, treasury=20) for key, name in POWERS.items()
    }
    areas = [
        Area("palatinate", "Palatinate", MINOR, "france", manpower=2, capital="Mannheim"),
        Area(
            "andalusia",
            "Andalusia",
            PROVINCE,
            "france",
            "spain",
            ceded=True,
            manpower=3,
            guerrilla_value=4,
        ),
        Area("castile", "Castile", PROVINCE, "spain", "spain", manpower=4, guerrilla_value=3),
        Area("granada", "Granada", PROVINCE, "spain", "spain", manpower=2, guerrilla_value=5),
        Area("bosnia", "Bosnia", PROVINCE, "turkey", "turkey", manpower=1, islamic=True),
        Area("wallachia", "Wallachia", MINOR, "turkey", manpower=2),
        Area("hesse", "Hesse", MINOR, "prussia", manpower=0),
    ]
    adjacency = {
        "castile": {"granada", "andalusia"},
        "granada": {"castile", "andalusia"},
        "andalusia": {"castile", "granada"},
    }
    return World(
        powers=powers,
        areas={a.key: a for a in areas},
        adjacency=adjacency,
        national_modifiers={("palatinate", "great_britain"): 1, ("hesse", "austria"): 2},
        options=dict(options),
    )


@pytest.fixture
def world() -> World:
    return build_world()


@pytest.fixture(scope="session")
def new_world():
    """The map builder itself, for hypothesis tests (a fresh World per example)."""
    return build_world
