"""manage.py import_campaign FILE [--gm USERNAME] [--name NAME]
[--map-user ARCHIVE_NAME=USERNAME ...] [--map-users-by-name]"""

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaign.records.archive import (
    USER_REFS,
    ArchiveError,
    ImportReport,
    import_archive,
    max_bytes,
    read_archive,
    refuse_size,
)

PLACED = {word for _, _, placeholder, word in USER_REFS if placeholder}  # the rest: left empty


class Command(BaseCommand):
    help = (
        "Create a new campaign from a JSON archive written by export_campaign (or the GM's "
        "download), with a new secret and new dice seeds for the phases not yet resolved. "
        "A person the archive names goes to a user of this server only when you confirm "
        "it (--map-user, --map-users-by-name); the others become placeholders, and their "
        "seats wait for the invitation links printed here. Nothing is created if anything "
        "is wrong: every problem is listed."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The archive (.json); - reads standard input.")
        parser.add_argument("--gm", help="Username of the user who becomes its game master.")
        parser.add_argument(
            "--name", help="A name instead of the archive's (to import a second copy)."
        )
        parser.add_argument(
            "--map-user",
            action="append",
            default=[],
            metavar="ARCHIVE_NAME=USERNAME",
            help="The person the archive calls ARCHIVE_NAME is this server's user USERNAME "
            "(repeat for each person).",
        )
        parser.add_argument(
            "--map-users-by-name",
            action="store_true",
            help="Every person the archive names is the user of the same name here, if any "
            "(only for an archive from a server whose users are this one's).",
        )
        parser.add_argument(
            "--trust-waiting-seed",
            action="store_true",
            help="Take the dice seed of a phase waiting for a decision from the file (only for "
            "an archive of your own: its answer rolls on with that seed).",
        )

    def handle(
        self, *args, file, gm, name, map_user, map_users_by_name, trust_waiting_seed, **options
    ):
        gm_user = self.user(gm) if gm else None
        users = self.mapping(map_user)
        label = "standard input" if file == "-" else Path(file).name
        try:
            data = read_archive(self.read(file))
        except ArchiveError as error:
            raise CommandError(f"{label}: {error}") from error
        try:
            report = import_archive(
                data,
                gm=gm_user,
                name=name,
                users=users,
                by_name=map_users_by_name,
                trust_waiting_seed=trust_waiting_seed,
            )
        except ArchiveError as error:
            problems = "\n".join(f"  - {problem}" for problem in error.messages)
            count = len(error.messages)
            raise CommandError(
                f"{label}: refused, nothing was created ({count} problem"
                f"{'s' if count != 1 else ''}):\n{problems}"
            ) from error
        self.stdout.write("\n".join(report_lines(report)))

    def user(self, username: str):
        User = get_user_model()
        try:
            return User.objects.get_by_natural_key(username)
        except User.DoesNotExist:
            raise CommandError(f"No user {username!r}.") from None

    def mapping(self, pairs: list[str]) -> dict:
        """--map-user's pairs as {archive name: user}; every mistake listed at once."""
        wanted: dict[str, str] = {}
        problems = []
        for pair in pairs:
            archive_name, sep, username = pair.partition("=")
            if not (sep and archive_name and username):
                problems.append(f"--map-user {pair!r}: write ARCHIVE_NAME=USERNAME")
            elif wanted.setdefault(archive_name, username) != username:
                problems.append(f"--map-user: {archive_name!r} is mapped twice")
        User = get_user_model()
        field = User.USERNAME_FIELD
        found = User.objects.filter(**{f"{field}__in": set(wanted.values())})
        by_username = {user.get_username(): user for user in found}
        for archive_name, username in wanted.items():
            if username not in by_username:
                problems.append(f"--map-user {archive_name}={username}: no user {username!r}")
        if problems:
            raise CommandError("\n".join(problems))
        return {archive_name: by_username[username] for archive_name, username in wanted.items()}

    def read(self, file: str) -> bytes:
        """The file's bytes, refused by its size before it is read (standard input: read
        up to one byte more than the limit, which read_archive refuses)."""
        if file == "-":
            return sys.stdin.buffer.read(max_bytes() + 1)
        path = Path(file)
        try:
            refuse_size(path.stat().st_size)
            return path.read_bytes()
        except ArchiveError as error:
            raise CommandError(f"{path.name}: {error}") from error
        except OSError as error:
            raise CommandError(f"{file}: cannot be read ({error.strerror}).") from error


def _counted(count: int, word: str) -> str:
    plural = "people" if word == "person" else f"{word}s"
    return f"{count} {word if count == 1 else plural}"


def _refs(refs: dict) -> str:
    words = [word for _, _, _, word in USER_REFS if refs.get(word)]
    return ", ".join(_counted(refs[word], word) for word in words)


def report_lines(report: ImportReport) -> list[str]:
    """What the import did, for whoever ran it: the campaign, what was renewed, each
    person the archive names (mapped or not, with the references), the GM, the
    invitation links and what the archive says it leaves out."""
    c = report.campaign
    lines = [
        f"Imported campaign #{c.pk} “{c.name}” ({c.ruleset}, {c.turn_label}): "
        f"{c.get_absolute_url()}"
    ]
    renewed = []
    if report.secret_renewed:
        renewed.append(f"the campaign's secret (its SHA-256 is now {c.secret_hash})")
    else:
        renewed.append("not the secret (the campaign has ended: it is public)")
    phases = {(p.turn, p.position): p for p in c.phases.all()}
    for turn, position in report.seeds_renewed:
        phase = phases[(turn, position)]
        renewed.append(
            f"the dice seed of turn {turn}, phase {position} ({phase.key}; its SHA-256 is "
            f"now {phase.seed_hash})"
        )
    lines.append("Renewed: " + "; ".join(renewed) + ".")

    total = sum(sum(p.refs.values()) for p in report.people)
    kept = sum(sum(p.refs.values()) for p in report.mapped)
    lines.append(
        f"People: the archive names {_counted(len(report.people), 'person')} in "
        f"{_counted(total, 'reference')}: {len(report.mapped)} mapped to users here "
        f"({_counted(kept, 'reference')}), {len(report.unconfirmed)} not "
        f"({_counted(total - kept, 'reference')})."
    )
    for person in report.mapped:
        how = "--map-user" if person.how == "mapped" else "--map-users-by-name"
        lines.append(f"  mapped: {person.name} -> {person.user} ({how}): {_refs(person.refs)}")
    for person in report.unconfirmed:
        placed = {w: n for w, n in person.refs.items() if w in PLACED}
        empty = {w: n for w, n in person.refs.items() if w not in PLACED}
        said = []
        if placed:
            said.append(f"{_refs(placed)} as the placeholder “(imported) {person.name}”")
        if empty:
            said.append(f"{_refs(empty)} left empty")
        lines.append(f"  not mapped: {person.name}: {'; '.join(said)}")
    if report.gm:
        lines.append(f"GM seat: {report.gm}.")
    else:
        lines.append("GM seat: nobody (give --gm USERNAME, or map the archive's GM).")
    if report.invitations:
        lines.append(
            f"Invitation links of the {_counted(len(report.invitations), 'seat')} without a "
            "user (the GM dashboard lists them too):"
        )
        for invitation in report.invitations:
            whose = f" for “(imported) {invitation.placeholder}”" if invitation.placeholder else ""
            lines.append(f"  {invitation.seat}{whose}: {invitation.url}")
    withheld = report.withheld
    if withheld:
        left_out = []
        if sealed := withheld.get("sealed_orders"):
            turn, position = sealed["phase"]
            left_out.append(
                f"the sealed orders of {', '.join(sealed['powers'])} for the open phase (turn "
                f"{turn}, phase {position}): the GM's download for a GM who plays"
            )
        if withheld.get("private_press"):
            left_out.append("the private press the GM does not read")
        lines.append("The archive says it leaves out: " + "; ".join(left_out) + ".")
    return lines
