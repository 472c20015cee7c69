"""The orders' marks on a drawn map, placed so that they leave the names readable: a ring
round the name of the area it marks (never across it), an arrow from beside one name to
beside another, bent round the names between (campaign.maps.routes). A name's box is
estimated from its text as the map's labels are (campaign.maps.labels.text_box); the
page draws the names last, with a halo, over whatever still comes near them.
Pure: no Django, no geometry library."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from campaign.maps import labels, routes

RING_PAD = 6.0  # units between a name's ink and the ring round it
SLACK = 0.5  # units: how near a name an arrow said to be clear of it may come
INK = 0.05  # × size: the space above and below a name's ink in its label's box


def name_box(label: Any) -> routes.Box:
    """The estimated box of a drawn name's ink (x, y at its centre, its text and size):
    its label's box less the padding round the text."""
    left, top, right, bottom = labels.text_box(label.x, label.y, label.text, label.size)
    across, down = labels.PADDING / 2, INK * label.size
    return (left + across, top + down, right - across, bottom - down)


def ring_round(box: routes.Box) -> tuple[float, float, float, float]:
    """The ring round a name's box: x, y, width and height of a rounded rectangle."""
    left, top, right, bottom = routes.grow(box, RING_PAD)
    return (round(left, 1), round(top, 1), round(right - left, 1), round(bottom - top, 1))


def placed(orders: Iterable[Any], rows: Iterable[Any], frame: tuple[float, float]) -> tuple:
    """The orders (presenters.OrderLine, with the ``keys`` of the areas they pass) placed
    among the names of ``rows`` (each with its ``key`` and ``label``): each arrow routed
    (``clear`` if it crosses no name), each marker given the ring round its area's name."""
    boxes = {row.key: name_box(row.label) for row in rows if row.label}
    every = list(boxes.values())
    lines = []
    for order in orders:
        first, last = boxes.get(order.keys[0]), boxes.get(order.keys[-1])
        if order.arrow:
            points = routes.route(order.points, every, first, last, frame)
            clear = routes.clear_of(points, every, SLACK)
            lines.append(replace(order, points=points, clear=clear))
        else:
            lines.append(replace(order, ring=ring_round(last) if last else None))
    return tuple(lines)
