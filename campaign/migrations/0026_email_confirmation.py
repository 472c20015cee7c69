"""A mail address waits on the profile for its owner to follow the link mailed to it
before it becomes the user's (User.email). The addresses users already have stay theirs:
they count as confirmed."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0025_archive_placeholders"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="unconfirmed_email",
            field=models.EmailField(
                blank=True,
                editable=False,
                help_text="Mail goes to it once its owner follows the link mailed to it.",
                max_length=254,
                verbose_name="mail address waiting for confirmation",
            ),
        ),
    ]
