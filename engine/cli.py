"""``python -m engine``: the engine from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine.errors import ReportError
from engine.explain import result_text
from engine.hand_input import build_hand, parse_wild_kinds
from engine.models import SEATS
from engine.pattern_table import pattern_table_markdown
from engine.rules import options_model, presets, ruleset
from engine.settle import parse_report, settle_hand
from engine.shape_rules import FAMILY_SHAPES, family_readings, family_waits
from engine.tiles import TileError, compact, format_chinese, format_compact


def cmd_tiles(args: argparse.Namespace) -> int:
    rules = FAMILY_SHAPES[args.family]
    wild_kinds = parse_wild_kinds(args.wild_tiles)
    hand = build_hand(args.tiles, rules, wild_kinds)
    if hand.size == 14:
        found = family_readings(args.family, hand, wild_kinds)
        if args.json:
            print(json.dumps({
                "tiles": 14,
                "win": bool(found),
                "readings": [
                    {"form": r.form, "text": r.describe(),
                     "wild_as": [compact(k) for k in r.wild_as]}
                    for r in found
                ],
            }, ensure_ascii=False))
        else:
            print("win" if found else "not a win")
            for r in found[: args.limit]:
                print("  " + r.describe())
            if len(found) > args.limit:
                print(f"  … and {len(found) - args.limit} more readings (--limit)")
        return 0
    w = family_waits(args.family, hand, wild_kinds)
    if args.json:
        print(json.dumps({"tiles": 13, "ready": bool(w), "waits": [compact(k) for k in w]}))
    elif w:
        print(f"ready, waiting on {format_compact(w)} ({format_chinese(w)})")
    else:
        print("not ready")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    rules = ruleset(args.preset, args.set or [])
    report = parse_report(sys.stdin.read())
    result = settle_hand(rules, report, args.dealer)
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        print(result_text(result))
    return 0


def cmd_presets(args: argparse.Namespace) -> int:
    for p in presets().values():
        print(f"{p.name} ({p.family}): {p.title} - {p.summary}")
        options = ruleset(p.name).options
        for key, field in options_model(p.family).model_fields.items():
            value = getattr(options, key)
            if isinstance(value, dict):
                continue
            print(f"    {key} = {value}    # {field.description}")
    return 0


def cmd_patterns(args: argparse.Namespace) -> int:
    print(pattern_table_markdown(args.preset))
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from engine.models import report_json_schema

    print(json.dumps(report_json_schema(), indent=2, ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tiles", help="is this a win, and what are its readings or waits?")
    t.add_argument("tiles", help='e.g. "123m 456p 789s 11z" or "一万 二万 三万 …"')
    t.add_argument("--wild-tiles", help='kinds that are wild, e.g. "2m 4m"')
    t.add_argument("--family", choices=sorted(FAMILY_SHAPES), default="standard")
    t.add_argument("--json", action="store_true")
    t.add_argument("--limit", type=int, default=12, help="readings to print (text output)")
    t.set_defaults(func=cmd_tiles)
    sc = sub.add_parser("score", help="settle a hand report read as JSON from stdin")
    sc.add_argument("--preset", required=True)
    sc.add_argument("--set", action="append", metavar="OPTION=VALUE", help="house rule")
    sc.add_argument("--dealer", choices=SEATS, default="E")
    sc.add_argument("--json", action="store_true")
    sc.set_defaults(func=cmd_score)
    pr = sub.add_parser("presets", help="presets, their options and defaults")
    pr.set_defaults(func=cmd_presets)
    pa = sub.add_parser("patterns", help="a preset's pattern table")
    pa.add_argument("--preset", required=True)
    pa.set_defaults(func=cmd_patterns)
    sch = sub.add_parser("schema", help="the JSON Schema of a hand report")
    sch.set_defaults(func=cmd_schema)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (TileError, ReportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return 0

