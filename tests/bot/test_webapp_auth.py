"""Telegram's init data, checked as Telegram documents it, and the bot's signed chat
parameter: valid data passes; any change, another bot's key, age, or a parameter for
another chat is refused (fuzzed)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import parse_qsl, urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.handlers.app_link import chat_param
from bot.webapp.auth import AuthError, chat_of, sign_init_data, validate

TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
NOW = 1_800_000_000
USER = json.dumps({"id": 279058397, "first_name": "Vladislav", "username": "vdkfrost",
                   "language_code": "zh-hans"}, separators=(",", ":"))


def fields(**extra: str) -> dict[str, str]:
    return {"auth_date": str(NOW - 10), "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
            "user": USER, "start_param": chat_param(TOKEN, -1001234567890), **extra}


def test_documented_algorithm_by_hand() -> None:
    """The hash is HMAC-SHA256(data_check_string) under HMAC-SHA256("WebAppData", token)."""
    f = fields()
    check = "\n".join(f"{k}={v}" for k, v in sorted(f.items()))
    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    data = urlencode({**f, "hash": digest})
    init = validate(data, TOKEN, 3600, now=NOW)
    assert init.user_id == 279058397 and init.name == "vdkfrost"
    assert init.language_code == "zh-hans"
    assert chat_of(TOKEN, init.start_param) == -1001234567890


def test_field_order_does_not_matter() -> None:
    data = sign_init_data(TOKEN, fields())
    pairs = parse_qsl(data)
    assert validate(urlencode(list(reversed(pairs))), TOKEN, 3600, now=NOW).user_id


@pytest.mark.parametrize("case", ["other_token", "no_hash", "expired", "future", "no_user",
                                  "bot_user", "twice", "tampered", "uppercase_hash", "empty"])
def test_refused(case: str) -> None:
    data = sign_init_data(TOKEN, fields())
    if case == "other_token":
        data = sign_init_data("654321:other", fields())
    elif case == "no_hash":
        data = urlencode(fields())
    elif case == "expired":
        data = sign_init_data(TOKEN, fields(auth_date=str(NOW - 3601)))
    elif case == "future":
        data = sign_init_data(TOKEN, fields(auth_date=str(NOW + 3600)))
    elif case == "no_user":
        data = sign_init_data(TOKEN, {k: v for k, v in fields().items() if k != "user"})
    elif case == "bot_user":
        data = sign_init_data(TOKEN, fields(user=json.dumps({"id": 5, "is_bot": True})))
    elif case == "twice":
        data += "&user=" + USER
    elif case == "tampered":
        data = data.replace("vdkfrost", "vdkfrosu")
    elif case == "uppercase_hash":
        head, _, digest = data.rpartition("hash=")
        data = head + "hash=" + digest.upper()
    elif case == "empty":
        data = ""
    with pytest.raises(AuthError) as err:
        validate(data, TOKEN, 3600, now=NOW)
    assert err.value.status == 401


def test_chat_parameter_is_bound_to_its_chat_and_bot() -> None:
    param = chat_param(TOKEN, -100500)
    assert chat_of(TOKEN, param) == -100500
    assert chat_of(TOKEN, chat_param(TOKEN, 42)) == 42
    assert len(param) <= 64 and param.replace("_", "").isalnum()
    other = chat_param(TOKEN, -100501)
    forged = other.split("_")[0] + "_" + param.split("_")[1]  # another chat, this signature
    for bad in (forged, chat_param("9:other", -100500), None, "", "cn100500",
                param + "0", param.upper()):
        with pytest.raises(AuthError) as err:
            chat_of(TOKEN, bad)
        assert err.value.status == 403


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_fuzzed_init_data_never_passes(text: str) -> None:
    with pytest.raises(AuthError):
        validate(text, TOKEN, 3600, now=NOW)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["auth_date", "user", "start_param", "query_id",
                                        "hash", "chat_type", "signature"]),
                       st.text(max_size=60), max_size=7),
       st.sampled_from(["auth_date", "user", "start_param", "query_id"]),
       st.text(min_size=1, max_size=20))
def test_fuzzed_change_to_signed_data_is_refused(extra: dict[str, str], key: str,
                                                 change: str) -> None:
    """Sign some fields, then change one: refused, whatever the fields hold."""
    base = {**fields(), **{k: v for k, v in extra.items() if k != "hash"}}
    signed = dict(parse_qsl(sign_init_data(TOKEN, base), keep_blank_values=True))
    if signed.get(key) == change:
        return
    signed[key] = change
    with pytest.raises(AuthError):
        validate(urlencode(signed), TOKEN, 3600, now=NOW)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_fuzzed_chat_parameter(text: str) -> None:
    try:
        chat_id = chat_of(TOKEN, text)
    except AuthError as exc:
        assert exc.status == 403
    else:
        assert text == chat_param(TOKEN, chat_id)


def test_real_clock() -> None:
    data = sign_init_data(TOKEN, fields(auth_date=str(int(time.time()))))
    assert validate(data, TOKEN, 60).user_id == 279058397
