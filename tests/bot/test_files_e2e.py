"""Pictures and files end to end: the real bot, polling the fake Bot API, which takes
multipart uploads under Telegram's limits and serves getFile and its downloads."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

from bot.console.fake_api import (
    MAX_CAPTION,
    MAX_DOWNLOAD,
    MAX_PHOTO,
    ApiError,
    FakeBotAPI,
    SentMessage,
    Upload,
)
from bot.pictures import drawing
from storage.services.open_nights import MAX_PEOPLE
from tests.bot.harness import Chat, Table, plain, table
from tests.bot.test_language import check
from tests.bot.test_pictures import png_size
from tests.storage.test_chat_files import crowded

pytestmark = pytest.mark.pictures  # rasterized (tests/bot/conftest.py)

NEW = "/new chengdu @alice @bob @carol @dave"
OTHER = -100600


async def _play(t: Table) -> None:
    await t.say("alice", NEW)
    for report in ("/hu bob 自摸 清一色", "/hu carol from alice", "/hu dave 自摸",
                   "/hu alice 自摸 七对", "/hu carol from bob", "/hu dave from bob"):
        await t.say("alice", report)


def _files(sent: list[SentMessage], kind: str) -> list[SentMessage]:
    return [m for m in sent if m.kind == kind]


async def _upload(t: Chat, who: str, chat_id: int, data: bytes, caption: str | None,
                  filename: str = "ledger.zip") -> list[SentMessage]:
    before = len(t.api.outbox)
    await t.settle(t.api.send_file(t.user(who), chat_id, data, filename, caption=caption))
    return t.api.outbox[before:]


async def _count(t: Table, chat_id: int) -> tuple[int, int]:
    history = await t.ledger.nights.history(chat_id)
    return history.total, len(await t.ledger.lookback.standings(chat_id))


async def test_chart_and_the_end_send_pictures(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        out = await t.say("alice", "/chart")
        assert "No night has been played" in plain(out[0].text)
        await _play(t)
        out = await t.say("bob", "/chart")
        (photo,) = _files(out, "photo")
        assert png_size(photo.data) == drawing.CHART_SIZE
        assert photo.filename == "night-1.png" and "Night 1" in (photo.caption or "")
        out = await t.say("bob", "/chart 7")
        assert "There is no night 7" in plain(out[0].text)
        out = await t.say("bob", "/chart x y")
        assert "Example: /chart" in plain(out[0].text)
        out = await t.say("alice", "/end")
        assert "The night is over" in plain(out[0].text)
        chart, card = _files(out, "photo")
        assert png_size(chart.data) == drawing.CHART_SIZE
        assert png_size(card.data) == drawing.CARD_SIZE
        assert card.filename == "settle-up-1.png" and "→" in (card.caption or "")
        out = await t.say("carol", "/standings chart")
        (photo,) = _files(out, "photo")
        assert png_size(photo.data) == drawing.CHART_SIZE
        out = await t.say("carol", "/stats chart @bob")
        (photo,) = _files(out, "photo")
        assert png_size(photo.data) == drawing.CHART_SIZE
        out = await t.say("carol", "/stats @bob")  # the text is still there
        assert "Statistics for bob" in plain(out[0].text)
        assert t.api.errors == []


async def test_a_chinese_chat_gets_chinese_captions(tmp_path: Path) -> None:
    async with table(tmp_path, lang="zh-Hans") as t:
        await _play(t)
        out = await t.say("alice", "/end")
        chart, card = _files(out, "photo")
        assert "第 1 场" in (chart.caption or "") and "付给" not in (chart.caption or "")
        assert png_size(card.data) == drawing.CARD_SIZE


async def test_export_import_export_gives_the_same_bytes(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await _play(t)
        await t.say("alice", "/void 2")
        await t.say("alice", "/end")
        await t.say("alice", NEW)
        await t.say("alice", "/hu bob 自摸")
        out = await t.say("dave", "/export")
        (doc,) = _files(out, "document")
        assert doc.filename == "mahjong-tally.zip" and "/import" in (doc.caption or "")
        with zipfile.ZipFile(io.BytesIO(doc.data)) as zf:
            assert zf.namelist() == ["players.csv", "sessions.csv", "hands.csv", "events.csv",
                                     "entries.csv", "debts.csv", "audit.csv"]
        again = _files(await t.say("dave", "/export"), "document")[0]
        assert again.data == doc.data
        one = _files(await t.say("dave", "/export 1"), "document")[0]
        assert one.filename == "mahjong-tally-night-1.zip" and one.data != doc.data

        # Into an empty chat: a preview with buttons, nothing written before the press.
        t.api.chat(OTHER).admins.add(t.user("erin").id)
        out = await _upload(t, "erin", OTHER, doc.data, "/import")
        (preview,) = out
        assert "2 night(s), 3 hand(s) and 4 player(s)" in plain(preview.text)
        assert [b["text"] for b in preview.buttons] == ["Import", "Cancel"]
        assert await _count(t, OTHER) == (0, 0)
        confirm = preview.buttons[0]["callback_data"]
        await t.press("erin", preview, confirm)
        edited = t.api.messages[(OTHER, preview.message_id)]
        assert "Imported 2 night(s), 3 hand(s)" in plain(edited.text) and not edited.buttons
        out = await t.say("erin", "/export", chat_id=OTHER)
        assert _files(out, "document")[0].data == doc.data
        # The imported open night goes on.
        out = await t.say("alice", "/hu carol 自摸", chat_id=OTHER)
        assert any("Hand 1 recorded" in plain(m.text) for m in out)
        # A second press does nothing.
        await t.press("erin", preview, confirm)
        assert "out of date" in list(t.api.answered.values())[-1]["text"]
        assert t.api.errors == []


async def test_import_refusals_write_nothing(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        await _play(t)
        data = _files(await t.say("alice", "/export"), "document")[0].data
        third = OTHER - 1
        t.api.chat(third).admins.add(t.user("erin").id)

        out = await _upload(t, "mallory", third, data, "/import")  # not an admin
        assert "Only chat admins can import" in plain(out[0].text)
        out = await _upload(t, "erin", t.chat_id, data, "/import")  # erin: not admin here
        assert "Only chat admins can import" in plain(out[0].text)
        t.admin("erin")
        out = await _upload(t, "erin", t.chat_id, data, "/import")  # a chat with a ledger
        assert "already has a ledger" in plain(out[0].text)
        out = await _upload(t, "erin", third, b"not a zip", "/import")
        assert "cannot be imported (zip: not a zip file)" in plain(out[0].text)
        broken = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(broken, "w") as dst:
            for name in src.namelist():
                text = src.read(name)
                if name == "hands.csv":
                    text = text.replace(b",closed,", b",won,", 1)
                dst.writestr(name, text)
        out = await _upload(t, "erin", third, broken.getvalue(), "/import")
        assert "cannot be imported (hands.csv:2" in plain(out[0].text)
        out = await t.say("erin", "/import", chat_id=third)  # nothing to import
        assert "caption /import" in plain(out[0].text)
        big = b"x" * (MAX_DOWNLOAD + 1)
        out = await _upload(t, "erin", third, big, "/import")
        assert "over 20 MB" in plain(out[0].text)
        assert await _count(t, third) == (0, 0)

        # A reply /import to the file works; Cancel writes nothing.
        before = len(t.api.outbox)
        uid = t.api.send_file(t.user("erin"), third, data, "ledger.zip")
        await t.settle(uid)
        assert len(t.api.outbox) == before  # a zip without the caption is not a command
        mid = max(k[1] for k in t.api.user_messages if k[0] == third)
        await t.settle(t.api.say_reply(t.user("erin"), third, "/import", mid))
        preview = t.last_with_buttons()
        assert "1 night(s), 2 hand(s)" in plain(preview.text)
        await t.press("mallory", preview, preview.buttons[0]["callback_data"])
        assert "Only chat admins" in list(t.api.answered.values())[-1]["text"]
        await t.press("erin", preview, preview.buttons[1]["callback_data"])
        assert "nothing was written" in plain(t.api.messages[(third, preview.message_id)].text)
        assert await _count(t, third) == (0, 0)
        assert t.api.errors == []  # the 20 MB file was refused by its size, never fetched



async def test_a_night_of_too_many_people_is_not_imported(tmp_path: Path) -> None:
    """A file whose night holds more people than a night may is refused in the chat's
    words, naming the night and the limit, before any button; nothing is written."""
    async with table(tmp_path, lang="zh-hans") as t:
        await t.say("alice", NEW)
        await t.say("alice", "/hu bob 自摸 清一色")
        await t.say("alice", "/end")
        data = _files(await t.say("alice", "/export"), "document")[0].data
        t.api.chat(OTHER).admins.add(t.user("erin").id)
        await t.say("erin", "/lang zh-hans", chat_id=OTHER)
        out = await _upload(t, "erin", OTHER, crowded(data, MAX_PEOPLE + 1), "/import")
        (refusal,) = out
        assert f"第 1 场的人数超过了一场最多 {MAX_PEOPLE} 人" in plain(refusal.text)
        check(out, "/import", "a night of too many people")
        assert not refusal.buttons and await _count(t, OTHER) == (0, 0)
        await t.say("erin", "/lang en", chat_id=OTHER)
        out = await _upload(t, "erin", OTHER, crowded(data, MAX_PEOPLE + 1), "/import")
        assert f"its night 1 holds more than {MAX_PEOPLE} people" in plain(out[0].text)
        assert await _count(t, OTHER) == (0, 0) and t.api.errors == []

async def test_the_fake_enforces_telegrams_file_limits() -> None:
    api = FakeBotAPI()
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 100
    msg = await api.call("sendPhoto", {"chat_id": 1, "photo": Upload("a.png", png),
                                       "caption": "c" * MAX_CAPTION})
    assert msg["photo"] and api.outbox[-1].data == png and api.outbox[-1].filename == "a.png"
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("sendPhoto", {"chat_id": 1, "photo": Upload("a.png", png),
                       "caption": "c" * (MAX_CAPTION + 1)}, "caption is too long"),
        ("sendPhoto", {"chat_id": 1, "photo": Upload("a.png", png + b"0" * MAX_PHOTO)},
         "Too Large"),
        ("sendPhoto", {"chat_id": 1, "photo": Upload("a.png", b"GIF89a")}, "IMAGE_PROCESS"),
        ("sendPhoto", {"chat_id": 1, "photo": "some-url"}, "no photo"),
        ("sendDocument", {"chat_id": 1, "document": Upload("a.zip", b"")}, "non-empty"),
        ("sendDocument", {"chat_id": 1, "document": Upload("a.zip", b"1"),
                          "caption": "<b>", "parse_mode": "HTML"}, "can't parse"),
        ("getFile", {"file_id": "nope"}, "invalid file_id"),
    ]
    for method, params, wanted in cases:
        with pytest.raises(ApiError) as err:
            await api.call(method, params)
        assert wanted in err.value.description, method
    doc = await api.call("sendDocument", {"chat_id": 1, "document": Upload("a.zip", b"PK")})
    got = await api.call("getFile", {"file_id": doc["document"]["file_id"]})
    assert api.download(got["file_path"]) == (200, b"PK")


def test_base_file_url_is_configured_beside_base_url(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.app import build_application
    from bot.ops.config import load_settings

    monkeypatch.setenv("TALLY_TELEGRAM__BASE_URL", "http://127.0.0.1:8081/bot")
    monkeypatch.setenv("TALLY_TELEGRAM__BASE_FILE_URL", "http://127.0.0.1:8081/file/bot")
    settings = load_settings(Path(__file__).resolve().parents[2] / "config.example.toml")
    assert settings.telegram.base_file_url == "http://127.0.0.1:8081/file/bot"
    app = build_application(settings, token="1:A")
    assert app.bot.base_file_url == "http://127.0.0.1:8081/file/bot1:A"
    assert app.bot.base_url == "http://127.0.0.1:8081/bot1:A"
