"""Event-sourced encounters: immutable state, events, ``apply`` and the engine."""
