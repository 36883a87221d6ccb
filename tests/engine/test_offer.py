"""What a report may say at a table's rules (engine.offer): the guided report's buttons
and the Mini App read it, so it must follow the scorer's own options."""

from __future__ import annotations

from engine.offer import WAYS, offer
from engine.rules import presets, ruleset


def test_a_sichuan_table_offers_what_its_scorer_counts() -> None:
    o = offer(ruleset("chengdu"))
    assert o.family == "sichuan" and o.counts and o.hows == WAYS and o.plain == "平胡"
    assert o.patterns[0] == "清一色" and "根" not in o.patterns and "自摸" not in o.patterns
    off = offer(ruleset("chengdu", ["yaojiu_jiangdui=false"]))
    assert "带幺九" in o.patterns and "带幺九" not in off.patterns


def test_every_preset_offers_patterns_its_family_knows() -> None:
    for name in presets():
        o = offer(ruleset(name))
        assert (o.patterns or o.amount) and set(o.hows) <= set(WAYS)
        assert len(set(o.patterns)) == len(o.patterns)
        assert (o.jiangxi is not None) == (o.family == "jiangxi")


def test_kongs_and_the_wall_follow_the_options() -> None:
    assert offer(ruleset("feibao")).kongs == ("concealed", "added", "direct", "wild")
    assert offer(ruleset("chengdu")).kongs == ("concealed", "added", "direct")
    chengdu = offer(ruleset("chengdu", ["cap_fan=5"]))
    assert chengdu.wall == ("no", "ready", "pig") and chengdu.fan_cap == 5
    assert offer(ruleset("chengdu", ["huazhu=false"])).wall == ("no", "ready")
    assert offer(ruleset("changsha")).wall == () and offer(ruleset("feibao")).wall == ()


def test_the_tiles_are_the_walls_own() -> None:
    """Sichuan and Changsha play the three suits only; Jiangxi, Singapore and MCR add the
    winds and dragons; a points-only table has no tiles."""
    suits = {f"{r}{s}" for s in "mps" for r in range(1, 10)}
    for name in presets():
        o = offer(ruleset(name))
        if o.family == "free":
            assert o.tiles == (), "points only: no tiles"
            continue
        honours = {f"{r}z" for r in range(1, 8)} if o.family in ("jiangxi", "singapore",
                                                                 "mcr", "hongkong") \
            else set()
        assert len(o.tiles) == len(set(o.tiles)) and set(o.tiles) == suits | honours, name


def test_a_singapore_table_offers_tai_bites_and_sets() -> None:
    o = offer(ruleset("singapore"))
    assert o.tai == (1, 5) and "after_kong_discard" not in o.hows
    assert o.bites == ("cat_rat", "rooster_centipede", "seat_flowers")
    assert o.sets == ("flowers", "seasons", "animals") and o.patterns[0] == "动物"
    plain = offer(ruleset("singapore", ["animals=false"]))
    assert plain.bites == ("seat_flowers",) and "动物" not in plain.patterns
    off = offer(ruleset("singapore", ["instant_payouts=false"]))
    assert off.kongs == () and off.bites == () and off.sets == ()


def test_a_points_only_table_offers_amounts() -> None:
    o = offer(ruleset("free"))
    assert o.amount and o.patterns == () and o.hows == ("self_draw", "discard")
