"""What a reference is, as a verb class: a ``writes:`` table is written, a ``calls:`` target does
what its name says (``Repository.find…`` reads, ``…Calculator`` computes, ``…Logger.info`` logs,
``…Producer.send`` sends). See docs/commands/eval.md, "Misalignment by verb class"."""

from __future__ import annotations

import re
from functools import lru_cache

# The first word of a method name, by class (camelCase and snake_case alike).
_METHOD_CLASS: dict[str, str] = {}
for _cls, _words in {
    "read": "find get query load fetch search select list count exists read lookup retrieve "
    "pull peek scan",
    "compute": "calculate calc compute score evaluate validate verify check hash encode decode "
    "parse format convert map to aggregate recognize estimate sum rate match encrypt sign",
    "write": "save insert update persist store put write merge upsert create add register "
    "record set mark increment decrement",
    "delete": "delete remove purge evict drop clear erase",
    "send": "send publish notify emit push dispatch submit post upload enqueue produce "
    "broadcast request",
    "log": "log info debug warn warning error trace audit",
}.items():
    for _w in _words.split():
        _METHOD_CLASS[_w] = _cls

# A class-name suffix that settles the class whatever the method (AuditLogger.write logs).
_SUFFIX_CLASS = (
    ("logger", "log"),
    ("calculator", "compute"),
    ("validator", "compute"),
    ("hasher", "compute"),
    ("encoder", "compute"),
    ("producer", "send"),
    ("publisher", "send"),
    ("sender", "send"),
    ("notifier", "send"),
)
_FIRST_WORD = re.compile(r"[a-z]+|[A-Z][a-z]*")

# Which verb classes each target class accepts. "call" always: 调用 X is right for any X.
ACCEPTS_BY_CLASS: dict[str, frozenset[str]] = {
    "read": frozenset({"call", "read", "compute"}),
    "compute": frozenset({"call", "read", "compute"}),
    # writing INTO a call (将订单写入 OrderRepository.save) is labelled misaligned; a paraphrase
    # of the target (持久化 for save) is accepted by the rule before the class is asked
    "write": frozenset({"call", "read", "compute", "send", "log"}),
    "delete": frozenset({"call", "delete", "write"}),
    "send": frozenset({"call", "send", "compute", "log"}),
    "log": frozenset({"call", "log", "write", "send"}),
    # a target whose name says nothing: what a call may do, short of writing or deleting
    "unknown": frozenset({"call", "read", "compute", "send", "log"}),
}


@lru_cache(maxsize=16384)
def call_class(target: str) -> str:
    """The verb class of a ``calls:`` target from its class and method names."""
    owner, _, method = target.rpartition(".")
    owner = owner.rsplit(".", 1)[-1].lower()
    for suffix, cls in _SUFFIX_CLASS:
        if owner.endswith(suffix):
            return cls
    words = _FIRST_WORD.findall(method.lstrip("_"))
    if words:
        found = _METHOD_CLASS.get(words[0].lower())
        if found is not None:
            return found
    return "unknown"
