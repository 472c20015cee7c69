"""For the migrations that move models to another app with their tables (not itself a
migration: the loader skips modules whose name starts with "_")."""

from django.db import migrations


def content_types_follow(models: tuple[str, ...], old: str, new: str) -> migrations.RunPython:
    """Move the models' content types from app ``old`` to ``new`` (and back when
    unapplied), so that their admin history and permissions stay theirs."""

    def move(source: str, target: str):
        def run(apps, schema_editor):
            ContentType = apps.get_model("contenttypes", "ContentType")
            ContentType.objects.filter(app_label=source, model__in=models).update(
                app_label=target
            )

        return run

    return migrations.RunPython(move(old, new), move(new, old))
