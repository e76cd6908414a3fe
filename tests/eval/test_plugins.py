"""Third-party rules through the ``genlint.eval_rules`` entry-point group, installed for real
as a distribution (a dist-info folder on sys.path)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from genlint.eval import evaluate
from genlint.eval.rules import builtin_rules

CASE = Path(__file__).parents[1] / "fixtures" / "eval" / "cases" / "requirement_example_complete"

PLUGIN = '''
class TodoMarker:
    """A claim still holding a TODO the generator left behind."""

    reason = "todo_marker"
    counts_as = "unfaithful"

    def check(self, ctx):
        return "'TODO'" if "TODO" in ctx.text else None
'''


def _install(root: Path, module: str, source: str, target: str) -> None:
    (root / f"{module}.py").write_text(textwrap.dedent(source), "utf-8")
    info = root / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n", "utf-8"
    )
    (info / "entry_points.txt").write_text(f"[genlint.eval_rules]\n{target}\n", "utf-8")


@pytest.fixture
def wiki_with_todo() -> dict:
    wiki = json.loads((CASE / "wiki.json").read_text("utf-8"))
    wiki["claims"][1]["text"] += " TODO: describe the rollback"
    return wiki


def test_plugin_rule_is_loaded_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, wiki_with_todo: dict
) -> None:
    _install(tmp_path, "genlint_todo_rule", PLUGIN, "todo_marker = genlint_todo_rule:TodoMarker")
    monkeypatch.syspath_prepend(str(tmp_path))
    facts = json.loads((CASE / "facts.json").read_text("utf-8"))
    result = evaluate(facts, wiki_with_todo)
    assert [(v.claim_index, v.reason, v.detail) for v in result.violations] == [
        (1, "todo_marker", "'TODO'")
    ]
    assert result.metrics.faithfulness == 0.75 and result.passed is False
    # disabling it by reason restores the built-in verdict
    assert evaluate(facts, wiki_with_todo, disable=["todo_marker"]).passed is True


def test_without_the_plugin_only_builtins_run(wiki_with_todo: dict) -> None:
    facts = json.loads((CASE / "facts.json").read_text("utf-8"))
    assert evaluate(facts, wiki_with_todo).violations == ()
    assert [r.reason for r in builtin_rules()] == [
        "missing_ref",
        "invalid_ref",
        "misaligned",
        "over_inference",
        "redundant",
    ]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("raise ImportError('boom')\n", "failed to load: boom"),
        ("class TodoMarker:\n    pass\n", "needs a 'reason' string"),
        (
            "class TodoMarker:\n    reason = 'x'\n    counts_as = 'severe'\n    def check(self, ctx): return None\n",
            "counts_as must be one of",
        ),
    ],
)
def test_broken_plugin_is_a_clear_error(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, message: str
) -> None:
    # a module name per case: an imported module stays in sys.modules
    module = f"genlint_bad_rule_{abs(hash(source))}"
    _install(tmp_path, module, source, f"bad = {module}:TodoMarker")
    monkeypatch.syspath_prepend(str(tmp_path))
    result = run_cli("eval", "--facts", str(CASE / "facts.json"), "--wiki", str(CASE / "wiki.json"))
    assert result.code == 2
    assert result.err.count("\n") == 1 and message in result.err


def test_builtin_rules_document_themselves() -> None:
    """Each rule's docstring is its one-line description (used in docs)."""
    for rule in builtin_rules():
        doc = (type(rule).__doc__ or "").strip()
        assert doc and "\n" not in doc, rule.reason


@pytest.mark.parametrize("rule", builtin_rules(), ids=lambda r: r.reason)
def test_builtin_rule_examples(rule) -> None:
    """Each built-in rule documents a bad and a good claim; the bad one is flagged, the good not."""
    facts = json.loads((CASE / "facts.json").read_text("utf-8"))
    for example, flagged in ((rule.example_bad, True), (rule.example_good, False)):
        wiki = {"method": "changeHogosyaJoho", "claims": [json.loads(example)]}
        reasons = [v.reason for v in evaluate(facts, wiki).violations]
        assert (rule.reason in reasons) is flagged, (example, reasons)
