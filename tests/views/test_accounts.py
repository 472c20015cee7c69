"""Accounts: signing up (where `next` may lead, a user name taken at the same moment,
weak passwords) and the throttled password reset (tests/views/test_account_safety.py
has the attacks on them)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.cache import cache
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from campaign.people.account_mail import send_password_reset
from tests.services.test_scheduling import run_worker

pytestmark = pytest.mark.django_db
User = get_user_model()
SIGNUP = reverse("campaign:signup")
HOME = reverse("campaign:list")
GOOD_PASSWORD = "ropewalk-Quiberon-1759"


def sign_up(client, username="newcomer", password=GOOD_PASSWORD, **extra):
    data = {
        "username": username,
        "email": f"{username}@example.org",
        "password1": password,
        "password2": password,
        **extra,
    }
    return client.post(SIGNUP, data)


@pytest.mark.parametrize("next_url", ["id", "home", "/campaigns/1/", ""])
def test_a_signed_in_user_is_sent_on_to_a_local_next_or_home(client, next_url):
    client.force_login(User.objects.create_user("veteran"))
    response = client.get(SIGNUP, {"next": next_url})
    assert response.status_code == 302
    assert response.url == (next_url or HOME)


@pytest.mark.parametrize("next_url", ["//evil.example", "https://evil.example/", "javascript:x"])
def test_a_next_on_another_site_is_dropped(client, next_url):
    client.force_login(User.objects.create_user("veteran"))
    assert client.get(SIGNUP, {"next": next_url}).url == HOME
    client.logout()
    assert client.get(SIGNUP, {"next": next_url}).context["next"] == ""
    assert sign_up(client, next=next_url).url == HOME


@pytest.mark.parametrize("next_url", ["id", "home"])
def test_the_form_keeps_a_bare_word_next_and_signing_up_follows_it(client, next_url):
    page = client.get(SIGNUP, {"next": next_url})
    assert page.status_code == 200 and page.context["next"] == next_url
    response = sign_up(client, next=next_url)
    assert response.status_code == 302 and response.url == next_url
    assert User.objects.filter(username="newcomer").exists()


def test_a_taken_user_name_is_a_form_error(client):
    User.objects.create_user("newcomer")
    response = sign_up(client)
    assert response.status_code == 422
    assert "username" in response.context["form"].errors


def test_a_user_name_taken_between_the_check_and_the_save_is_a_form_error(client, monkeypatch):
    """Two sign-ups with one name at once: both pass the form's check, the second save
    meets the unique constraint. It gets the form error, not a 500."""
    is_valid = UserCreationForm.is_valid

    def the_other_signup_saves_meanwhile(form):
        valid = is_valid(form)
        User.objects.create_user(form.cleaned_data["username"])
        return valid

    monkeypatch.setattr(UserCreationForm, "is_valid", the_other_signup_saves_meanwhile)
    response = sign_up(client)
    assert response.status_code == 422
    assert "username" in response.context["form"].errors
    assert "_auth_user_id" not in client.session
    assert User.objects.filter(username="newcomer").count() == 1


@pytest.mark.parametrize("password", ["password", "12345678", "newcomer", "newcomer-1", "short"])
def test_weak_passwords_are_refused(client, password):
    response = sign_up(client, password=password)
    assert response.status_code == 422
    assert "password2" in response.context["form"].errors
    assert not User.objects.filter(username="newcomer").exists()


def test_a_good_password_signs_up_and_logs_in(client):
    response = sign_up(client)
    assert response.status_code == 302 and response.url == HOME
    assert client.session["_auth_user_id"] == str(User.objects.get(username="newcomer").pk)


# -- password reset -------------------------------------------------------------------

RESET = reverse("password_reset")


@pytest.fixture
def reset_counts():
    """The throttle counts in the cache: start and leave it empty."""
    cache.clear()
    yield
    cache.clear()


def ask_reset(client, email, **headers):
    return client.post(RESET, {"email": email}, **headers)


def test_password_reset_mails_the_user(
    client, reset_counts, mailoutbox, django_capture_on_commit_callbacks
):
    User.objects.create_user("forgetful", "forgetful@example.org", GOOD_PASSWORD)
    with django_capture_on_commit_callbacks(execute=True):
        response = ask_reset(client, "forgetful@example.org")
    assert response.status_code == 302
    assert mailoutbox == []  # the worker sends it
    run_worker(django_capture_on_commit_callbacks)
    assert [m.to for m in mailoutbox] == [["forgetful@example.org"]]


def test_password_resets_for_one_address_are_one_mail_a_period(
    client, reset_counts, settings, mailoutbox, django_capture_on_commit_callbacks
):
    """One e-mail address, asked for from anywhere: the same page every time, and one
    mail (tests/views/test_account_safety.py has the stranger and the next period)."""
    User.objects.create_user("forgetful", "forgetful@example.org", GOOD_PASSWORD)
    settings.TRUSTED_PROXIES = 1  # each request from another client address
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(settings.PASSWORD_RESET_LIMIT + 1):
            response = ask_reset(
                client, "Forgetful@example.org ", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}"
            )
            assert response.status_code == 302
    run_worker(django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 1


def test_password_resets_from_one_client_are_throttled(
    client, reset_counts, settings, django_capture_on_commit_callbacks
):
    """One client asking for many addresses: past its limit, the same page and no mail."""
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(settings.PASSWORD_RESET_LIMIT):
            assert ask_reset(client, f"someone{n}@example.org").status_code == 302
        assert ask_reset(client, "someone-else@example.org").status_code == 302
    queued = DBTaskResult.objects.filter(task_path=send_password_reset.module_path)
    assert queued.count() == settings.PASSWORD_RESET_LIMIT
    assert client.get(RESET).status_code == 200  # the form still shows
