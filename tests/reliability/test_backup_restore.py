"""The restore drill: a site's database and files go through bin/backup and bin/restore
(the README's commands, "Back up and restore", as it gives them) into a second database,
and every campaign exports to the same bytes from both.

A fresh PostgreSQL database on DATABASE_URL's server is migrated and given the demo (a
campaign of each ruleset, its first phases played by the worker, the clock's check run,
then every open phase resolved twice), with its mail in an outbox of its own; it is
backed up, restored into a new database with an outbox of its own, and compared: the
exports of every campaign (`manage.py export_campaign`), the outbox's files. A backup
whose files differ from its manifest is refused, as is a restore into a database that
holds tables; the README's docker compose commands run with a stand-in for `docker` that
runs the command in the db container's place (the same server, its environment). Every
database made here is dropped at the end. Each step is a subprocess with the site's own
settings (courier.settings, DJANGO_DEBUG=1), as a person would run it.

Needs PostgreSQL (DATABASE_URL), pg_dump and pg_restore: skipped without, a failure
under COURIER_NO_SKIPS=1; a long walk (CI, or ``-m long``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRESQL = URL.startswith(("postgres://", "postgresql://"))

pytestmark = [
    pytest.mark.long,
    pytest.mark.skipif(not ON_POSTGRESQL, reason="needs PostgreSQL (set DATABASE_URL)"),
]

# The worker and the clock as `manage.py clock --once` and `manage.py db_worker --batch`
# run them, then every open phase resolved twice, and the worker again (their mail): one
# process, for time's sake.
PLAY = """
from django.core.management import call_command

from campaign.errors import ServiceError
from campaign.models import Campaign
from campaign.play.services import resolve_open_phase

def worker():
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

call_command("clock", "--once")
worker()  # the first phases the demo resolves, the clock's check, their mail
for _ in range(2):
    for campaign in Campaign.objects.exclude(phase=None).order_by("pk"):
        try:
            resolve_open_phase(
                campaign_id=campaign.pk, expected_phase_id=campaign.phase_id, actor=None
            )
        except ServiceError as error:
            print(campaign.pk, error)
worker()
"""
# Every campaign's `manage.py export_campaign ID -o DIR/ID.json`, in one process.
EXPORT = """
import os

from django.core.management import call_command

from campaign.models import Campaign

for pk in Campaign.objects.order_by("pk").values_list("pk", flat=True):
    call_command("export_campaign", pk, output=os.path.join(os.environ["EXPORTS"], f"{pk}.json"))
"""


# Every connection of the drill's processes (libpq reads PGOPTIONS: Django's, pg_dump's,
# pg_restore's) commits without waiting for the disk, for time's sake: a drill's databases
# need no durability, and a busy machine's disk is slow.
NOT_DURABLE = "-c synchronous_commit=off"


def database_url(name: str) -> str:
    return urlsplit(URL)._replace(path=f"/{name}").geturl()


def server():
    import psycopg
    from psycopg.conninfo import make_conninfo

    return psycopg.connect(make_conninfo(URL, dbname="postgres"), autocommit=True)


def exists(name: str) -> bool:
    with server() as connection:
        query = "SELECT 1 FROM pg_database WHERE datname = %s"
        return connection.execute(query, [name]).fetchone() is not None


def query(name: str, sql: str) -> list[tuple]:
    import psycopg

    with psycopg.connect(database_url(name)) as connection:
        return connection.execute(sql).fetchall()


def environment(name: str, outbox: Path) -> dict[str, str]:
    """The site's environment for the database ``name``: its own settings (not the
    tests'), development, its mail kept in ``outbox``, the database's table as cache."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DJANGO_SETTINGS_MODULE", "COURIER_CACHE_URL", "DATABASE_TEST_NAME")
    }
    env.update(
        DATABASE_URL=database_url(name),
        DJANGO_DEBUG="1",
        COURIER_MAIL_OUTBOX_DIR=str(outbox),
        PYTHON=sys.executable,
        PGOPTIONS=NOT_DURABLE,
    )
    return env


def run(
    args: list[str] | str,
    env: dict[str, str],
    *,
    shell: bool = False,
    check: bool = True,
    cwd: Path = ROOT,
):
    result = subprocess.run(
        args,
        cwd=cwd,
        env=env,
        shell=shell,
        executable="/bin/bash" if shell else None,
        capture_output=True,
        timeout=120,
    )
    if check and result.returncode != 0:
        shown = args if isinstance(args, str) else shlex.join(args)
        said = f"{result.stdout.decode()}\n{result.stderr.decode()}"
        raise AssertionError(f"{shown} exited {result.returncode}:\n{said}")
    return result


def manage(env: dict[str, str], *args: str):
    return run([sys.executable, "manage.py", *args], env)


def readme_blocks() -> list[list[str]]:
    """The command lines of each ``sh`` block of the README's "Back up and restore"."""
    text = README.read_text(encoding="utf-8")
    start = text.index("### Back up and restore")
    section = text[start : text.index("\n#", start + 1)]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [
        [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]
        for block in blocks
    ]


def files(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def exports(sites: dict[str, dict[str, str]], into: Path) -> dict[str, dict[str, bytes]]:
    """Every campaign's archive from each site's database, the sites at once: by
    name, the archives' files (``<campaign id>.json``) and bytes."""
    running = {}
    for name, env in sites.items():
        (into / name).mkdir(parents=True)
        running[name] = subprocess.Popen(
            [sys.executable, "manage.py", "shell", "--command", EXPORT],
            cwd=ROOT,
            env={**env, "EXPORTS": str(into / name)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    for process in running.values():
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
    return {name: files(into / name) for name in sites}


DOCKER = """#!/usr/bin/env bash
# A stand-in for `docker compose` (tests/reliability/test_backup_restore.py): `exec -T db
# COMMAND` runs COMMAND here, with the db container's environment (POSTGRES_USER,
# POSTGRES_DB) and the test's server; `stop` and `up` are written down.
set -euo pipefail
[ "$1" = compose ] || exit 64
shift
case "$1" in
  exec)
    [ "$2" = -T ] && [ "$3" = db ] || exit 64
    shift 3
    exec "$@"
    ;;
  stop | up) echo "$*" >>"$DOCKER_CALLS" ;;
  *) exit 64 ;;
esac
"""


@pytest.fixture
def databases():
    """Unique database names on DATABASE_URL's server, every one dropped at the end."""
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("needs pg_dump and pg_restore")
    tag = uuid.uuid4().hex[:12]
    names = [f"courier_drill_{tag}_{role}" for role in ("source", "restored", "refused")]
    yield names

    def drop(name: str) -> None:  # the drops' checkpoints overlap: all at once
        with server() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    with ThreadPoolExecutor(len(names)) as pool:
        list(pool.map(drop, names))


def test_a_backup_restores_into_a_new_database_with_every_campaign_the_same(databases, tmp_path):
    source, restored, refused = databases
    with server() as connection:
        connection.execute(f'CREATE DATABASE "{source}"')
    site = environment(source, tmp_path / "outbox")
    manage(site, "migrate", "--noinput", "--verbosity", "0")
    manage(site, "demo")
    manage(site, "shell", "--command", PLAY)
    ids = [pk for (pk,) in query(source, "SELECT id FROM campaign_campaign ORDER BY id")]
    assert len(ids) >= 3  # one of each ruleset
    resolved = query(source, "SELECT count(*) FROM campaign_phase WHERE status = 'resolved'")
    assert resolved[0][0] >= len(ids)  # (a phase that waits for a decision stays open)
    kept = files(tmp_path / "outbox")
    assert kept, "the demo's mail is in its outbox"
    seen = dict(query(source, "SELECT name, seen_at IS NOT NULL FROM campaign_heartbeat"))
    assert seen == {"clock": True, "worker": True, "reminders": True}  # the tick looked

    # the README's commands, as it gives them
    backup_block, *_ = readme_blocks()
    assert [line.split()[0] for line in backup_block] == ["bin/backup", "bin/restore"]
    backup_dir = tmp_path / "backups" / "courier"
    readme_dir, readme_url = backup_block[1].split()[1:3]
    assert backup_block[0].split()[1] == readme_dir
    commands = [
        line.replace(readme_url, database_url(restored)).replace(readme_dir, str(backup_dir))
        for line in backup_block
    ]
    run(commands[0], site, shell=True)
    manifest = (backup_dir / "manifest.txt").read_text()
    assert re.search(r"^date: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", manifest, re.M)
    assert re.search(r"^migration: campaign \d{4}_\w+$", manifest, re.M)
    assert re.findall(r"^sha256: [0-9a-f]{64}  (\S+)$", manifest, re.M) == [
        "database.dump",
        "files.tar",
    ]
    restored_site = environment(restored, tmp_path / "restored-outbox")
    run(commands[1], {**restored_site, "DATABASE_URL": "unused"}, shell=True)

    archives = exports({"source": site, "restored": restored_site}, tmp_path / "exports")
    assert sorted(archives["source"]) == [f"{pk}.json" for pk in ids]
    assert archives["restored"] == archives["source"]
    assert files(tmp_path / "restored-outbox") == kept

    # a restore into a database that holds tables is refused, and leaves it as it was
    again = run(["bin/restore", str(backup_dir)], restored_site, check=False)
    assert again.returncode == 1 and b"already holds" in again.stderr
    # a backup whose files are not its manifest's is refused before anything is made
    tampered = tmp_path / "tampered"
    shutil.copytree(backup_dir, tampered)
    with (tampered / "files.tar").open("ab") as tar:
        tar.write(b"\0")
    refusal = run(["bin/restore", str(tampered), database_url(refused)], site, check=False)
    assert refusal.returncode == 1 and b"not the ones its manifest lists" in refusal.stderr
    assert not exists(refused)

    # the README's docker compose commands, over the restored database changed since
    query(restored, "UPDATE campaign_campaign SET name = 'Changed' RETURNING id")
    docker_compose(source, restored, tmp_path)
    rows = (
        "SELECT (SELECT string_agg(name, ',' ORDER BY id) FROM campaign_campaign),"
        " (SELECT count(*) FROM campaign_event), (SELECT count(*) FROM campaign_rollrecord),"
        " (SELECT count(*) FROM campaign_phase), (SELECT count(*) FROM campaign_heartbeat)"
    )
    assert query(restored, rows) == query(source, rows)


def docker_compose(source: str, target: str, tmp_path: Path) -> None:
    """Run the README's `docker compose exec -T db pg_dump …`, the stop, its pg_restore
    and the `up`, in a directory of their own, with a stand-in for `docker`: the dump
    from ``source``, the restore into ``target``, as the db container would. The
    services they name are docker-compose.yml's."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "docker").write_text(DOCKER)
    (bin_dir / "docker").chmod(0o755)
    where = urlsplit(URL)
    calls = tmp_path / "docker-calls"
    container = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "PGHOST": where.hostname or "127.0.0.1",
        "PGPORT": str(where.port or 5432),
        "POSTGRES_USER": where.username or "postgres",
        "DOCKER_CALLS": str(calls),
        "PGOPTIONS": NOT_DURABLE,
    }
    if where.password:
        container["PGPASSWORD"] = where.password
    _, docker_block = readme_blocks()
    assert [line.split()[:2] for line in docker_block] == [["docker", "compose"]] * 4
    dump, stop, restore, up = docker_block
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    services = set(re.findall(r"^  ([\w-]+):$", compose[compose.index("\nservices:") :], re.M))
    assert {"db", *stop.split()[3:]} <= services
    work = tmp_path / "compose"
    work.mkdir()
    run(dump, {**container, "POSTGRES_DB": source}, shell=True, cwd=work)
    run(stop, container, shell=True, cwd=work)
    run(restore, {**container, "POSTGRES_DB": target}, shell=True, cwd=work)
    run(up, container, shell=True, cwd=work)
    said = [line.split(maxsplit=2)[2] for line in (stop, up)]
    assert calls.read_text().splitlines() == said
