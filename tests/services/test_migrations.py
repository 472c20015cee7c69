"""The migrations describe the models: of the campaign app, of every ruleset's app and
of the toy ruleset the tests install."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits 1 if one does
