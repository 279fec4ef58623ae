"""``python -m d20combat.cli``."""

from d20combat.cli import app

app()
