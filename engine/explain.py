"""Plain English text for settlement lines (the CLI's; the bot has its own catalogs)."""

from __future__ import annotations

from engine.models import HandResult, Line

TEMPLATES: dict[str, str] = {
    "win": "{seat} wins ({how})",
    "base": "{seat}: {name} {fan} fan",
    "pattern": "{seat}: {name} +{fan} fan",
    "extra": "{seat}: {name} +{fan} fan",
    "given": "{seat}: {fan} fan as reported",
    "cap": "{seat}: {fan} fan capped at {cap}",
    "value": "{seat}: {fan} fan = {points} points",
    "hand_value": "{seat}: {name} ({wild}) base value {value}",
    "in_base": "{seat}: {name} counted in the base value",
    "doubling": "{seat}: {name} doubles x{times}",
    "doubled_value": "{seat}: {value} x {times} = {points} points",
    "plain_value": "{seat}: {points} points",
    "small_win": "{seat}: small win",
    "big_win": "{seat}: big win {name} (x{count})",
    "bird": "bird {rank} lands on {seat}",
    "penalty": "{name}: the one player pays {amount}",
    "starting_win": "{seat} declares {name}",
    "kong": "{seat} kongs ({kind})",
    "kong_robbed": "{seat}'s kong is robbed: it pays nothing",
    "hujiao_zhuanyi": "呼叫转移: {seat} hands over {amount} of kong money",
    "wall_end": "the wall runs out",
    "tuishui_handed_on": "退税: {seat}'s kong money ({amount}) went to the winner by 呼叫转移; "
                         "nothing of it is given back",
    "huazhu": "{seat} is 花猪: pays {fan} fan to each other player",
    "false_win": "{seat}: a false win (诈胡), pays each other player",
    "adjust": "An adjustment: {note}",
    "adjust_plain": "An adjustment",
    "adjusted": "{seat} {points}",
    "huazhu_not_counted": "花猪 is not counted in this preset",
    "huazhu_value": "{seat}: {fan} fan = {points} points",
    "chajiao": "查叫: {seat} is ready for {fan} fan, worth {points}",
    "chajiao_points": "查叫: {seat} is ready, worth {points}",
    "chajiao_tiles": "查叫: {seat} waits on {wait} for {patterns}, {fan} fan, worth {points} "
                     "(the {mode} wait counts)",
    "qianggang": "{seat}'s kong is robbed: pays x{mult} for {kongs} kong(s)",
    "loser_feibao": "{seat} threw {count} wildcard(s): pays double each",
    "chengbao": "承包: {seat} fed {winner} three melds and pays for the others",
    "chongguan": "冲冠: {seat}'s 精 score {score} becomes {value}",
    "bawang_jing": "霸王精: {seat} alone holds 精, score doubled to {value}",
    "jing": "精: {seat} collects {score} from each player",
    "pay": "{payer} pays {payee} {amount} ({reason})",
    # Singapore/Malaysia: tai, the stake table, instant payouts (amounts in cents).
    "tai": "{seat}: {name} x{count} = {tai} tai",
    "tai_instead": "{seat}: {name} not counted: {instead} counts instead",
    "tai_given": "{seat}: {tai} tai as reported",
    "tai_total": "{seat}: {tai} tai",
    "tai_cap": "{seat}: {tai} tai capped at {cap}",
    "limit": "{seat}: {name}, a limit hand: {cap} tai",
    "special_win": "{seat}: {name}, paid at the limit: {cap} tai",
    "stake_value": "{seat}: {tai} tai on the {table} table: base {base}, zimo {zimo}",
    "liable": "包: {seat} is liable and pays for all ({winner}'s win)",
    "pays_as_shooter": "{seat} pays as the shooter",
    "instant": "{seat}: {what}, {amount} from {payer} (u = {unit}), paid at once and kept "
               "if the hand is drawn",
    "bite_hidden": "{seat}: a hidden bite (both in the starting hand) pays double",
    "instant_kept": "the instant payouts already made stand",
    "not_counted_tai_given": "{name} not counted: the tai was given whole ({tai} tai)",
    # Points only (free).
    "amounts": "the hand as each player's change",
    # Chinese Official (MCR)
    "mcr_fan": "{seat}: {zh} {en} {value} fan x{times} = {fan}",
    "mcr_total": "{seat}: {fan} fan in all ({flowers} of them flowers; {without_flowers} "
                 "without)",
    "mcr_under_gate": "{seat}: {fan} fan without flowers, under the gate of {gate}: a false "
                      "win (错和), {amount} to each other player; the hand goes on",
    "mcr_owes": "{payer} → {payee}: {base} + {fan} fan = {amount}",
    "mcr_penalty": "{seat}: {foul}, {amount} to each other player",
    # The steps that make an amount, where a rule changes it.
    "per_unit": "every unit counts {unit} points (house rules)",
    "zimo_stake": "{seat}: self-draw, each payer adds {amount}",
    "worth_each": "{seat}: {amount} from each player",
    "worth_one": "{seat}: {amount} from {payer}",
    "dealer_premium": "{payer} → {payee}: +{amount} for the dealer = {total}",
    "bird_double": "{payer} → {payee}: x{times} for {hits} bird hit(s) = {total}",
    "bird_add": "{payer} → {payee}: +{amount} for {hits} bird hit(s) = {total}",
    "penalty_more": "{seat}: +{amount} for {count} more big win(s) = {total}",
    "big_wins_one": "{seat}: the big wins count as one (the house rules do not add them)",
    # A fact the table's rules need that the report left out, and how it was scored.
    "birds_unsaid": "no bird named: scored as no bird hit",
    "birds_short": "{said} of {drawn} birds named: the others scored as no hit",
    "jing_unsaid": "no 精 counts given: scored as nobody holding 精 (no 精 reward)",
    # A pattern the player named that the value does not count, and why.
    "not_counted_option": "{name} not counted: the house rule “{option}” is off",
    "not_counted_largest": "{name} not counted: only the largest pattern counts ({base})",
    "not_counted_no_value": "{name} not counted: these house rules give it no value",
    "not_counted_no_wild": "{name} not counted: no wildcard was used (无宝)",
    "not_counted_fan_given": "{name} not counted: the fan was given whole ({fan} fan)",
}
# Lines that say a named pattern was left out (the bot shows them in the short answer).
NOT_COUNTED = ("not_counted_option", "not_counted_largest", "not_counted_no_value",
               "not_counted_no_wild", "not_counted_fan_given", "not_counted_tai_given")

# The Hong Kong family's lines: 番 to a share (amounts in cents), each loser's part and
# who pays it. Apart from TEMPLATES until the bot's catalogs translate them.
HONGKONG_TEMPLATES: dict[str, str] = {
    "limit_hand": "{seat}: {name}, a limit hand ({fan} 番)",
    "chicken_hand": "{seat}: 雞糊, no 番",
    "fan_total": "{seat}: {fan} 番 in all",
    "flower_fan": "{seat}: {fan} of them flower 番; {counted} 番 count toward the minimum",
    "share": "{seat}: {fan} 番 = a share of {share} ({stake}, {curve})",
    "share_part": "{payer} pays {shares} share(s) = {amount} ({reason})",
    "share_part_for": "{payer} pays {seat}'s {shares} share(s) = {amount} ({reason})",
    "share_part_double": "{payer} pays {seat}'s {shares} share(s) x2 for the dealer = "
                         "{amount} ({reason})",
    "bao_zimo": "包自摸: {seat} fed {winner}'s fourth exposed meld and pays the whole "
                "self-draw",
    "bao_only_self_draw": "包自摸 is paid on a self-draw only: {seat} pays as usual",
    "rob_kong_no_bao": "{seat} pays as a discarder for the robbed kong (the house rule "
                       "“rob_kong_bao” is off)",
    "not_counted_included": "{name} not counted: {by} includes it",
}
HONGKONG_NOT_COUNTED = ("not_counted_included",)


def template_code(line: Line) -> str:
    """The template for a line: some codes have a variant when they carry more facts."""
    if line.code == "chajiao" and "wait" in line.params:
        return "chajiao_tiles"
    if line.code == "chajiao" and "fan" not in line.params:
        return "chajiao_points"  # a line stored before 查叫 lines carried the fan
    if line.code == "share_part" and line.params.get("times") == 2:
        return "share_part_double"
    if line.code == "share_part" and line.params.get("payer") != line.params.get("seat"):
        return "share_part_for"
    if line.code == "doubled_value" and line.params.get("times") == 1:
        return "plain_value"
    return line.code


def line_text(line: Line) -> str:
    code = template_code(line)
    template = TEMPLATES.get(code) or HONGKONG_TEMPLATES.get(code, line.code + " {params}")
    try:
        return template.format(params=line.params, **line.params)
    except (KeyError, IndexError):
        return f"{line.code} {line.params}"


def result_text(result: HandResult) -> str:
    out = [line_text(line) for line in result.lines]
    out.append("change: " + "  ".join(f"{s} {v:+d}" for s, v in result.deltas.items()))
    if result.open:
        out.append("the hand plays on; still in: " + " ".join(result.still_in))
    if result.next_dealer:
        out.append(f"next dealer: {result.next_dealer}")
    return "\n".join(out)
