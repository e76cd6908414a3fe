"""Invariants of masking (hypothesis): the sensitive pack finds nothing in masked output;
outside the masked spans the output is the input (txt, md, json); masking is idempotent;
keep-ends keeps length and grouping; token masking restores exactly."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import check_text
from genlint.check.rules.sensitive.checks import id_check_char
from genlint.mask import Masker, Vault, mask_text, unmask_text
from genlint.mask.files import mask_bytes

STYLES = ("keep-ends", "stars", "label", "token")
digits = st.text("0123456789", min_size=1, max_size=1)


@st.composite
def phone(draw: st.DrawFn) -> str:
    body = "1" + draw(st.sampled_from("3456789")) + draw(st.text("0123456789", min_size=9, max_size=9))
    sep = draw(st.sampled_from(["", " ", "-"]))
    prefix = draw(st.sampled_from(["", "+86", "+86 "]))
    return prefix + (body if not sep else sep.join((body[:3], body[3:7], body[7:])))


@st.composite
def resident_id(draw: st.DrawFn) -> str:
    region = draw(st.sampled_from(["110105", "310101", "440305", "510107"]))
    year = draw(st.integers(1950, 2005))
    month = draw(st.integers(1, 12))
    day = draw(st.integers(1, 28))
    seq = draw(st.text("0123456789", min_size=3, max_size=3))
    first = f"{region}{year:04d}{month:02d}{day:02d}{seq}"
    return first + id_check_char(first)


def _luhn_digit(partial: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            d = d - 9 if d > 9 else d
        total += d
    return str((10 - total % 10) % 10)


@st.composite
def card(draw: st.DrawFn) -> str:
    n = draw(st.sampled_from([16, 19]))
    partial = "62" + draw(st.text("0123456789", min_size=n - 3, max_size=n - 3))
    number = partial + _luhn_digit(partial)
    if draw(st.booleans()):
        return " ".join(number[i : i + 4] for i in range(0, n, 4))
    return number


email = st.builds(lambda a, b: f"{a}@{b}.com", st.from_regex(r"[a-z][a-z0-9.]{0,8}[a-z]", fullmatch=True),
                  st.from_regex(r"[a-z]{2,8}", fullmatch=True))
filler = st.lists(st.sampled_from([*"合同甲方乙方电话：，。 \n-*X<>_PHONE1", "<PHONE_1>", "<ID_2>"]),
                  max_size=12).map("".join)
pii = st.one_of(phone(), resident_id(), card(), email)
document = st.lists(st.tuples(filler, pii), max_size=5).map(lambda parts: "".join(a + b for a, b in parts))
anything = st.one_of(document, st.text(max_size=60), st.builds(lambda a, b: a + b, st.text(max_size=20), document))


def _sensitive(text: str) -> list[str]:
    return [f.rule for f in check_text(text, select="sensitive")]


@settings(max_examples=60, deadline=None)
@given(document, st.sampled_from(STYLES))
def test_masked_output_has_no_sensitive_findings(text: str, style: str) -> None:
    assert _sensitive(mask_text(text, style=style).text) == []


@settings(max_examples=60, deadline=None)
@given(anything, st.sampled_from(STYLES))
def test_outside_the_masked_spans_the_text_is_unchanged(text: str, style: str) -> None:
    result = mask_text(text, style=style)
    rebuilt, pos = [], 0
    for r in result.replacements:
        assert pos <= r.start
        rebuilt += [text[pos : r.start], r.replacement]
        pos = r.end
    rebuilt.append(text[pos:])
    assert "".join(rebuilt) == result.text


@settings(max_examples=40, deadline=None)
@given(document, st.sampled_from(STYLES))
def test_masking_is_idempotent(text: str, style: str) -> None:
    vault = Vault()
    once = mask_text(text, style=style, vault=vault).text
    assert mask_text(once, style=style, vault=vault).text == once


@settings(max_examples=60, deadline=None)
@given(document)
def test_keep_ends_keeps_length_and_grouping(text: str) -> None:
    for r in mask_text(text).replacements:
        value = text[r.start : r.end]
        assert len(r.replacement) == len(value) == r.original_length
        assert [c for c in value if not c.isalnum()] == [
            c for c in r.replacement if not c.isalnum() and c != "*"]
        assert [i for i, c in enumerate(value) if not c.isalnum()] == [
            i for i, c in enumerate(r.replacement) if not c.isalnum() and c != "*"]
        assert "*" in r.replacement


@settings(max_examples=80, deadline=None)
@given(anything)
def test_unmask_of_token_masking_is_exact(text: str) -> None:
    result = mask_text(text, style="token")
    assert result.vault is not None
    assert unmask_text(result.text, result.vault) == text
    # and through the vault file's JSON
    again = Vault(json.loads(result.vault.to_json())["tokens"])
    assert unmask_text(result.text, again) == text


@settings(max_examples=30, deadline=None)
@given(document, st.sampled_from([".txt", ".md"]), st.sampled_from(STYLES))
def test_text_files_are_byte_for_byte_outside_the_spans(text: str, suffix: str, style: str) -> None:
    data = text.encode("utf-8")
    out = mask_bytes("f" + suffix, data, Masker(style)).data.decode("utf-8")
    assert out == mask_text(text, style=style).text or style == "token"
    assert _sensitive(out) == []


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "电话"]), document), max_size=4),
       st.sampled_from(STYLES))
def test_json_masks_values_only_and_keeps_the_rest(items: list[tuple[str, str]], style: str) -> None:
    value = {"items": [{k: v, "n": i} for i, (k, v) in enumerate(items)]}
    data = json.dumps(value, ensure_ascii=bool(len(items) % 2), indent=1).encode()
    out = mask_bytes("f.json", data, Masker(style)).data
    masked = json.loads(out)
    assert [list(d) for d in masked["items"]] == [list(d) for d in value["items"]]
    for before, after in zip(value["items"], masked["items"], strict=True):
        for key in before:
            if isinstance(before[key], str):
                assert _sensitive(after[key]) == []
            else:
                assert after[key] == before[key]
    if not any(r for r in mask_bytes("f.json", data, Masker(style)).replacements):
        assert out == data
