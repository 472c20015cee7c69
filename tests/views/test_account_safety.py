"""Accounts as a careful site keeps them (issue 30, item 4): each finding of the second
attack reproduced, and refused.

- a stranger's reset requests neither block the owner's reset nor flood the mailbox, and
  the page answers every request alike;
- the reset mail is written and sent by the worker, never inside the request;
- the demo's password, the site's name, a season and a year, a repeated character;
- one password sprayed over many accounts from one client;
- user names that look like or read as a taken one;
- a mail address of another account, and an address nobody confirmed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from campaign.management.commands.demo import PASSWORD as DEMO_PASSWORD
from campaign.models import Profile, Seat
from campaign.people import account_mail
from campaign.play import services
from courier import throttling
from tests.factories import make_eia_campaign, seat_users
from tests.services.test_scheduling import run_worker

pytestmark = pytest.mark.django_db
User = get_user_model()
RESET = reverse("password_reset")
DONE = reverse("password_reset_done")
SIGNUP = reverse("campaign:signup")
LOGIN = reverse("login")
PREFERENCES = reverse("campaign:preferences")
GOOD_PASSWORD = "ropewalk-Quiberon-1759"
OWNER = "forgetful@example.org"
STRANGER = "203.0.113.66"
HOME_ADDRESS = "198.51.100.7"


@pytest.fixture(autouse=True)
def empty_cache():
    """The throttles count in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run what a request hands over on commit (the test's transaction never commits)."""

    def capture(execute: bool = True):
        return django_capture_on_commit_callbacks(execute=execute)

    return capture


def ask_reset(client, address: str, client_address: str):
    return client.post(RESET, {"email": address}, REMOTE_ADDR=client_address)


def reset_tasks() -> list[str]:
    rows = DBTaskResult.objects.filter(task_path=account_mail.send_password_reset.module_path)
    return [row.args_kwargs["args"][0] for row in rows.order_by("enqueued_at")]


def sent_to(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if message.to == [address]]


# -- the password reset -------------------------------------------------------------


def test_a_strangers_requests_do_not_keep_the_owner_from_a_reset(commits, time_machine):
    """Before: five requests from one client blocked the address's reset for an hour, for
    everyone. Now the stranger causes at most the one mail of the period (which the owner
    may use), the owner's own request answers as any other, and the next period the
    owner is mailed again."""
    time_machine.move_to(timezone.now(), tick=False)
    User.objects.create_user("forgetful", OWNER, GOOD_PASSWORD)
    stranger, owner = Client(), Client()
    with commits():
        answers = [ask_reset(stranger, OWNER, STRANGER) for _ in range(8)]
        answers.append(ask_reset(owner, OWNER.upper(), HOME_ADDRESS))
    assert {(r.status_code, r.url) for r in answers} == {(302, DONE)}
    run_worker(commits)
    assert len(sent_to(OWNER)) == 1  # one mail this period, not nine
    time_machine.move_to(timezone.now() + timedelta(seconds=account_mail.PERIOD + 1))
    with commits():
        assert ask_reset(owner, OWNER, HOME_ADDRESS).url == DONE
    run_worker(commits)
    assert len(sent_to(OWNER)) == 2


def test_a_client_past_its_limit_leaves_the_addresses_period_alone(commits, settings):
    """A client that has caused its mails of the hour causes no more, and its further
    requests do not use up an address's period: the owner still gets a mail."""
    User.objects.create_user("forgetful", OWNER, GOOD_PASSWORD)
    stranger = Client()
    with commits():
        for n in range(settings.PASSWORD_RESET_LIMIT):
            ask_reset(stranger, f"someone{n}@example.org", STRANGER)
        throttled = ask_reset(stranger, OWNER, STRANGER)
        assert OWNER not in reset_tasks()
        ask_reset(Client(), OWNER, HOME_ADDRESS)
    assert (throttled.status_code, throttled.url) == (302, DONE)
    assert reset_tasks().count(OWNER) == 1
    run_worker(commits)
    assert len(sent_to(OWNER)) == 1


def test_the_reset_answers_alike_whether_an_account_has_the_address_or_not(commits):
    User.objects.create_user("forgetful", OWNER, GOOD_PASSWORD)
    with commits():
        known = ask_reset(Client(), OWNER, STRANGER)
        unknown = ask_reset(Client(), "nobody@example.org", HOME_ADDRESS)
    assert (known.status_code, known.url) == (unknown.status_code, unknown.url) == (302, DONE)
    # the request did the same work for both: one task each, nothing else
    assert reset_tasks() == [OWNER, "nobody@example.org"]


def test_the_reset_mail_is_sent_by_the_worker_not_in_the_request(commits, mailoutbox):
    """Before: the request sent the mail itself, so with SMTP its time told whether the
    account exists. Now it only queues a task with the address; the worker looks the
    accounts up, writes the link and sends it."""
    User.objects.create_user("forgetful", OWNER, GOOD_PASSWORD)
    with commits():
        ask_reset(Client(), OWNER, STRANGER)
    assert mailoutbox == []
    (row,) = DBTaskResult.objects.filter(task_path=account_mail.send_password_reset.module_path)
    assert row.args_kwargs["args"] == [OWNER]  # no link kept in the task's row
    run_worker(commits)
    (message,) = mailoutbox
    assert message.to == [OWNER]
    link = re.search(r"https?://\S+/accounts/reset/\S+/", message.body).group(0)
    page = Client().get(link, follow=True)
    assert page.status_code == 200 and b'name="new_password1"' in page.content


def test_an_address_nobody_confirmed_gets_no_reset(commits, mailoutbox):
    sign_up(Client(), "newcomer", email="newcomer@example.org")
    mailoutbox.clear()
    with commits():
        ask_reset(Client(), "newcomer@example.org", STRANGER)
    run_worker(commits)
    assert mailoutbox == []


# -- passwords --------------------------------------------------------------------------


def sign_up(client, username, password=GOOD_PASSWORD, email=None):
    data = {
        "username": username,
        "email": email or f"{username}@example.org",
        "password1": password,
        "password2": password,
    }
    return client.post(SIGNUP, data)


@pytest.mark.parametrize(
    "password",
    [
        DEMO_PASSWORD,  # "courier-demo", printed by bin/demo and in the README
        "Courier-Demo",
        "courier2026",
        "COURIER!",
        "Summer2026",
        "winter-1812",
        "2026autumn",
        "zzzzzzzzz",
        "abababababab",
    ],
)
def test_the_password_list_refuses_what_an_attacker_tries_first(password):
    assert DEMO_PASSWORD == "courier-demo"
    response = sign_up(Client(), "newcomer", password=password)
    assert response.status_code == 422
    assert "password2" in response.context["form"].errors
    assert not User.objects.filter(username="newcomer").exists()


@pytest.mark.parametrize("password", ["couriers-of-the-tsar-1812", "Summer of 1815, Waterloo"])
def test_passwords_that_only_contain_those_words_pass(password):
    assert sign_up(Client(), "newcomer", password=password).status_code == 302


# -- password spraying --------------------------------------------------------------------


def test_one_password_over_many_accounts_from_one_client_is_refused(commits):
    """Before: lockout was per user name and address, so one wrong password tried against
    20 accounts from one address was never throttled. Now the client is refused after
    CLIENT_FAILURE_LIMIT failures, whatever the names, and no account is locked: another
    client logs into one of them at once."""
    names = [f"player{n}" for n in range(20)]
    for name in names:
        User.objects.create_user(name, password=GOOD_PASSWORD)
    sprayer = Client()
    statuses = [
        sprayer.post(LOGIN, {"username": n, "password": "Password1!"}, REMOTE_ADDR=STRANGER)
        for n in names
    ]
    limit = throttling.CLIENT_FAILURE_LIMIT
    assert statuses[0].status_code == 200  # a wrong password: the form again
    assert [r.status_code for r in statuses[limit:]] == [429] * (len(names) - limit)
    refused = statuses[-1].content.decode()
    assert "Too many failed logins from your network address" in refused
    assert "No account is locked." in refused
    # even the right password is refused from there for now…
    right = sprayer.post(
        LOGIN, {"username": names[0], "password": GOOD_PASSWORD}, REMOTE_ADDR=STRANGER
    )
    assert right.status_code == 429 and "_auth_user_id" not in sprayer.session
    # …and the admin's login too
    admin = Client().post(
        reverse("admin:login"),
        {"username": names[0], "password": GOOD_PASSWORD},
        REMOTE_ADDR=STRANGER,
    )
    assert "Too many failed logins" in admin.content.decode()
    # the accounts are not locked: their owners log in from their own addresses
    owner = Client()
    response = owner.post(
        LOGIN, {"username": names[-1], "password": GOOD_PASSWORD}, REMOTE_ADDR=HOME_ADDRESS
    )
    assert response.status_code == 302
    assert owner.session["_auth_user_id"] == str(User.objects.get(username=names[-1]).pk)


def test_a_few_failed_logins_from_a_shared_address_refuse_nobody():
    User.objects.create_user("careful", password=GOOD_PASSWORD)
    office = Client()
    for n in range(throttling.CLIENT_FAILURE_LIMIT - 1):
        office.post(LOGIN, {"username": f"typo{n}", "password": "x"}, REMOTE_ADDR=STRANGER)
    response = office.post(
        LOGIN, {"username": "careful", "password": GOOD_PASSWORD}, REMOTE_ADDR=STRANGER
    )
    assert response.status_code == 302


# -- user names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "taken, lookalike",
    [
        ("france", "fr\u0430nce"),  # a Cyrillic а
        ("france", "FRANCE"),
        ("france", "Fr\u00e0nce"),  # à
        ("france", "\uff46\uff52\uff41\uff4e\uff43\uff45"),  # full-width: NFKC makes it france
        ("france", "fr\u0430n\u0441e"),  # a Cyrillic а and с
        ("gm", "\u0433\u043c"),  # гм reads as gm
        ("ivan", "\u0438\u0432\u0430\u043d"),  # иван
        ("ivan", "\u0399VAN"),  # a Greek capital iota
        ("pope", "\u0440\u043e\u0440\u0435"),  # рорe: Cyrillic letters that look Latin
    ],
)
def test_a_user_name_that_looks_like_a_taken_one_is_refused(taken, lookalike):
    User.objects.create_user(taken)
    response = sign_up(Client(), lookalike, email="new@example.org")
    assert response.status_code == 422
    assert "username" in response.context["form"].errors
    assert User.objects.count() == 1


def test_a_user_name_mixing_alphabets_is_refused_even_alone():
    response = sign_up(Client(), "m\u043escow", email="new@example.org")  # a Cyrillic о
    assert response.status_code == 422
    assert "one alphabet" in response.context["form"].errors["username"][0]


@pytest.mark.parametrize("name", ["\u043f\u0451\u0442\u0440", "\u03bd\u03af\u03ba\u03bf\u03c2"])
def test_a_name_in_one_other_alphabet_is_welcome(name):
    User.objects.create_user("france")
    assert sign_up(Client(), name, email="new@example.org").status_code == 302
    assert User.objects.filter(username=name).exists()


# -- mail addresses -----------------------------------------------------------------------


def confirmation_links(address: str) -> list[str]:
    path = re.escape(reverse("campaign:confirm_email", args=["TOKEN"])).replace("TOKEN", r"\S+?")
    return [
        found.group(0)
        for message in sent_to(address)
        if (found := re.search(rf"https?://[^/\s]+{path}", message.body))
    ]


def test_an_address_of_another_account_is_never_confirmed_and_never_told_on_the_page(
    client_as, users, commits
):
    """The forms answer alike whether an account uses the address (they would otherwise
    tell anyone which addresses have accounts here); its mail says so instead of a link,
    and the address stays the other account's."""
    User.objects.create_user("holder", "taken@example.org")
    with commits():
        response = sign_up(Client(), "newcomer", email="Taken@Example.org")
    assert response.status_code == 302
    run_worker(commits)
    (mail,) = sent_to("Taken@Example.org")
    assert "another Courier account already uses it" in mail.body
    assert not confirmation_links("Taken@Example.org")
    newcomer = User.objects.get(username="newcomer")
    token = account_mail.confirmation_link(newcomer.pk, "Taken@Example.org")
    assert Client().post(token).status_code == 410  # a forged link confirms nothing either
    changed = client_as("player").post(PREFERENCES, {"email": "TAKEN@example.org"})
    assert changed.status_code == 302
    assert User.objects.get(username="holder").email == "taken@example.org"
    assert User.objects.get(pk=users["player"].pk).email != "TAKEN@example.org"


def test_an_address_nobody_confirmed_keeps_it_from_nobody(commits):
    """A stranger who gives someone's address first keeps it neither from its owner's
    sign-up nor from the owner's confirmation; the stranger's link then confirms nothing."""
    with commits():
        sign_up(Client(), "stranger", email="owner@example.org")
        assert sign_up(Client(), "owner", email="owner@example.org").status_code == 302
    run_worker(commits)
    links = confirmation_links("owner@example.org")
    assert len(links) == 1  # one mail an address per period: the stranger's
    stranger_link = links[0]
    owner = User.objects.get(username="owner")
    owner_link = account_mail.confirmation_link(owner.pk, "owner@example.org")
    assert Client().post(owner_link).status_code == 200
    owner.refresh_from_db()
    assert owner.email == "owner@example.org"
    refused = Client().post(stranger_link)
    assert refused.status_code == 410
    assert User.objects.get(username="stranger").email == ""


def test_the_confirmation_link_works_once(commits):
    with commits():
        response = sign_up(Client(), "newcomer", email="newcomer@example.org")
    assert response.status_code == 302
    user = User.objects.get(username="newcomer")
    assert user.email == ""  # waits for its link
    assert Profile.objects.get(user=user).unconfirmed_email == "newcomer@example.org"
    run_worker(commits)
    (link,) = confirmation_links("newcomer@example.org")
    shown = Client().get(link)  # a mail reader fetching the link confirms nothing
    assert shown.status_code == 200 and b"Confirm this address" in shown.content
    user.refresh_from_db()
    assert user.email == ""
    confirmed = Client().post(link)
    assert confirmed.status_code == 200
    assert b"is now the mail address" in confirmed.content
    user.refresh_from_db()
    assert user.email == "newcomer@example.org"
    assert Profile.objects.get(user=user).unconfirmed_email == ""
    again = Client().post(link)
    assert again.status_code == 410 and b"used already" in again.content
    assert Client().get(link[:-3] + "xx/").status_code == 410  # a forged one


def test_an_unconfirmed_address_is_mailed_nothing_until_confirmed(commits):
    """Sign up, take a seat, a phase opens: no mail to the address until its link is
    followed; then the next phase's mail reaches it."""
    campaign = make_eia_campaign()
    users = seat_users(campaign)
    for user in users.values():  # the others' addresses are theirs (set by an admin)
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    with commits():
        sign_up(Client(), "newcomer", email="newcomer@example.org")
    newcomer = User.objects.get(username="newcomer")
    Seat.objects.filter(campaign=campaign, power__key="spain").update(user=newcomer)
    run_worker(commits)
    (link,) = confirmation_links("newcomer@example.org")
    mail.outbox.clear()

    def resolve():
        campaign.refresh_from_db()
        with commits():
            services.resolve_open_phase(
                campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=users["gm"]
            )
        run_worker(commits)

    resolve()
    assert sent_to(users["player"].email)  # the phase's mail went out…
    assert sent_to("newcomer@example.org") == []  # …but not to the unconfirmed address
    assert Client().post(link).status_code == 200
    mail.outbox.clear()
    resolve()
    assert sent_to("newcomer@example.org")


def test_a_new_address_in_the_preferences_waits_and_the_old_one_is_still_mailed(
    commits, client_as, users
):
    player = users["player"]
    player.email = "old@example.org"
    player.save(update_fields=["email"])
    client = client_as("player")
    with commits():
        response = client.post(PREFERENCES, {"email": "new@example.org"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.email == "old@example.org"  # until the link is followed
    page = client.get(PREFERENCES).content.decode()
    assert "new@example.org waits for you to follow the link" in page
    assert "until then Courier writes to old@example.org" in page
    run_worker(commits)
    (link,) = confirmation_links("new@example.org")
    assert "[Courier] Confirm your mail address" in sent_to("new@example.org")[0].subject
    assert Client().post(link).status_code == 200
    player.refresh_from_db()
    assert player.email == "new@example.org"


def test_the_preferences_may_take_the_address_away_or_keep_it(client_as, users):
    player = users["player"]
    player.email = "old@example.org"
    player.save(update_fields=["email"])
    client = client_as("player")
    client.post(PREFERENCES, {"email": "new@example.org"})
    client.post(PREFERENCES, {"email": "OLD@example.org"})  # back: the new one waits no more
    player.refresh_from_db()
    assert (player.email, player.profile.unconfirmed_email) == ("old@example.org", "")
    client.post(PREFERENCES, {"email": ""})  # no mail at all
    player.refresh_from_db()
    assert player.email == ""
