"""d20combat: a d20 tactical combat engine — one core, several rulesets, every number explained."""

__version__ = "0.1.0"
