"""A login with a user name longer than any (Django's form does not bound it) is refused
like any failed login, and counted by the throttle: axes stored the whole name in a
255-character column, which PostgreSQL refused (a 500)."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["login", "admin:login"])
def test_a_long_user_name_is_a_failed_login(url):
    name = "x" * 300
    response = Client().post(reverse(url), {"username": name, "password": "nope"})
    assert response.status_code == 200  # the form again, with its error
    assert "_auth_user_id" not in Client().session
    (attempt,) = AccessAttempt.objects.all()
    assert attempt.username == name[:255]
    assert attempt.failures_since_start == 1


def test_a_user_name_within_bounds_is_recorded_whole():
    Client().post(reverse("login"), {"username": "someone", "password": "nope"})
    assert AccessAttempt.objects.get().username == "someone"
