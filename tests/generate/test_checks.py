"""Built-in checks (genlint's own engines behind the gate's check interface)."""

from __future__ import annotations

from typing import Any

import pytest

from generate.helpers import load
from genlint.generate import Gate, citation_check, json_check, pack_check
from genlint.llm import OpenAICompatible
from genlint.llm.testing import Reply, ScriptedServer

CASES = load("builtin_checks.json")


def _build(case: dict[str, Any]) -> Any:
    if case["check"] == "pack":
        return pack_check(case["select"])
    if case["check"] == "json":
        return json_check(schema=case["schema"])
    return citation_check(case["sources"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_builtin_check(case: dict[str, Any]) -> None:
    text = case["text"]
    findings = _build(case)(text)
    assert [f.text for f in findings] == case["texts"]
    assert sorted({f.pack for f in findings}) == case["packs"]
    for f in findings:
        assert text[f.start : f.end] == f.text, "spans point into the checked text"
        assert f.line >= 1 and f.column >= 1


def test_gate_with_named_packs_reasks_until_clean() -> None:
    script = [
        Reply("甲方某某公司，电话13812345678。"),
        Reply("甲方华夏建设有限公司，电话138****5678。"),
    ]
    with ScriptedServer(script) as server:
        result = Gate("placeholder,sensitive").run(
            OpenAICompatible("m", server.url, "K"), "写甲方信息"
        )
        ask = server.requests[1]["messages"][-1]["content"]
    assert result.status == "reasked"
    assert "“某某公司”" in ask and "“13812345678”" in ask
    assert "脱敏" in ask, "personal data is asked to be masked, not filled in"
    assert {f.pack for f in result.attempts[0].findings} == {"placeholder", "sensitive"}


def test_own_checks_read_a_short_reply_inline_and_others_on_a_watchdog_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """genlint's checks on a short reply run in the gate's thread (the async gate would otherwise
    start a thread per reply on its event loop); a user's check, or a long reply, still runs on
    a thread the deadline can abandon."""
    import threading

    import genlint.generate.session as session

    seen: list[str] = []
    real = session.run_checks

    def spy(checks: Any, text: str) -> Any:
        seen.append(threading.current_thread().name)
        return real(checks, text)

    monkeypatch.setattr(session, "run_checks", spy)

    def mine(text: str) -> list[Any]:
        return []

    short, long = "合同正文。", "合同正文。" * (session.INLINE_CHECK_CHARS // 5 + 1)
    for checks, reply in (("placeholder,sensitive", short), (mine, short), ("placeholder", long)):
        Gate(checks, deadline_s=30).run(lambda messages, r=reply: r, "写合同")
    here = threading.current_thread().name
    assert seen[0] == here
    assert seen[1] != here and seen[1].startswith("genlint-check")
    assert seen[2] != here and seen[2].startswith("genlint-check")


def test_a_pack_check_chooses_its_rules_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import genlint.check.engine as engine

    built: list[object] = []
    real_init = engine.Checker.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(engine.Checker, "__init__", counting)
    check = pack_check(["placeholder"])
    found = [check("甲方：【】") for _ in range(5)]
    assert len(built) == 1
    assert all(f and f[0].rule.startswith("placeholder/") for f in found)
