"""``genlint rule [ID]``: what a rule flags, why it matters, examples, how to silence it."""

from __future__ import annotations

import sys

import click

from .options import config_option, exit_codes, format_option


@click.command("rule", epilog=exit_codes("never"))
@click.argument("rule_id", required=False, metavar="[ID]")
@format_option("text", "json")
@config_option
def command(rule_id: str | None, fmt: str, config_path: str | None) -> int:
    """Show the documentation of rule ID (e.g. placeholder/empty-slot), or list every rule."""
    from .._io import to_json
    from ..check import CheckConfig, Checker
    from ..check.rules import all_rules, did_you_mean
    from ..check.rules.docs import document, render_text
    from ..errors import UnknownRuleError

    config = CheckConfig.load(config_path)
    # the configured severity is the one a user sees in reports, so show that one
    checker = Checker(config=config)
    rules = [*all_rules(), *config.patterns]
    if rule_id is not None:
        rules = [rule for rule in rules if rule.id == rule_id or rule.pack == rule_id]
        if not rules:
            known = [r.id for r in [*all_rules(), *config.patterns]]
            hint = did_you_mean(rule_id, known, "see 'genlint rule' for the list")
            raise UnknownRuleError(f"unknown rule {rule_id!r} ({hint})")
    docs = [document(rule, str(checker.severity_of(rule))) for rule in rules]
    if fmt == "json":
        sys.stdout.write(to_json({"rules": [d.to_dict() for d in docs]}))
    elif rule_id is not None:
        sys.stdout.write("\n".join(render_text(doc) for doc in docs))
    else:
        width = max(len(doc.id) for doc in docs)
        for doc in docs:
            sys.stdout.write(f"{doc.id:<{width}}  {doc.severity:<7}  {doc.summary}\n")
        sys.stdout.write(
            "\n'genlint rule ID' shows why a rule matters, examples and how to silence it.\n"
        )
    return 0
