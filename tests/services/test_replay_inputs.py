"""A replay counts every input (campaign/state/history.py record_input,
campaign/records/replay.py): a normally played campaign replays to a match whatever its
players and GM gave besides orders — a standing order changed between phases or while a
phase is open, a power marked absent, rule options changed, GM-entered dice, the GM's
edits, the answers to a decision, a standing recruitment instruction — while a tampered
roll, state row or recorded input is still a mismatch."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from campaign.models import Campaign, InputRecord, Phase, RollRecord
from campaign.play.scheduling import set_absent
from campaign.play.services import set_options
from campaign.records.replay import replay
from campaign.records.rollback import roll_back
from campaign.state.history import record_input
from rules.empires_in_arms.models import EiaPowerStatus
from rules.empires_in_arms.services import gm_edit as eia_gm_edit
from rules.empires_in_arms.services import set_standing_order
from rules.virgin_queen.models import VqPower
from tests.factories import make_pb_campaign, seat_users
from tests.services.test_eia_phase_services import order, quarter_campaign, resolve
from tests.services.test_history import vq_answer, vq_played, vq_waiting
from tests.services.test_pb_phase_services import ids

pytestmark = pytest.mark.django_db

# France's anti-guerrilla roll in Palatinate, a bad 1 (France does not pay: no payment
# die), then the revolt's guerrilla roll
BAD_ROLL_UNPAID = [1, 3]
LAND = "Land phase · guerrilla steps (March 1805)"


def eia_month():
    """March 1805 with GM-entered dice, at its peace step."""
    campaign = quarter_campaign(dice_mode="scripted")
    return campaign, seat_users(campaign)


def to_land(campaign, users) -> None:
    """Resolve the peace and revolt steps; France orders its operation in Palatinate."""
    resolve(campaign, users["gm"], faces=[])  # peace
    resolve(campaign, users["gm"], faces=[])  # revolt
    operations = {"operations": ["palatinate"], "moves": [], "depot_attacks": []}
    order(campaign, "france", operations, users["player"])


def standing_order(campaign, users, *, pays: bool) -> None:
    campaign.refresh_from_db()
    seat = campaign.seats.select_related("power").get(power__key="france")
    set_standing_order(seat=seat, pays_bad_roll=pays, actor=users["player"])


def anti_guerrilla_outcome(campaign) -> str:
    return RollRecord.objects.filter(campaign=campaign, rule="EIA-4").earliest("pk").outcome


def played_with_standing_orders():
    """France pays no bad roll in the land phase, and pays again once it resolved."""
    campaign, users = eia_month()
    to_land(campaign, users)
    standing_order(campaign, users, pays=False)
    resolve(campaign, users["gm"], faces=BAD_ROLL_UNPAID)
    standing_order(campaign, users, pays=True)
    return campaign, users


def assert_match(campaign) -> None:
    report = replay(campaign.pk)
    assert report.match, report.lines()
    assert report.edited == [], report.lines()


# -- standing orders --------------------------------------------------------------------


def test_a_standing_order_given_phases_before_the_bad_roll_it_answers_replays_to_a_match():
    campaign, users = eia_month()
    standing_order(campaign, users, pays=False)  # while the peace step is open
    to_land(campaign, users)
    resolve(campaign, users["gm"], faces=BAD_ROLL_UNPAID)
    assert "France does not pay (standing order)" in anti_guerrilla_outcome(campaign)
    (given,) = InputRecord.objects.filter(campaign=campaign)
    assert (given.phase.key, given.kind, given.power, given.answers) == (
        "peace",
        "standing_order",
        "france",
        None,
    )
    assert_match(campaign)


def test_a_standing_order_changed_while_a_phase_is_open_replays_to_a_match():
    campaign, users = eia_month()
    to_land(campaign, users)
    standing_order(campaign, users, pays=False)  # the land phase is open
    resolve(campaign, users["gm"], faces=BAD_ROLL_UNPAID)
    standing_order(campaign, users, pays=True)  # the conquest step is open
    assert EiaPowerStatus.objects.get(power__campaign=campaign, power__key="france").pays_bad_roll
    assert_match(campaign)
    out = io.StringIO()
    call_command("replay", str(campaign.pk), stdout=out)
    assert "MATCH: every phase resolves as it did" in out.getvalue()
    assert "edited" not in out.getvalue()


def test_a_standing_order_makes_the_gms_open_power_edit_stale():
    """The GM's power edit shows the standing order: sent after a change, it is refused
    rather than undo the player's order."""
    campaign, users = eia_month()
    before = Campaign.objects.values_list("version", "state_version").get(pk=campaign.pk)
    standing_order(campaign, users, pays=False)
    after = Campaign.objects.values_list("version", "state_version").get(pk=campaign.pk)
    assert after == (before[0] + 1, before[1] + 1)


# -- the other inputs -------------------------------------------------------------------


def test_a_power_marked_absent_and_back_replays_to_a_match():
    campaign, users = eia_month()
    britain = campaign.powers.get(key="great_britain")
    set_absent(campaign_id=campaign.pk, power_id=britain.pk, absent=True, actor=users["gm"])
    to_land(campaign, users)  # Great Britain's default orders: no revolt attempt
    set_absent(campaign_id=campaign.pk, power_id=britain.pk, absent=False, actor=users["gm"])
    resolve(campaign, users["gm"], faces=[1, 2, 3])  # France pays the 2 against the rise
    payment = RollRecord.objects.filter(campaign=campaign, rule="EIA-4").latest("pk")
    assert payment.outcome.startswith("France pays $2")
    assert_match(campaign)


def test_rule_options_changed_between_phases_replay_to_a_match():
    """The land phase resolves under "never pays" (no payment die), then the GM restores
    the standing order option: the replay resolves it with the options it had."""
    campaign, users = eia_month()
    to_land(campaign, users)

    def payment(value: str) -> None:
        options = {"bad_roll_payment": value}
        set_options(
            campaign_id=campaign.pk, options=options, dice_mode="scripted", actor=users["gm"]
        )

    payment("never")
    resolve(campaign, users["gm"], faces=BAD_ROLL_UNPAID)
    assert "France never pays (campaign option)" in anti_guerrilla_outcome(campaign)
    payment("standing_order")
    assert_match(campaign)


def test_a_gm_edit_while_the_phase_is_open_is_named_and_matches():
    campaign, users = played_with_standing_orders()
    edit = {"zone": "Fiasco", "political_points": 3, "treasury": 9, "pays_bad_roll": True}
    eia_gm_edit(campaign_id=campaign.pk, actor=users["gm"], edit="power", power="spain", **edit)
    report = replay(campaign.pk)
    assert report.match, report.lines()
    assert report.edited == ["Land phase · conquest step (March 1805)"]
    assert "edited by the GM since it opened (1 GM log line(s))" in report.lines()[1]
    assert "eia_powers 'spain': political_points is 3, expected 10" in report.lines()[1]


def test_a_played_virgin_queen_campaign_with_decisions_and_gm_dice_replays_to_a_match():
    campaign, _ = vq_played()
    assert_match(campaign)


def test_an_input_given_while_a_phase_waits_for_a_decision_is_made_again_in_its_place():
    """A ruleset's input given while Spain's conversion waits, after its first answer: the
    replay makes it after that answer, before the next."""
    campaign, users = vq_waiting()
    vq_answer(campaign, "spain", {"die_1": "keep"})
    campaign.refresh_from_db()
    england = campaign.seats.select_related("power").get(power__key="england")
    VqPower.objects.filter(power=england.power).update(cipher_key=2)
    change = {"table": "vq_powers", "row": {"power": "england"}, "values": {"cipher_key": 2}}
    record_input(campaign, england, "cipher", [change], users["gm"])
    assert InputRecord.objects.get(campaign=campaign).answers == 1
    assert_match(campaign)
    vq_answer(campaign, "spain", {"die_2": "antwerp", "die_4": "dijon", "die_1": "amsterdam"})
    assert vq_answer(campaign, "spain", {"unrest": ["antwerp"]}).key == "impulse_england"
    assert_match(campaign)


def test_a_pax_baltica_standing_recruitment_instruction_replays_to_a_match():
    """Saxony's pool draw is followed as its order says, draw by draw (seeded dice)."""
    campaign = make_pb_campaign()
    seat_users(campaign, "sweden", "russia")
    recruitment = {"reinforce": [], "draws": 1, "steps_each": 0, "fleet_places": []}
    order(campaign, "saxony", {**recruitment, "places": ["lausitz"]})
    (wachtmeister,) = ids(campaign, "Wachtmeister")
    reinforce = [{"block": wachtmeister, "steps": 1}]
    order(campaign, "sweden", {**recruitment, "reinforce": reinforce, "draws": 0, "places": []})
    resolve(campaign)
    campaign.refresh_from_db()
    assert campaign.phase.key == "actions"
    assert_match(campaign)


# -- tampering --------------------------------------------------------------------------


def test_a_tampered_roll_face_is_still_a_mismatch():
    campaign, _ = played_with_standing_orders()
    RollRecord.objects.filter(campaign=campaign, rule="EIA-4").update(faces=[2])  # the only one
    report = replay(campaign.pk)
    assert not report.match
    assert report.difference.startswith(f"{LAND}: roll 1 differs")
    with pytest.raises(CommandError, match="Replay mismatch"):
        call_command("replay", str(campaign.pk), stdout=io.StringIO())


def test_a_state_row_changed_without_a_logged_edit_is_still_a_mismatch():
    campaign, _ = played_with_standing_orders()
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="austria").update(
        pays_bad_roll=False
    )
    report = replay(campaign.pk)
    assert "the live state is not the state Land phase · conquest step" in report.difference
    assert "the GM logged nothing since" in report.difference
    assert "eia_powers 'austria': pays_bad_roll is False, expected True" in report.difference


def test_a_tampered_input_record_is_a_mismatch():
    campaign, _ = played_with_standing_orders()
    given = InputRecord.objects.filter(campaign=campaign).latest("pk")
    given.changes[0]["values"]["pays_bad_roll"] = False
    given.save(update_fields=["changes"])
    report = replay(campaign.pk)
    assert "eia_powers 'france': pays_bad_roll is True, expected False" in report.difference


def test_a_change_without_a_logged_edit_before_a_phase_resolved_is_named():
    """The GM's edits are logged; a change of the state that neither an input nor a GM
    log line explains is named in the report, with its first difference."""
    campaign, users = eia_month()
    to_land(campaign, users)
    EiaPowerStatus.objects.filter(power__campaign=campaign, power__key="france").update(
        pays_bad_roll=False
    )
    campaign.bump_version()  # as a change in the admin does
    resolve(campaign, users["gm"], faces=BAD_ROLL_UNPAID)
    report = replay(campaign.pk)
    assert report.edited == [LAND]
    said = (
        f"{LAND}: changed before it resolved, with no GM log line meanwhile: eia_powers "
        "'france': pays_bad_roll is False, expected True; replayed from the state it resolved "
        "from."
    )
    assert said in report.lines()


def test_a_phase_open_again_after_a_rollback_keeps_its_inputs():
    """A rollback reopens the land phase as it resolved from: the standing order given
    while it was open stands, and the replay still matches."""
    campaign, users = eia_month()
    to_land(campaign, users)
    standing_order(campaign, users, pays=False)
    resolve(campaign, users["gm"], faces=BAD_ROLL_UNPAID)
    reopened = roll_back(campaign_id=campaign.pk, actor=users["gm"])
    assert reopened.key == "land" and reopened.status == Phase.Status.OPEN
    assert InputRecord.objects.filter(phase=reopened).count() == 1
    report = replay(campaign.pk)
    assert report.match, report.lines()
