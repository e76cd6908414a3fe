"""``placeholder`` pack: unfilled template slots (docs/commands/check.md "What is a placeholder").

Pattern rules are in ``rules.toml``; rules that need context are code: the 某 rules
(:mod:`.mou`), X/○ marks (:mod:`.marks`), slot labels (:mod:`.labels`) and empty form fields (:mod:`.fields`).
"""

from __future__ import annotations

from pathlib import Path

from .. import Rule, load_pattern_rules


def rules() -> list[Rule]:
    from .fields import EmptyField
    from .labels import SlotLabel
    from .marks import CircleValue, XValue
    from .mou import MouEntity, MouMou, MouName

    code: list[Rule] = [MouEntity(), MouMou(), MouName(), XValue(), CircleValue(), SlotLabel()]
    code.append(EmptyField())
    from .signature import quiet_on_signature_lines

    patterns: list[Rule] = []
    for rule in load_pattern_rules("placeholder", Path(__file__).with_name("rules.toml")):
        if rule.id == "placeholder/underscore-blank":
            # a rule line after Signature:/签字： is where a person signs (docs/commands/check.md)
            rule = quiet_on_signature_lines(rule)
        patterns.append(rule)
    return [*code, *patterns]
