"""The Mini App's routes: its page and assets, and a small JSON API, under the path of
``webapp.public_url`` (``/app`` by default).

Every API request carries ``Authorization: tma <initData>``; it is answered only when the
init data is Telegram's for this bot and fresh (401 otherwise), its ``start_param`` names a
chat the bot signed, and the user is a member of that chat (403 otherwise). Members read;
recording, undoing and marking a debt paid go into the group as the user's own commands
(:func:`bot.webapp.entry.submit`), refused here first (403) unless the chat would take
them from this user (an undo: only from who reported the last event, or an admin, by the
ledger's own rule). A refused request writes nothing.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl

from pydantic import ValidationError
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, Router
from telegram.error import TelegramError

from bot.ops.application import AnyApp
from bot.ops.config import Settings
from bot.text.i18n import is_chinese, normalise_language
from bot.webapp import access, entry, views
from bot.webapp.auth import AuthError, InitData, chat_of, validate
from bot.webapp.form import Form
from bot.webapp.strings import strings
from storage.errors import LedgerError
from storage.ledger import Claimed
from storage.models import NightInfo, PlayerInfo

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
# A write's idempotency key, made by the app when its form was opened (random, URL-safe).
KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
JS = "text/javascript; charset=utf-8"
# The page's script, each family's own part of the entry form, and the style.
ASSETS = {"app.js": JS, "form-singapore.js": JS, "form-mcr.js": JS, "form-hongkong.js": JS,
          "app.css": "text/css; charset=utf-8"}
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _asset(name: str) -> bytes:
    return (resources.files("bot.webapp") / "static" / name).read_bytes()


class Caller:
    """An authorised request: who, in which chat, and the services to answer with."""

    def __init__(self, init: InitData, chat_id: int, member: access.Member, lang: str,
                 application: AnyApp) -> None:
        self.init = init
        self.chat_id = chat_id
        self.member = member
        self.lang = lang
        self.application = application

    @property
    def ledger(self) -> Any:
        return self.application.bot_data["services"].ledger

    async def night(self) -> NightInfo | None:
        return await self.ledger.open_nights.current_night(self.chat_id)  # type: ignore[no-any-return]


def _guess_language(header: str, default: str) -> str:
    """The language of a refusal: from the (unchecked) init data, only to choose words."""
    try:
        user = json.loads(dict(parse_qsl(header.removeprefix("tma "))).get("user", "{}"))
        code = user.get("language_code") if isinstance(user, dict) else None
    except ValueError:
        code = None
    return normalise_language(code if isinstance(code, str) else None, default)


def routes(application: AnyApp, settings: Settings,
           members: access.Members | None = None) -> list[BaseRoute]:
    """The Mini App's routes, mounted at ``settings.webapp.path``."""
    token = application.bot.token
    max_age = settings.webapp.init_data_max_age_seconds
    default = settings.default_language
    known = members or access.Members(application.bot, frozenset(settings.admins))
    base = settings.webapp.path
    page = _asset("index.html").replace(b"{{base}}", base.encode())
    assets = {name: _asset(name) for name in ASSETS}

    def refusal(status: int, code: str, lang: str) -> JSONResponse:
        words = strings(lang)
        message = {401: words[code] if code in words else words["expired"],
                   403: words[code] if code in words else words["forbidden"]
                   }.get(status, words["failed"])
        return JSONResponse({"error": code, "message": message}, status_code=status,
                            headers=HEADERS)

    Handler = Callable[[Request, Caller], Awaitable[Any]]
    scripts: dict[int, tuple[float, str]] = {}

    async def script(chat_id: int, lang: str) -> str:
        """A Chinese reader sees the chat's script (a zh-Hant chat: Traditional); the
        chat's language is read once in :data:`access.MEMBER_SECONDS`."""
        if not is_chinese(lang):
            return lang
        hit = scripts.get(chat_id)
        if hit is None or hit[0] <= time.monotonic():
            ledger = application.bot_data["services"].ledger
            said = (await ledger.chats.chat(chat_id, lang)).language
            if len(scripts) >= access.MAX_ENTRIES:
                scripts.clear()
            hit = scripts[chat_id] = (time.monotonic() + access.MEMBER_SECONDS, said)
        return hit[1] if is_chinese(hit[1]) else lang

    def api(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            header = request.headers.get("authorization", "")
            lang = _guess_language(header, default)
            try:
                if not header.startswith("tma "):
                    raise AuthError(401, "no tma authorization")
                init = validate(header[4:], token, max_age)
                lang = normalise_language(init.language_code, default)
                chat_id = chat_of(token, init.start_param)
                member = await known.check(chat_id, init)
                lang = await script(chat_id, lang)
                result = await handler(request, Caller(init, chat_id, member, lang,
                                                       application))
            except AuthError as exc:
                if exc.status != 503:
                    log.info("mini app: refused %s: %s", request.url.path, exc.reason)
                return refusal(exc.status, exc.code, lang)
            except _Refused as exc:
                return JSONResponse({"error": exc.code, "message": exc.message},
                                    status_code=exc.status, headers=HEADERS)
            except TelegramError:
                log.exception("mini app: Telegram refused a call")
                return refusal(502, "failed", lang)
            if isinstance(result, Response):
                return result
            return JSONResponse(result, headers={**HEADERS, "Cache-Control": "no-store"})

        return endpoint

    async def body(request: Request, lang: str) -> dict[str, Any]:
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise _Refused(413, "too_large", strings(lang)["too_large"])
        try:
            value = json.loads(data or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise _Refused(400, "bad_json", strings(lang)["bad_json"]) from None
        if not isinstance(value, dict):
            raise _Refused(400, "bad_json", strings(lang)["bad_json"])
        return value

    async def recorder(c: Caller) -> NightInfo:
        night = await c.night()
        if night is None:
            raise _Refused(409, "no_table", strings(c.lang)["no_table"])
        if not access.may_record(c.member, night, c.init):
            raise _Refused(403, "not_player", strings(c.lang)["not_player"])
        return night

    async def form(data: dict[str, Any], c: Caller
                   ) -> tuple[NightInfo, str, Form]:
        night = await recorder(c)
        try:
            f = Form.model_validate(data)
            return night, entry.report_text(c.lang, night, f), f
        except ValidationError:
            raise _Refused(400, "bad_form", strings(c.lang)["failed"]) from None
        except entry.EntryError as exc:
            raise _Refused(422, "bad_form", exc.message) from None

    async def keyed(request: Request, c: Caller) -> tuple[dict[str, Any], str, Any]:
        """A write's body, its idempotency key, and what was sent under that key before
        (None: nothing yet)."""
        data = await body(request, c.lang)
        key = data.pop("key", None)
        if not isinstance(key, str) or not KEY.fullmatch(key):
            raise _Refused(400, "bad_key", strings(c.lang)["bad_json"])
        return data, key, await c.ledger.app_requests.seen(c.chat_id, key)

    async def once(c: Caller, key: str, action: str, text: str,
                   night: NightInfo | None = None, hand: int | None = None
                   ) -> dict[str, Any]:
        """Send ``text`` to the group as the user's command, once for ``key``: a request
        that finds its key claimed (the same request sent again, or two at once) is
        answered "already recorded", and nothing is written or said."""
        requests = c.ledger.app_requests
        first = await requests.claim(c.chat_id, key, user_id=c.init.user_id, action=action,
                                     text=text, night_id=night.id if night else None,
                                     hand_number=hand)
        if first is not None:
            return already(c, first)
        try:
            message = await entry.submit(c.application, c.chat_id, c.init, text)
        except Exception:
            await requests.release(c.chat_id, key)  # nothing went in: the retry may send it
            raise
        await requests.sent(c.chat_id, key, message)
        return {"sent": text, "message_id": message}

    def already(c: Caller, first: Claimed) -> dict[str, Any]:
        return {"already": True, "sent": first.text, "message_id": first.message_id,
                "message": strings(c.lang)["already"]}

    async def me(request: Request, c: Caller) -> Any:
        night = await c.night()
        return {"lang": c.lang, "strings": strings(c.lang), "user": c.init.name,
                "admin": c.member.admin, "seat": access.seat_of(night, c.init)
                if night else None,
                "can_record": access.may_record(c.member, night, c.init)}

    async def undo_refused(c: Caller, night: NightInfo | None) -> _Refused | None:
        """Why the chat would refuse this user's /undo now (the chat's own rule and words:
        only who reported the last event, or an admin), or None."""
        if night is None:
            return _Refused(409, "no_table", strings(c.lang)["no_table"])
        if not access.may_record(c.member, night, c.init):
            return _Refused(403, "not_player", strings(c.lang)["not_player"])
        try:
            await c.ledger.corrections.check_undo(c.chat_id, actor=c.init.user_id,
                                                  allow_others=c.member.admin)
        except LedgerError as exc:
            seats: dict[str, str] = {s: p.name for s, p in night.seats.items()}
            return _Refused(403 if exc.code == "not_reporter" else 409, exc.code,
                            entry.refusal(c.lang, exc.code, str(exc), seats, **exc.params))
        return None

    async def board(request: Request, c: Caller) -> Any:
        night = await c.night()
        return {**await views.board(c.ledger, c.lang, night),
                "can_record": access.may_record(c.member, night, c.init),
                "can_undo": await undo_refused(c, night) is None}

    async def night(request: Request, c: Caller) -> Any:
        return await views.night(c.ledger, c.lang, c.chat_id)

    async def players(request: Request, c: Caller) -> Any:
        return await views.standings(c.ledger, c.lang, c.chat_id)

    async def player(request: Request, c: Caller) -> Any:
        raw = request.path_params["player"]
        unknown = _Refused(404, "no_player",
                           entry.refusal(c.lang, "no_player", "no such player in this chat"))
        if not raw.isdigit() or len(raw) > 9:
            raise unknown
        try:
            return await views.player(c.ledger, c.lang, c.chat_id, int(raw))
        except LedgerError:
            raise unknown from None

    async def debts(request: Request, c: Caller) -> Any:
        rows = await views.debts(c.ledger, c.chat_id)
        for row in rows:
            parties = tuple(PlayerInfo.model_validate(p) for p in row.pop("parties"))
            row["can_pay"] = c.member.admin or access.is_party(c.init, parties)
        return rows

    async def entry_form(request: Request, c: Caller) -> Any:
        night = await recorder(c)
        return views.entry(c.lang, night)

    async def preview(request: Request, c: Caller) -> Any:
        data = await body(request, c.lang)
        data.pop("key", None)
        night, text, _ = await form(data, c)
        try:
            return await entry.preview(c.ledger, c.lang, night, text, c.init.user_id)
        except entry.EntryError as exc:
            raise _Refused(422, "bad_form", exc.message) from None

    async def record(request: Request, c: Caller) -> Any:
        data, key, first = await keyed(request, c)
        if first is not None:  # sent before: whatever the form or the table says now
            return already(c, first)
        night, text, f = await form(data, c)
        try:  # refused here, not in the chat
            seen = await entry.preview(c.ledger, c.lang, night, text, c.init.user_id)
        except entry.EntryError as exc:
            raise _Refused(422, "bad_form", exc.message) from None
        if seen["false_win"] and not (f.mcr and f.mcr.false_win):
            # MCR: under the 8-fan gate the claim is a false win (错和), recorded only as one
            raise _Refused(422, "under_gate", strings(c.lang)["under_gate"])
        # the group will ask "the same hand?": the app says so rather than "sent"
        return {**await once(c, key, "record", text, night, seen["hand"]),
                "asks": seen["asks"]}

    async def undo(request: Request, c: Caller) -> Any:
        _, key, first = await keyed(request, c)
        if first is not None:
            return already(c, first)
        night = await c.night()
        refused = await undo_refused(c, night)
        if refused is not None:
            raise refused
        return await once(c, key, "undo", "/undo", night)

    async def paid(request: Request, c: Caller) -> Any:
        data, key, first = await keyed(request, c)
        if first is not None:
            return already(c, first)
        handle = data.get("handle")
        if not isinstance(handle, int) or isinstance(handle, bool) or not 0 < handle < 10**9:
            raise _Refused(400, "bad_form", strings(c.lang)["failed"])
        rows = {r["handle"]: r for r in await debts(request, c)}
        if handle not in rows:
            raise _Refused(404, "no_debt", strings(c.lang)["failed"])
        if not rows[handle]["can_pay"]:
            raise _Refused(403, "not_party", strings(c.lang)["not_party"])
        return await once(c, key, "paid", f"/paid {handle}")

    async def index(_: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8",
                        headers={**HEADERS, "Cache-Control": "no-cache"})

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in assets:
            return Response(status_code=404)
        return Response(assets[name], media_type=ASSETS[name],
                        headers={**HEADERS, "Cache-Control": "public, max-age=300"})

    inner = [
        Route("/", index, methods=["GET"]),
        Route("/static/{name}", asset, methods=["GET"]),
        Route("/api/me", api(me), methods=["GET"]),
        Route("/api/board", api(board), methods=["GET"]),
        Route("/api/night", api(night), methods=["GET"]),
        Route("/api/players", api(players), methods=["GET"]),
        Route("/api/player/{player}", api(player), methods=["GET"]),
        Route("/api/debts", api(debts), methods=["GET"]),
        Route("/api/entry", api(entry_form), methods=["GET"]),
        Route("/api/preview", api(preview), methods=["POST"]),
        Route("/api/record", api(record), methods=["POST"]),
        Route("/api/undo", api(undo), methods=["POST"]),
        Route("/api/paid", api(paid), methods=["POST"]),
    ]
    # Compressed here, as no reverse proxy is assumed to (a phone's first load: ~9 KB).
    return [Mount(base, app=GZipMiddleware(Router(inner), minimum_size=1024))]


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.message = message
