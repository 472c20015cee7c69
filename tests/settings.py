"""The site's settings with one more ruleset: Beacons (tests/toy), which the tests take
through every page and service to show that a game plugs in through the contract alone."""

from courier.settings import *  # noqa: F403
from courier.settings import COURIER_RULESETS, INSTALLED_APPS

TOY = "tests.toy"
INSTALLED_APPS = [*INSTALLED_APPS, TOY]
COURIER_RULESETS = [*COURIER_RULESETS, TOY]
