"""Adapters that let other tools run genlint: ``promptfoo`` (a Python assertion)."""
