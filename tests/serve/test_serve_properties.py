"""Properties of the service's pure parts: streamed chunks and Dify's carry-over."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.mask import Masker
from genlint.serve.chat import ChatReply
from genlint.serve.dify import OutputCarry, moderate

MASKER = Masker("keep-ends")
PHONES = st.from_regex(r"1[3-9][0-9]{9}", fullmatch=True)
# no ASCII letters or digits beside the number: "13000000000a" is no phone number to the rules
FILLER = st.text(alphabet="您好，请联系我们的客服。谢谢 ", max_size=30)


@given(st.text(max_size=200))
def test_chunks_rebuild_the_text(text: str) -> None:
    body = {
        "id": "x",
        "created": 0,
        "model": "m",
        "choices": [{"finish_reason": "stop"}],
        "usage": {},
    }
    chunks = list(ChatReply(body, {}, text).chunks())
    assert "".join(c["choices"][0]["delta"].get("content", "") for c in chunks) == text
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"


@settings(max_examples=60, deadline=None)
@given(FILLER, PHONES, FILLER, st.data())
def test_a_value_split_across_pieces_never_reaches_the_user(
    before: str, phone: str, after: str, data: st.DataObject
) -> None:
    """Dify sends output in pieces: wherever the cuts fall, the whole number never comes out."""
    text = before + phone + after
    cuts = sorted(
        data.draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=4, unique=True))
    )
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True) if text[a:b]]
    carry = OutputCarry(64)
    out = []
    for piece in pieces:
        answer = moderate(
            {"point": "app.moderation.output", "params": {"app_id": "p", "text": piece}},
            MASKER,
            carry,
        )
        out.append(answer["text"] if answer["flagged"] else piece)
    assert phone not in "".join(out)


@settings(max_examples=30, deadline=None)
@given(FILLER, PHONES, FILLER)
def test_accumulated_text_is_checked_whole(before: str, phone: str, after: str) -> None:
    """Dify versions that send everything so far get the whole text masked."""
    text = before + phone + after
    carry = OutputCarry(64)
    moderate(
        {
            "point": "app.moderation.output",
            "params": {"app_id": "acc", "text": text[: len(before) + 5]},
        },
        MASKER,
        carry,
    )
    answer = moderate(
        {"point": "app.moderation.output", "params": {"app_id": "acc", "text": text}}, MASKER, carry
    )
    assert answer["flagged"] and phone not in answer["text"]
