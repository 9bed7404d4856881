"""Issue 14 point 11: the rules page's "How to make these moves on this site" section.

Its entries follow from the document's mechanisms: Hordes of Change (pulls, change of owner, change of
shape, restrictions, repetition that loses), Andernach Chess (change of owner on a chess army), Orda
(promotion choices, campmate), chess (castling, promotion); nothing is switched by the variant's name.
"""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from hordes import load_variant
from hordes.web.howto import how_to

EXPECTED = {
    "hordes": {
        "A pull",
        "A capture that changes sides",
        "A change of shape",
        "Magnet markers",
        "Repetition warning",
    },
    "andernach": {"A capture that changes sides", "Castling", "Promotion"},
    "orda": {"Campmate", "Castling", "Promotion"},
    "chess": {"Castling", "Promotion"},
}
ALL = set().union(*EXPECTED.values())


@pytest.mark.parametrize("slug", EXPECTED)
def test_p11_how_to_entries_follow_the_mechanisms(client: TestClient, slug: str) -> None:
    page = client.get(f"/variants/{slug}")
    assert page.status_code == 200
    section = page.text.split('<section class="how-to" id="how-to">', 1)[1].split("</section>", 1)[0]
    titles = re.findall(r"<dt>(.*?)</dt>", section)
    assert titles[0] == "Moving and capturing"
    assert set(titles) & ALL == EXPECTED[slug]
    assert 'href="#how-to"' in page.text


def test_p11_promotion_names_the_documents_choices() -> None:
    text = {h.title: h.text for h in how_to(load_variant("orda"))}["Promotion"]
    assert "(Queen or Kheshig)" in text
    text = {h.title: h.text for h in how_to(load_variant("chess"))}["Promotion"]
    assert "(Queen, Rook, Bishop or Knight)" in text
