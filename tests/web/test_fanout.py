"""The fan-out's sends (web/fanout.py): every watcher that can take an event gets it, and the ones that
cannot (gone, or stalled past the timeout) are named, without holding up the rest."""

from __future__ import annotations

import asyncio

import pytest

from hordes.web import fanout


class Watcher:
    """A websocket's send side: it takes a text, has gone (raises), or never completes (stalls)."""

    def __init__(self, kind: str = "ok") -> None:
        self.kind = kind
        self.got: list[str] = []
        self.task: asyncio.Task[object] | None = None

    async def send_text(self, text: str) -> None:
        self.task = asyncio.current_task()
        if self.kind == "gone":
            raise RuntimeError("the socket is closed")
        if self.kind == "stalled":
            await asyncio.Event().wait()  # never set: the peer reads nothing
        self.got.append(text)


def test_each_watcher_gets_its_own_text_and_the_failed_ones_are_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fanout, "SEND_TIMEOUT", 0.01)
    ok1, gone, stalled, ok2 = Watcher(), Watcher("gone"), Watcher("stalled"), Watcher()
    failed = asyncio.run(fanout.send_each([ok1, gone, stalled, ok2], ["a", "b", "c", "d"]))  # type: ignore[list-item]
    assert failed == [gone, stalled]
    assert (ok1.got, ok2.got, gone.got, stalled.got) == (["a"], ["d"], [], [])


@pytest.mark.parametrize("kind", ["ok", "gone", "stalled"])
def test_one_watcher_is_sent_to_in_the_callers_task(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fanout, "SEND_TIMEOUT", 0.01)
    ws = Watcher(kind)

    async def run() -> tuple[list[object], object]:
        failed = await fanout.send_each([ws], ["x"])  # type: ignore[list-item]
        return list(failed), asyncio.current_task()

    failed, caller = asyncio.run(run())
    assert failed == ([] if kind == "ok" else [ws])
    assert ws.got == (["x"] if kind == "ok" else [])
    assert ws.task is caller  # no task of its own, as with two or more watchers
