"""The text cache keeps measured widths and wrapped lines (a frame measures the same strings again and again):
what it keeps is what the font measures, a scale change forgets it, and a caller may change the lines it got."""

from __future__ import annotations

from game.ui.widgets import TextCache

SENTENCE = "Mags declares a shot at Red Ulric along a row of hex edges past three friends and three enemies."


def test_kept_widths_and_lines_are_what_the_font_measures() -> None:
    text = TextCache(1.0)
    font = text.font(14)
    for _ in range(2):  # the second time from what was kept
        assert text.width(SENTENCE, 14) == font.size(SENTENCE)[0]
        lines = text.wrap(SENTENCE, 14, 200)
        assert len(lines) > 1 and " ".join(lines) == SENTENCE
        assert all(font.size(line)[0] <= 200 for line in lines)


def test_a_scale_change_forgets_what_was_measured_at_the_old_scale() -> None:
    text = TextCache(1.0)
    small = (text.width(SENTENCE, 14), text.wrap(SENTENCE, 14, 200))
    text.set_scale(1.5)
    large = (text.width(SENTENCE, 14), text.wrap(SENTENCE, 14, 200))
    assert large[0] == text.font(14).size(SENTENCE)[0] > small[0]
    assert len(large[1]) > len(small[1])


def test_lines_handed_out_are_the_callers_own() -> None:
    text = TextCache(1.0)
    text.wrap(SENTENCE, 14, 200).append("changed by a caller")
    assert "changed by a caller" not in text.wrap(SENTENCE, 14, 200)


def test_the_kept_measures_are_bounded() -> None:
    text = TextCache(1.0, max_entries=10)
    for i in range(50):
        text.width(f"line {i}", 12)
        text.wrap(f"line {i} of many words", 12, 40)
    assert len(text._widths) <= 10 and len(text._wraps) <= 10
