"""What counts as an acceptable value: a schema, a set of field names, or any object/array."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import orjson

from .._describe import json_kind
from ..errors import InputError


class Acceptor:
    """Decides whether a parsed value is the answer, converting it when a model is given.

    ``schema`` is a pydantic model class, a JSON Schema dict, or None; ``fields`` field names
    that must all be present in a JSON object.
    """

    __slots__ = ("_model", "_validator", "field_types", "fields", "schema")

    def __init__(self, schema: Any = None, fields: Sequence[str] | None = None) -> None:
        self.schema = schema
        self._model: Any = None
        self._validator: Any = None
        if schema is not None:
            if isinstance(schema, type) and hasattr(schema, "model_validate"):
                self._model = schema
            elif isinstance(schema, dict | bool):
                self._validator = _json_schema_validator(schema)
            else:
                raise InputError(
                    "schema must be a pydantic model class or a JSON Schema dict, "
                    f"not {type(schema).__name__}"
                )
        if isinstance(fields, str):
            fields = [f for f in (part.strip() for part in fields.split(",")) if f]
        self.fields: tuple[str, ...] = tuple(fields) if fields else ()
        self.field_types: dict[str, str] = _field_types(schema, self._model)

    @property
    def admits_scalars(self) -> bool:
        """Whether a bare string or number could be the answer (only a schema can say so)."""
        return self.schema is not None and not self.fields

    def field_names(self) -> tuple[str, ...]:
        """The fields the fields step should look for: the given ones, else the schema's."""
        if self.fields:
            return self.fields
        return tuple(self.field_types)

    def check(self, value: Any, *, any_json: bool = False) -> tuple[bool, Any, str]:
        """``(accepted, value_to_return, reason_if_not)``.

        With no schema and no fields an object or array is acceptable; ``any_json`` also lets a
        bare scalar through, for the direct step (a valid JSON document is its own answer).
        """
        if self.fields:
            if not isinstance(value, dict):
                return (
                    False,
                    None,
                    f"expected an object with {_names(self.fields)}, got {json_kind(value)}",
                )
            missing = [name for name in self.fields if name not in value]
            if missing:
                return False, None, f"missing field {_names(missing)}"
        try:
            if self._model is not None:
                return self._check_model(value)
            if self._validator is not None:
                return self._check_schema(value)
        except RecursionError:
            # A value nested ~1000 deep (orjson's limit) can exhaust a recursive validator.
            return False, None, "nested too deeply to validate"
        if self.fields or any_json or isinstance(value, dict | list):
            return True, value, ""
        return False, None, f"expected a JSON object or array, got {json_kind(value)}"

    def _check_model(self, value: Any) -> tuple[bool, Any, str]:
        from pydantic import ValidationError

        try:
            return True, self._model.model_validate(value), ""
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first.get("loc", ())) or "value"
            return False, None, f"{self._model.__name__}: {where}: {first.get('msg', 'invalid')}"
        except (TypeError, ValueError) as exc:
            return False, None, f"{self._model.__name__}: {exc}"

    def _check_schema(self, value: Any) -> tuple[bool, Any, str]:
        if self._validator.is_valid(value):
            return True, value, ""
        from jsonschema.exceptions import best_match

        error = best_match(self._validator.iter_errors(value))
        if error is None:
            return True, value, ""
        return False, None, f"schema: {error.json_path}: {error.message}"


def _json_schema_validator(schema: dict[str, Any] | bool) -> Any:
    """A validator for ``schema``, checked against its metaschema once and then reused:
    checking costs about a millisecond, and callers pass the same schema for every reply."""
    try:
        key = orjson.dumps(schema, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # not plain JSON (a tuple, a set…): build it uncached
        return _build_validator(schema)
    return _cached_validator(key)


@functools.lru_cache(maxsize=64)
def _cached_validator(key: bytes) -> Any:
    return _build_validator(orjson.loads(key))


def _build_validator(schema: Any) -> Any:
    from jsonschema import validators
    from jsonschema.exceptions import SchemaError as JSONSchemaError
    from jsonschema.validators import validator_for

    cls = validator_for(schema)
    try:
        cls.check_schema(schema)
    except JSONSchemaError as exc:
        where = exc.json_path if exc.path else "$"
        raise InputError(f"not a valid JSON Schema at {where}: {exc.message}") from None
    # `pattern` under a time limit: a user's `(a+)+$` must not hang the funnel on a short reply
    bounded = validators.extend(cls, {"pattern": _bounded_pattern})
    return bounded(schema)


# How long one schema `pattern` may run on one value before it counts as not matching.
PATTERN_TIMEOUT_S = 0.1


def _bounded_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    import regex
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string"):
        return
    try:
        found = regex.search(pattern, instance, timeout=PATTERN_TIMEOUT_S)
    except TimeoutError:
        yield ValidationError(
            f"pattern {pattern!r} ran over {PATTERN_TIMEOUT_S} s on this value "
            "(catastrophic backtracking?); treated as not matching"
        )
        return
    except regex.error as exc:
        yield ValidationError(f"pattern {pattern!r} is not a regular expression: {exc}")
        return
    if found is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _field_types(schema: Any, model: Any) -> dict[str, str]:
    """Top-level property name -> JSON type name ("" when unknown), in declaration order."""
    if model is not None:
        try:
            schema = model.model_json_schema()
        except Exception:  # a model that cannot describe itself still validates
            return {name: "" for name in getattr(model, "model_fields", {})}
    if not isinstance(schema, dict):
        return {}
    props = schema.get("properties")
    if not isinstance(props, dict):
        return {}
    types: dict[str, str] = {}
    for name, prop in props.items():
        kind = prop.get("type", "") if isinstance(prop, dict) else ""
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "")
        if not kind and isinstance(prop, dict):
            for option in prop.get("anyOf", ()) or ():
                if isinstance(option, dict) and option.get("type") not in (None, "null"):
                    kind = option["type"]
                    break
        types[name] = kind if isinstance(kind, str) else ""
    return types


def _names(names: Sequence[str]) -> str:
    return ", ".join(repr(n) for n in names)
