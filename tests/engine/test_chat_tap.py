"""The chat tap: what is the proxy's, and the fast-path predicate never hides one."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.chat_tap import ChatKind, classify, classify_command, may_be_addressed

texts = st.one_of(
    st.text(max_size=40),
    st.builds(lambda p, t: p + t, st.sampled_from(["!", "/", "@ai ", "@AI ", "/ai ", "/agent ", "@a", "!!"]),
              st.text(max_size=20)),
)


@given(texts, st.sampled_from(["!", "#", "mc!"]), st.sampled_from(["@ai ", "@bot ", "hey ai "]))
def test_fast_path_predicate_is_a_superset_of_the_tap(text: str, command: str, address: str) -> None:
    if classify(text, command, address).kind is not ChatKind.PASS:
        assert may_be_addressed(text, command, address)


def test_classify_examples() -> None:
    assert classify("!ping").kind is ChatKind.COMMAND
    assert classify("@AI where am I").body == "where am I"
    assert classify("/ai hi").kind is ChatKind.ASSISTANT
    assert classify("/agent").body == "help"
    assert classify("/tp 1 2 3").kind is ChatKind.PASS
    assert classify("! spaced").kind is ChatKind.PASS
    assert classify_command("gamemode creative").kind is ChatKind.PASS
    assert not may_be_addressed("hello world")
