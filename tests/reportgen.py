"""Random valid hand reports for each preset (property tests and the scoring bench)."""

from __future__ import annotations

import random
from typing import Any

from engine.errors import ReportError
from engine.models import SEATS, table_seats
from engine.options import (
    ChangshaOptions,
    FreeOptions,
    HongKongOptions,
    JiangxiOptions,
    McrOptions,
    SichuanOptions,
    SingaporeOptions,
)
from engine.patterns import FAMILY_PATTERNS
from engine.report_checks import PAIRED_SHAPES, most_gen
from engine.rules import Ruleset
from tests.mcr_hands import random_win


def _patterns(rng: random.Random, family: str, pool: list[str], k: int) -> list[str]:
    ps = FAMILY_PATTERNS[family]
    for _ in range(10):
        picked = rng.sample(pool, min(k, len(pool)))
        try:
            ps.check_exclusions(ps.expand(picked))
            return picked
        except ReportError:
            continue
    return []


def _sichuan(rng: random.Random, opts: SichuanOptions) -> list[dict[str, Any]]:
    still = list(table_seats(opts.players))
    events: list[dict[str, Any]] = []
    pool = [n for n in opts.fan if n in FAMILY_PATTERNS["sichuan"].patterns]
    # Kongs recorded per seat: the settler counts them.
    made: dict[str, int] = dict.fromkeys(still, 0)
    for _ in range(rng.randint(1, 5)):
        if len(still) <= 1:
            break
        roll = rng.random()
        if roll < 0.25 and opts.kong_payments:
            seat = rng.choice(still)
            if made[seat] >= 3:
                continue
            made[seat] += 1
            kind = rng.choice(["direct", "added", "concealed"])
            ev: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind}
            if kind == "direct":
                ev["from_seat"] = rng.choice([s for s in still if s != seat])
            events.append(ev)
            continue
        if roll < 0.35:
            players: dict[str, dict[str, Any]] = {}
            for s in still:
                if rng.random() < 0.2 and opts.suits == 3:
                    players[s] = {"huazhu": True}
                elif rng.random() < 0.5:
                    players[s] = {"ready": True, "fan": rng.randint(1, 6)}
            events.append({"type": "wall_end", "players": players})
            return events
        how = rng.choice(["self_draw", "discard", "discard", "rob_kong", "kong_replacement",
                          "after_kong_discard"])
        def hand(seat: str, how: str = how) -> dict[str, Any]:
            held = max(made[seat], 1 if how == "kong_replacement" else 0)
            names = _patterns(rng, "sichuan", pool, rng.randint(0, 2))
            expanded = FAMILY_PATTERNS["sichuan"].expand(names)
            if how == "rob_kong" and expanded & set(PAIRED_SHAPES["sichuan"]):
                names, expanded = [], set()  # the robbed tile is held once: no such shape
            ps = FAMILY_PATTERNS["sichuan"].patterns
            if held and "七对" in expanded:
                names, expanded = [], set()
            kongs = max(max((ps[n].min_kongs for n in expanded), default=0), held)
            low = max((ps[n].min_gen for n in expanded), default=0)
            if low + kongs > 4:
                names, low = [], 0
            if low > most_gen(kongs):
                names, low = [], 0
            gen = max(low, min(rng.randint(0, 2), most_gen(kongs)))
            return {"seat": seat, "patterns": names, "gen": gen}

        if how in ("self_draw", "kong_replacement"):
            seat = rng.choice(still)
            winners = [hand(seat)]
            ev = {"type": "win", "how": how, "winners": winners}
            if how == "kong_replacement" and winners[0]["gen"] < 4:
                winners[0]["kongs"] = 1
        else:
            payer = rng.choice(still)
            if how == "after_kong_discard" and opts.kong_payments and not made[payer]:
                how = "discard"  # 杠上炮 follows the discarder's own kong
            last = events[-1] if events else {}
            if how == "rob_kong" and last.get("type") == "kong" and last["seat"] == payer \
                    and last["kind"] == "added":
                made[payer] -= 1  # the robbed kong goes back
            others = [s for s in still if s != payer]
            chosen = rng.sample(others, rng.randint(1, min(len(others), 2 if how == "discard"
                                                              else 1)))
            ev = {"type": "win", "how": how, "from_seat": payer,
                  "winners": [hand(s) for s in chosen]}
            seat = chosen[0]
        for w in ev["winners"]:
            expanded = FAMILY_PATTERNS["sichuan"].expand(w["patterns"])
            if "七对" in expanded or "十八罗汉" in expanded or w["gen"] > most_gen(1):
                w.pop("kongs", None)
        events.append(ev)
        for w in ev["winners"]:
            still.remove(w["seat"])
        if not opts.blood_battle:
            break
    return events


def _changsha(rng: random.Random, opts: ChangshaOptions) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    seats = table_seats(opts.players)
    if rng.random() < 0.3 and opts.starting_wins:
        events.append({"type": "starting_win", "seat": rng.choice(seats),
                       "kinds": rng.sample(list(opts.starting_wins), 1)})
    if rng.random() < 0.1:
        events.append({"type": "wall_end"})
        return events
    pool = [n for n in opts.big_wins if n not in ("抢杠胡", "杠上开花", "杠上炮")]
    birds = [rng.randint(1, 9) for _ in range(opts.birds)]
    if rng.random() < 0.5:
        events.append({"type": "win", "how": "self_draw", "winner": rng.choice(seats),
                       "patterns": _patterns(rng, "changsha", pool, rng.randint(0, 2)),
                       "birds": birds})
    else:
        payer = rng.choice(seats)
        others = [s for s in seats if s != payer]
        how = rng.choice(["discard", "discard", "rob_kong"])
        chosen = rng.sample(others, rng.randint(1, len(others) if how == "discard" else 1))
        robbing = [n for n in pool if how != "rob_kong" or not (
            FAMILY_PATTERNS["changsha"].expand([n]) & set(PAIRED_SHAPES["changsha"]))]
        events.append({"type": "win", "how": how, "from_seat": payer, "birds": birds,
                       "winners": [{"seat": s, "patterns": _patterns(rng, "changsha", robbing,
                                                                      rng.randint(0, 2))}
                                   for s in chosen]})
    return events


def _jiangxi(rng: random.Random, opts: JiangxiOptions) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for _ in range(rng.randint(0, 2)):
        seat = rng.choice(SEATS)
        kind = rng.choice(["added", "concealed", "wild", "direct"])
        ev: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind}
        if kind == "direct":
            ev["from_seat"] = rng.choice([s for s in SEATS if s != seat])
        events.append(ev)
    if rng.random() < 0.1:
        events.append({"type": "wall_end"})
        return events
    winner = rng.choice(SEATS)
    others = [s for s in SEATS if s != winner]
    hand_type = rng.choice(["平和", "七对", "碰对", "九幺", "十三浪"])
    extras = rng.sample(["单张", "清一色", "七字全"], rng.randint(0, 1))
    if hand_type != "七对" and "清一色" in extras and hand_type in ("九幺", "十三浪"):
        extras = []
    hand: dict[str, Any] = {"seat": winner, "patterns": [hand_type, *extras],
                            "wild_used": rng.random() < 0.6, "feibao": rng.randint(0, 2)}
    if rng.random() < 0.2:
        hand["feeder"] = rng.choice(others)
    ev = {"type": "win", "winners": [hand],
          "loser_feibao": {s: rng.randint(0, 1) for s in others if rng.random() < 0.3},
          "jing": {s: (rng.randint(0, 1), rng.randint(0, 1)) for s in SEATS}}
    # The 精 held and the 飞宝 thrown stay within the wall's wildcards.
    copies = 4 if opts.wild_tiles == "next" else 8
    held = sum(z + f for z, f in ev["jing"].values())
    if held > copies:
        ev["jing"], held = {}, 0
    if held + hand["feibao"] + sum(ev["loser_feibao"].values()) > copies:
        ev["loser_feibao"], hand["feibao"] = {}, min(hand["feibao"], copies - held)
    if rng.random() < 0.2 and hand_type not in PAIRED_SHAPES["jiangxi"]:
        ev["how"] = "rob_kong"
        ev["from_seat"] = rng.choice(others)
        ev["loser_feibao"] = {}
    else:
        ev["how"] = rng.choice(["self_draw", "self_draw", "kong_replacement"])
    events.append(ev)
    return events


def _singapore(rng: random.Random, opts: SingaporeOptions) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    bites = ["seat_flowers", *(["cat_rat", "rooster_centipede"] if opts.animals else [])]
    sets = ["flowers", "seasons", *(["animals"] if opts.animals else [])]
    for _ in range(rng.randint(0, 3) if opts.instant_payouts else 0):
        seat = rng.choice(SEATS)
        other = rng.choice([s for s in SEATS if s != seat])
        roll = rng.random()
        if roll < 0.5:
            kind = rng.choice(["direct", "added", "concealed"])
            ev: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind}
            if kind == "direct":
                ev["from_seat"] = other
        elif roll < 0.85:
            ev = {"type": "bite", "seat": seat, "pair": rng.choice(bites),
                  "hidden": rng.random() < 0.3}
            if rng.random() < 0.3:
                ev["from_seat"] = other
        else:
            ev = {"type": "bonus_set", "seat": seat, "kind": rng.choice(sets)}
        events.append(ev)
    if rng.random() < 0.1:
        events.append({"type": "wall_end"})
        return events
    how = rng.choice(["self_draw", "discard", "discard", "rob_kong", "kong_replacement"])
    winner = rng.choice(SEATS)
    hand: dict[str, Any] = {"seat": winner}
    roll = rng.random()
    if roll < 0.4:
        hand["tai"] = rng.randint(opts.min_tai, opts.cap_tai + 3)
    elif roll < 0.5:
        hand["patterns"] = [rng.choice(["十三幺", "大三元", "字一色", "十八罗汉"])]
    else:
        pool = [n for n in opts.tai if n not in ("门清", "抢杠", "杠上开花")
                and (opts.animals or n not in ("动物", "四动物"))]
        # Three 1-tai patterns that no exclusion touches make any minimum.
        hand["patterns"] = ["红中", "发财", "白板"][:opts.min_tai] + _patterns(
            rng, "singapore", [n for n in pool if n not in ("红中", "发财", "白板", "大平胡")],
            rng.randint(0, 3))
    if rng.random() < 0.15:
        hand["feeder"] = rng.choice([s for s in SEATS if s != winner])
    ev = {"type": "win", "how": how, "winners": [hand]}
    if how in ("discard", "rob_kong"):
        ev["from_seat"] = rng.choice([s for s in SEATS if s != winner])
    events.append(ev)
    return events


def _free(rng: random.Random, opts: FreeOptions) -> list[dict[str, Any]]:
    seats = list(table_seats(opts.players))
    roll = rng.random()
    if roll < 0.1:
        return [{"type": "wall_end"}]
    if roll < 0.4:
        deltas = {s: rng.randint(-50, 50) for s in seats[:-1]}
        deltas[seats[-1]] = -sum(deltas.values())
        if not any(deltas.values()):
            deltas[seats[0]], deltas[seats[1]] = 1, -1
        return [{"type": "amounts", "deltas": deltas}]
    winner = rng.choice(seats)
    if rng.random() < 0.5:
        return [{"type": "win", "how": "self_draw", "winner": winner,
                 "amount": rng.randint(1, 100)}]
    return [{"type": "win", "how": "discard", "winner": winner, "amount": rng.randint(1, 100),
             "from_seat": rng.choice([s for s in seats if s != winner])}]


def _mcr(rng: random.Random) -> list[dict[str, Any]]:
    """A draw, a total counted at the table, or a hand's tiles (under the gate: a false
    win, and the hand goes on to a draw)."""
    roll = rng.random()
    if roll < 0.1:
        return [{"type": "wall_end"}]
    ev = random_win(rng)
    if roll < 0.25:
        flowers = rng.randint(0, 8)
        ev["mcr"] = {"fan": rng.randint(flowers, 120), "flowers": flowers}
    return [ev]


# Hong Kong hands that win at any minimum, as named patterns.
_HK_HANDS = (["清一色"], ["混一色", "對對糊"], ["大三元"], ["小三元"], ["混一色", "三元", "門風"],
             ["對對糊", "三元", "三元"], ["大四喜"], ["十三么"], ["字一色"], ["花糊"])


def _hongkong(rng: random.Random, opts: HongKongOptions) -> list[dict[str, Any]]:
    if rng.random() < 0.1:
        return [{"type": "wall_end"}]
    winner = rng.choice(SEATS)
    others = [s for s in SEATS if s != winner]
    how = rng.choice(["self_draw", "discard", "discard", "rob_kong", "kong_replacement"])
    hand: dict[str, Any] = {"seat": winner}
    if rng.random() < 0.5:
        fan = rng.randint(max(opts.min_fan, 1), 13)
        hand["fan"] = fan
        if opts.flowers_count_min or fan > opts.min_fan:
            hand["flower_fan"] = rng.randint(0, min(2, fan - (0 if opts.flowers_count_min
                                                             else opts.min_fan)))
    else:
        names = list(rng.choice(_HK_HANDS))
        if "花糊" in names and how in ("self_draw", "kong_replacement"):
            names = ["清一色"]
        hand["patterns"] = names + rng.sample(["正花", "海底撈月", "門前清"], rng.randint(0, 2))
    ev: dict[str, Any] = {"type": "win", "how": how, "winners": [hand]}
    if how in ("discard", "rob_kong"):
        ev["from_seat"] = rng.choice(others)
    if rng.random() < 0.2:
        hand["fourth_feeder"] = rng.choice(others)
    return [ev]


def random_report(rng: random.Random, rules: Ruleset, dealer: str = "E") -> dict[str, Any]:
    opts = rules.options
    if isinstance(opts, SichuanOptions):
        events = _sichuan(rng, opts)
    elif isinstance(opts, ChangshaOptions):
        events = _changsha(rng, opts)
    elif isinstance(opts, SingaporeOptions):
        events = _singapore(rng, opts)
    elif isinstance(opts, FreeOptions):
        events = _free(rng, opts)
    elif isinstance(opts, McrOptions):
        events = _mcr(rng)
    elif isinstance(opts, HongKongOptions):
        events = _hongkong(rng, opts)
    else:
        assert isinstance(opts, JiangxiOptions)
        events = _jiangxi(rng, opts)
    return {"events": [_possible(ev, rules.family, dealer) for ev in events]}


def _possible(ev: dict[str, Any], family: str, dealer: str) -> dict[str, Any]:
    """Drop 天胡/地胡 where the dealer makes them impossible (the settler refuses them)."""
    if ev.get("type") != "win":
        return ev
    ps = FAMILY_PATTERNS[family]
    hands = ev.get("winners") or [ev]
    for hand in hands:
        seat = hand.get("seat") or hand.get("winner")
        keep = []
        for name in hand.get("patterns", []):
            canon = ps.resolve(name).name
            if canon == "天胡" and (seat != dealer or ev["how"] != "self_draw"):
                continue
            if canon == "地胡" and (seat == dealer or (
                    ev["how"] in ("discard", "rob_kong", "after_kong_discard")
                    and ev.get("from_seat") != dealer)):
                continue
            keep.append(name)
        hand["patterns"] = keep
    return ev
