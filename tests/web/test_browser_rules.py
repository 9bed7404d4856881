"""Issue 14 points 11 and 13 on the rules pages, in Debian's Chromium (test_browser.py's fixtures).

The teaching examples are drawn, the "how to make these moves" section is there, no diagram leaves a
blank under it inside its figure, and no rules page is wider than a phone (360-414 px). Screenshots
of the Hordes of Change page (rules-hoc-desktop.png at 1280x800, rules-hoc-phone.png at 390x844) go
to a temporary directory, or to $HORDES_SCREENSHOTS (docs/images) to refresh the documentation's.
"""

from __future__ import annotations

from typing import Any

from hordes import load_variant
from hordes.examples import examples
from tests.web.test_browser import base, browser, settle, shots, watch
from tests.web.test_browser_layout import fits, resize

__all__ = ["base", "browser", "shots"]  # fixtures used by name
DESKTOP = {"width": 1280, "height": 800}
PHONES = ({"width": 360, "height": 740}, {"width": 390, "height": 844}, {"width": 414, "height": 896})

# For each figure with a diagram: the gap between the lowest picture and what follows it inside the
# figure (its caption, or the figure's own bottom edge less its padding and border). A diagram whose
# box is taller than its picture, or a container stretched past its content, shows up as a large gap.
GAPS = """() => [...document.querySelectorAll('article figure.board, article figure.example')].map((f) => {
  const pics = [...f.querySelectorAll('svg')].map((s) => s.getBoundingClientRect());
  const lowest = Math.max(...pics.map((r) => r.bottom));
  const cap = f.querySelector('figcaption');
  const style = getComputedStyle(f);
  const inner = f.getBoundingClientRect().bottom - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth);
  const capGap = cap ? cap.getBoundingClientRect().top - lowest - parseFloat(getComputedStyle(cap).marginTop) : 0;
  const under = (cap ? inner - cap.getBoundingClientRect().bottom : inner - lowest);
  return {id: f.id, pics: pics.length, gap: Math.round(Math.max(capGap, under)),
          wide: Math.round(Math.max(...pics.map((r) => r.right)) - f.getBoundingClientRect().right)};
})"""


# The heading of the section the pull example belongs to, at the top of the window.
SCROLL_TO_MAGNETS = """() => { let e = document.querySelector('#example-pull');
  while (e.previousElementSibling && e.tagName !== 'H3') e = e.previousElementSibling;
  e.scrollIntoView({block: 'start'}); }"""


def test_p11_p13_rules_pages_show_the_examples_and_fit_every_screen(
    browser: Any, base: str, shots: Any
) -> None:
    context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    problems = watch(context)
    try:
        page = context.new_page()
        for slug in ("hordes", "orda"):
            variant = load_variant(slug)
            page.set_viewport_size(DESKTOP)
            page.goto(f"{base}/variants/{slug}")
            page.wait_for_load_state("load")
            ids = page.eval_on_selector_all("article figure.example", "(fs) => fs.map((f) => f.id)")
            assert sorted(ids) == sorted(f"example-{ex.name}" for ex in examples(variant))
            assert page.locator("article figure.example.broken").count() == 0
            titles = page.eval_on_selector_all("#how-to dt", "(ds) => ds.map((d) => d.textContent)")
            assert "Moving and capturing" in titles
            if slug == "hordes":
                assert {"A pull", "A capture that changes sides", "A change of shape"} <= set(titles)
            else:
                assert {"Campmate", "Promotion", "Castling"} <= set(titles)
            for size in (DESKTOP, *PHONES):
                resize(page, size)
                width = page.evaluate("() => document.documentElement.scrollWidth")
                assert fits(page), f"/variants/{slug} is {width} px wide at {size['width']} px"
                gaps = page.evaluate(GAPS)
                assert len(gaps) == len(ids) + 1  # the examples and the start diagram
                bad = [g for g in gaps if g["gap"] > 2 or g["wide"] > 0 or not g["pics"]]
                assert not bad, (slug, size, bad)
        # The screenshots: the magnets' section with its pull and restriction examples.
        page.goto(f"{base}/variants/hordes")
        for name, size in (("rules-hoc-desktop", DESKTOP), ("rules-hoc-phone", PHONES[1])):
            resize(page, size)
            page.evaluate(SCROLL_TO_MAGNETS)
            page.screenshot(path=str(shots / f"{name}.png"))
        settle(context)
    finally:
        context.close()
    assert not problems, problems
