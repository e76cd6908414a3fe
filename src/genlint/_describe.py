"""Naming the JSON type of a value in error messages (``… must be a list, got a number``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def json_kind(value: object) -> str:
    """``null``, ``a boolean``, ``a number``, ``a string``, ``an object``, ``a list`` or the
    Python type name for anything JSON cannot hold."""
    if value is None:
        return "null"
    if isinstance(value, bool):  # before int: a bool is an int in Python
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, Sequence):
        return "a list"
    return type(value).__name__
