"""Strings exactly as RFC 8259 says, also through json-repair.

json-repair decodes string escapes its own way: it drops a ``\\n`` at the end of a string, keeps
``\\f`` and ``\\/`` as two characters, and leaves escaped surrogate pairs as two lone surrogates.
It also drops a raw line break at the end of a string and decodes single-quoted strings its own
way. So before it sees the text, every well-formed string token that holds an escape, a raw
control character or single quotes is swapped for a short stand-in, and after it the stand-ins
are replaced by the tokens decoded by one decoder, :func:`decode_string` (pairs joined, a lone
surrogate kept only where the input has one). A token counts only where a JSON string can stand
(after ``{ [ , :`` or a comment, and before ``: , ] }``), so a quote the model forgot to escape
does not make the swap cut a string in two; such strings stay json-repair's.
"""

from __future__ import annotations

import json
import re
from typing import Any

# A string token where a JSON string can stand: after { [ , : or a comment, before : , ] } or
# the end. Double-quoted ones may hold raw control characters (a raw line break, which
# json-repair drops at the end of a string); single-quoted ones any escape, and apostrophes
# between letters (don't, O'Brien's), which cannot end a string that JSON syntax must follow.
_STRING_TOKEN = re.compile(
    r"(?P<pre>[{\[,:]|\*/|//[^\n]*\n)(?P<gap>\s*)"
    r'(?P<token>"(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"'
    r"|'(?:[^'\\\n]|\\.|(?<=\w)'(?=\w))*')"
    r"(?=\s*(?:[:,\]}]|//|/\*|\Z))"
)
_UNESCAPED_DOUBLE = re.compile(r'(?<!\\)((?:\\\\)*)"')
_RAW_CONTROL = re.compile(r"[\x00-\x1f]")
_OPEN, _CLOSE = "\ue000", "\ue001"
_STAND_IN = re.compile(f"{_OPEN}([0-9]+){_CLOSE}")


def decode_string(token: str) -> str | None:
    """The value of one string token, in double or single quotes, as RFC 8259 decodes its
    escapes (raw control characters kept as written); None when an escape is not JSON's."""
    body = token[1:-1]
    if token[0] == "'":
        # \' is an escaped apostrophe; a bare " is a character of the string
        body = _UNESCAPED_DOUBLE.sub(r'\1\\"', body.replace("\\'", "'"))
    try:
        value = json.loads('"' + body + '"', strict=False)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


# A single-quoted string cut off by the end of the reply, where a JSON string can stand.
_CUT_SINGLE = re.compile(r"(?P<pre>[{\[,:])(?P<gap>\s*)'(?P<body>(?:[^'\\\n]|\\.)*\\?)\Z")


def requote(text: str) -> tuple[str, list[int], list[int]]:
    """``(text, where single-quoted strings were rewritten, where strings with raw control
    characters were)``, offsets in the given text: every such string token at a JSON string
    position written as the standard
    double-quoted JSON string of its value, so the strict parser and the linear repairs can read
    the rest; a single-quoted string cut off at the end becomes an open double-quoted one."""
    if "'" not in text and not _RAW_CONTROL.search(text):
        return text, [], []
    singles: list[int] = []
    breaks: list[int] = []

    def rewrite(match: re.Match[str]) -> str:
        token = match.group("token")
        single = token[0] == "'"
        if not single and not _RAW_CONTROL.search(token):
            return match.group()
        value = decode_string(token)
        if value is None:
            return match.group()
        (singles if single else breaks).append(match.start("token"))
        return match.group("pre") + match.group("gap") + json.dumps(value, ensure_ascii=False)

    cut_in_given = _CUT_SINGLE.search(text, max(0, len(text) - 4096))
    text = _STRING_TOKEN.sub(rewrite, text)
    cut = _CUT_SINGLE.search(text, max(0, len(text) - 4096))
    if cut is not None and cut_in_given is not None:
        body = cut.group("body")
        value = decode_string("'" + body.rstrip("\\") + "'")
        if value is not None:
            singles.append(cut_in_given.end("gap"))
            text = (
                text[: cut.start("gap")]
                + cut.group("gap")
                + json.dumps(value, ensure_ascii=False)[:-1]
            )
    return text, singles, breaks


def protect(text: str) -> tuple[str, list[str]]:
    """``text`` with string tokens that json-repair would decode differently (escapes, raw
    control characters, single quotes) swapped for stand-ins, and the decoded originals."""
    if _OPEN in text or ("\\" not in text and "'" not in text and not _RAW_CONTROL.search(text)):
        return text, []
    originals: list[str] = []

    def swap(match: re.Match[str]) -> str:
        token = match.group("token")
        if "\\" not in token and (token[0] == "'" or not _RAW_CONTROL.search(token)):
            return match.group()  # json-repair reads a plain string right
        value = decode_string(token)
        if value is None:
            return match.group()
        originals.append(value)
        return f'{match.group("pre")}{match.group("gap")}"{_OPEN}{len(originals) - 1}{_CLOSE}"'

    return _STRING_TOKEN.sub(swap, text), originals


def restore(value: Any, originals: list[str]) -> Any:
    """``value`` with every stand-in (as a whole string or inside one) replaced by its original."""
    if not originals:
        return value

    def put_back(text: str) -> str:
        if _OPEN not in text:
            return text
        return _STAND_IN.sub(lambda m: originals[int(m.group(1))], text)

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            return put_back(node)
        if isinstance(node, dict):
            return {put_back(k) if isinstance(k, str) else k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    return walk(value)
