import pytest

from engine.tiles import (
    TileError,
    chinese,
    compact,
    format_chinese,
    format_compact,
    parse,
    parse_tokens,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m 456p 789s 11z", [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27]),
        ("123m456p", [0, 1, 2, 12, 13, 14]),
        ("一万 二万 三万", [0, 1, 2]),
        ("1万 九条 五筒 5饼", [0, 26, 13, 13]),
        ("东 红中 中 发财 发 白板 白", [27, 33, 33, 32, 32, 31, 31]),
        ("12m 三条, 北", [0, 1, 20, 30]),
        ("7z5z6z", [33, 31, 32]),
    ],
)
def test_parse_notations(text: str, expected: list[int]) -> None:
    assert parse(text) == expected


def test_kind_order_matches_the_mahjong_package() -> None:
    from mahjong.tile import TilesConverter

    arr = TilesConverter.string_to_34_array(man="1", pin="2", sou="9", honors="17")
    assert [k for k, c in enumerate(arr) if c] == parse("1m 2p 9s 1z 7z")


def test_bad_token_names_token_and_position() -> None:
    with pytest.raises(TileError) as err:
        parse_tokens("123m 12x")
    assert err.value.code == "bad_token"
    assert err.value.position == 5
    assert "12x" in str(err.value)


def test_fifth_copy_is_refused() -> None:
    with pytest.raises(TileError) as err:
        parse("5555m 5m")
    assert err.value.code == "fifth_copy"
    assert err.value.position == 6


def test_count_checked() -> None:
    with pytest.raises(TileError) as err:
        parse("123456789m123456p", expect=14)
    assert err.value.code == "tile_count"
    assert "15 tiles" in str(err.value)


def test_honors_refused_in_108_tile_family() -> None:
    with pytest.raises(TileError) as err:
        parse("123m 东", honors=False)
    assert err.value.code == "honor_not_allowed"
    assert err.value.token == "东"


def test_bad_rank_refused() -> None:
    with pytest.raises(TileError):
        parse("8z")


def test_format_round_trip() -> None:
    kinds = parse("123m 456p 789s 1234567z")
    assert format_compact(kinds) == "123m456p789s1234567z"
    assert parse(format_compact(kinds)) == kinds
    assert parse(format_chinese(kinds)) == sorted(kinds)
    assert compact(13) == "5p" and chinese(13) == "五筒" and chinese(33) == "中"
