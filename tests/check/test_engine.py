"""The engine: positions, configuration ([check] section), windows, allowlist, options."""

from __future__ import annotations

import pytest

from genlint import check_text
from genlint.check import CheckConfig, Checker
from genlint.check.rules import Hit, Rule, RuleContext
from genlint.errors import ConfigError
from genlint.findings import Severity


def test_offsets_lines_and_columns() -> None:
    text = "第一行没有问题\n第二行：某某公司\r\n第三行 邮箱 a.b@c.com"
    found = check_text(text)
    assert [(f.text, f.line, f.column) for f in found] == [
        ("某某公司", 2, 5),
        ("a.b@c.com", 3, 8),
    ]
    for f in found:
        assert text[f.start : f.end] == f.text


@pytest.mark.parametrize(
    ("section", "text", "expected"),
    [
        ({"allowlist": ["某某大学"]}, "某某大学与某某公司", ["某某公司"]),
        ({"ignore": ["placeholder/mou-entity"]}, "某某公司，13812345678", ["某某", "13812345678"]),
        ({"disable": ["sensitive"]}, "某某公司，13812345678", ["某某公司"]),
        ({"select": ["sensitive"]}, "某某公司，13812345678", ["13812345678"]),
        (
            {
                "patterns": [
                    {
                        "id": "placeholder/dai-ding",
                        "pattern": "待定",
                        "description": "待定 left in the text",
                    }
                ]
            },
            "金额待定",
            ["待定"],
        ),
    ],
)
def test_config_section(section: dict, text: str, expected: list[str]) -> None:
    assert [f.text for f in check_text(text, config=section)] == expected


def test_severity_override_by_rule_and_pack() -> None:
    cfg = {"severity": {"sensitive": "warning", "placeholder/mou-entity": "info"}}
    found = {f.rule: f.severity for f in check_text("某公司 13812345678", config=cfg)}
    assert found == {"placeholder/mou-entity": Severity.INFO, "sensitive/mobile": Severity.WARNING}


@pytest.mark.parametrize(
    ("section", "needle"),
    [
        ({"allowlist": "x", "colour": True}, "unknown key"),
        ({"allowlist": [1]}, "allowlist"),
        ({"severity": {"sensitive": "fatal"}}, "error, warning or info"),
        ({"severity": {"nopack/x": "info"}}, "names no pack"),
        (
            {"patterns": [{"id": "placeholder/x", "pattern": "(", "description": "d"}]},
            "regular expression",
        ),
        ({"patterns": [{"id": "nopack/x", "pattern": "a", "description": "d"}]}, "unknown pack"),
        (
            {"patterns": [{"id": "placeholder/Bad Name", "pattern": "a", "description": "d"}]},
            "name",
        ),
        ({"patterns": {"id": "placeholder/x"}}, "array of tables"),
    ],
)
def test_invalid_config_is_a_config_error(section: dict, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        CheckConfig.from_section(section)


class _EveryLine(Rule):
    """A rule with no trigger sees the whole text and the options."""

    id = "citation/test-option"
    description = "test"

    def find(self, text: str, ctx: RuleContext):  # type: ignore[no-untyped-def]
        assert ctx.windows is None
        if ctx.options.get("sources"):
            yield Hit(0, 1, message=f"{len(ctx.options['sources'])} sources")


def test_options_reach_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from genlint.check import rules

    monkeypatch.setitem(rules._loaded, "citation", [_EveryLine()])
    checker = Checker(select="citation", options={"sources": [{"id": 1}]})
    assert [f.message for f in checker.check("abc")] == ["1 sources"]
    assert Checker(select="citation").check("abc") == []


def test_windows_do_not_change_results() -> None:
    """Trigger windows are a speed hint only: the same findings as scanning everything."""
    from support.checkers import unwindowed_checker

    text = (
        ("正常的一行没有问题。\n" * 50)
        + "甲方某某公司，X年X月X日，电话13812345678\n"
        + "末行【】\n"
    )
    fast = Checker()
    slow = unwindowed_checker()
    expected = [f.to_dict() for f in slow.check(text)]
    assert len(expected) == 4
    assert [f.to_dict() for f in fast.check(text)] == expected


def test_markdown_text_skips_code_for_placeholders_only() -> None:
    reply = "尊敬的{name}：\n\n```\nprint('{name}', 13812345678)\n```\n"
    assert [f.text for f in check_text(reply)] == ["{name}", "{name}", "13812345678"]
    assert [f.text for f in check_text(reply, markdown=True)] == ["{name}", "13812345678"]


def test_findings_pickle_for_worker_processes() -> None:
    import pickle

    from genlint import check_text

    findings = check_text("甲方某某公司，电话13812345678")
    again = pickle.loads(pickle.dumps(findings))
    assert again == findings and [f.source_line for f in again] == [f.source_line for f in findings]


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.sampled_from(
    ["某某公司", "张某", "X年X月X日", "【】", "____", "姓名：", "  ", "\n", "13812345678", "正文",
     "110105194912310021", "11010519491231002X", "a@b.cn", "京A12345", "[姓名]", "{{x}}", "，"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=25).map("".join))
def test_short_texts_scanned_whole_find_what_windows_find(text: str) -> None:
    # up to 2,048 characters a text is scanned whole; longer ones through trigger windows: the
    # same text must give the same findings either way (the filler holds no trigger)
    from genlint.check.engine import Checker

    checker = Checker()
    filler = "正文内容。" * 500 + "\n\n"  # a paragraph and a blank line before the text
    short = [(f.rule, f.start, f.end) for f in checker.check(text)]
    long = [
        (f.rule, f.start - len(filler), f.end - len(filler))
        for f in checker.check(filler + text)
    ]
    assert short == long


def test_findings_are_light() -> None:
    # two million findings must fit in a few hundred MB: repeated texts, messages and lines are
    # shared, no dict per finding (was about 1,200 bytes each)
    import tracemalloc

    from genlint.check.engine import Checker

    checker = Checker()
    text = ("甲方某某公司于X年X月X日签订【】，" * 20 + "\n") * 100
    checker.check(text)  # compile and cache first
    tracemalloc.start()
    findings = checker.check(text)
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(findings) == 6000
    assert kept / len(findings) < 500, kept / len(findings)
