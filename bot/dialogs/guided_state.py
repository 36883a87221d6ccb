"""The guided reports' drafts, typed: a /hu draft (:class:`HuDraft`), a /kong draft
(:class:`KongDraft`), a /draw draft (:class:`DrawDraft`), a /bite draft, an MCR /penalty
draft (:class:`PenaltyDraft`), and the engine event each records.

A draft is kept in the drafts table as JSON between presses. :func:`load` reads the JSON
the dialog has always written (``"view"`` is the step, ``"from"`` the seat that paid), and
:func:`dump` writes the same shape back, so a draft in progress when the bot is upgraded
carries on. Frozen: a press makes a new draft (:mod:`bot.dialogs.guided_steps`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.mcr.fans import value_of
from engine.mcr.hand import GATE

# A seat, "E", "S", "W" or "N" (a str, as the buttons carry it).
Seat = Annotated[str, Field(pattern="^[ESWN]$")]

# Where a /hu draft stands: who won and how ("start", "how", "from" for the paying seat,
# "add" another winner on the same tile), the patterns and counts ("main"), the hand's
# other facts ("more", and under it "jing", "feeder", "fourth", "ind" and "indr" for the
# turned-up tile's suit and rank); "bao": who fed a Hong Kong winner's fourth meld (包自摸).
Step = Literal["start", "how", "from", "add", "main", "more", "jing", "feeder", "fourth",
               "ind", "indr", "bao"]
Kind = Literal["hu", "kong", "draw", "bite", "penalty"]
KongKind = Literal["concealed", "added", "direct", "wild"]
WallState = Literal["no", "ready", "pig"]  # 未听, 听, 花猪


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="ignore")


class Winner(_Frozen):
    """One winner's part of a /hu draft (as the engine's ``WinnerHand``, without tiles)."""

    seat: Seat
    patterns: tuple[str, ...] = ()
    gen: int = 0  # 根
    kongs: int = 0
    wild_used: bool | None = None  # None: not said (有宝 by default); False: 无宝
    feibao: int = 0
    kong_chain: int = 0  # 连杠
    feeder: Seat | None = None  # 承包
    fourth_feeder: Seat | None = None  # 第四凑; Hong Kong: 包自摸
    tai: int | None = None  # Singapore: the hand's tai, counted in
    amount: int | None = None  # points only (free): what the win is worth
    flowers: int = 0  # MCR: 花牌
    fan: int = 0  # Hong Kong: the 番 count (0: the patterns say it)


class HuDraft(_Frozen):
    """A guided win report as it stands."""

    step: Step = Field("start", alias="view")
    winners: tuple[Winner, ...] = ()
    how: str | None = None  # one of engine.offer.WAYS
    from_seat: Seat | None = Field(None, alias="from")
    birds: tuple[int, ...] = ()
    loser_feibao: dict[Seat, int] = Field(default_factory=dict)
    jing: dict[Seat, tuple[int, int]] = Field(default_factory=dict)  # (正精, 副精)
    robbed_kongs: int = 1
    indicator: str | None = None  # the turned-up tile, e.g. "5p"
    page: int = 0  # the page of pattern buttons shown
    cur: int = 0  # the winner the pattern buttons are for
    recent: tuple[Seat, ...] = ()  # recent winners, offered first
    hint_kongs: dict[Seat, int] = Field(default_factory=dict)  # the open hand's kongs
    # Who made a kong in the open hand, where the table reports kongs (a 杠上炮 is off one
    # of them); None: not known, anyone may be named.
    kong_makers: tuple[Seat, ...] | None = None
    suit: str | None = None  # the turned-up tile's suit, once chosen (written only then)
    edit: tuple[int, int] | None = None  # a guided edit: hand number, event index (0-based)

    @property
    def current(self) -> Winner | None:
        """The winner the pattern and count buttons are for."""
        return self.winners[self.cur] if self.winners else None

    @property
    def seats_won(self) -> tuple[str, ...]:
        return tuple(w.seat for w in self.winners)

    def may_be_from(self, seat: str) -> bool:
        """Whether the draft's way to win may name ``seat`` as who paid it: a 杠上炮 only
        a player who made a kong in this hand, when the table knows who did."""
        return seat not in self.seats_won and (
            self.how != "after_kong_discard" or self.kong_makers is None
            or seat in self.kong_makers)

    def hand_for(self, seat: Seat) -> Winner:
        """A new winner at ``seat``, its kongs filled in from the open hand's."""
        return Winner(seat=seat, kongs=min(4, int(self.hint_kongs.get(seat, 0))))

    def event(self, mixed_kong: int | None = None) -> tuple[dict[str, Any], str | None]:
        """The engine's win event for a ready draft, and the turned-up tile if one was
        named. At an MCR table (``mixed_kong``: its option) the fans tapped make the fan
        count, flowers added (none tapped: 无番和, 8), and are named with it."""
        hands = []
        for w in self.winners:
            hand: dict[str, Any] = {"seat": w.seat, "patterns": list(w.patterns)}
            if mixed_kong is not None:
                fan = sum(value_of(p, mixed_kong) for p in w.patterns) or GATE
                hands.append({"seat": w.seat, "patterns": list(w.patterns),
                              "mcr": {"fan": fan + w.flowers, "flowers": w.flowers}})
                continue
            for key, value in (("gen", w.gen), ("kongs", w.kongs), ("feibao", w.feibao),
                               ("kong_chain", w.kong_chain), ("fan", w.fan)):
                if value:
                    hand[key] = value
            for key, maybe in (("wild_used", w.wild_used), ("feeder", w.feeder),
                               ("fourth_feeder", w.fourth_feeder), ("tai", w.tai),
                               ("amount", w.amount)):
                if maybe is not None:
                    hand[key] = maybe
            hands.append(hand)
        event: dict[str, Any] = {"type": "win", "how": self.how, "winners": hands}
        if self.from_seat:
            event["from_seat"] = self.from_seat
        if self.birds:
            event["birds"] = list(self.birds)
        if self.loser_feibao:
            event["loser_feibao"] = dict(self.loser_feibao)
        if self.jing:
            event["jing"] = {s: list(v) for s, v in self.jing.items()}
        if self.robbed_kongs > 1:
            event["robbed_kongs"] = self.robbed_kongs
        return event, self.indicator


def new_hu(recent: tuple[str, ...] = (), kongs: dict[str, int] | None = None,
           winner: str | None = None, edit: tuple[int, int] | None = None,
           kong_makers: tuple[str, ...] | None = None) -> HuDraft:
    """A fresh report: ``recent`` winners are offered first, ``kongs`` (the open hand's
    kongs per seat, from the ledger) pre-fill each winner's kong count; with ``winner``
    (a scoreboard button) it asks how; ``edit`` (hand, event) makes it a guided edit;
    ``kong_makers``: who made a kong in the open hand, where the table knows."""
    draft = HuDraft.model_validate({"recent": recent, "hint_kongs": dict(kongs or {}),
                                    "edit": edit, "kong_makers": kong_makers})
    if winner is None:
        return draft
    return draft.model_copy(update={"winners": (draft.hand_for(winner),), "step": "how"})


class KongDraft(_Frozen):
    """A guided /kong: who, which kong, and for a direct kong whose discard."""

    seat: Seat | None = None
    kind: KongKind | None = None
    from_seat: Seat | None = Field(None, alias="from")

    @property
    def ready(self) -> bool:
        return self.seat is not None and self.kind is not None and (
            self.kind != "direct" or self.from_seat is not None)

    def event(self) -> dict[str, Any]:
        event: dict[str, Any] = {"type": "kong", "seat": self.seat, "kind": self.kind}
        if self.from_seat:
            event["from_seat"] = self.from_seat
        return event


class DrawPlayer(_Frozen):
    state: WallState = "no"
    fan: int = 1  # for a ready player: the fan 查叫 pays


class DrawDraft(_Frozen):
    """A guided /draw: each player still in, not ready, ready (for some fan) or 花猪."""

    players: dict[Seat, DrawPlayer] = Field(default_factory=dict)

    def event(self) -> dict[str, Any]:
        players: dict[str, Any] = {}
        for seat, p in self.players.items():
            if p.state == "ready":
                players[seat] = {"ready": True, "fan": p.fan}
            elif p.state == "pig":
                players[seat] = {"huazhu": True}
        return {"type": "wall_end", "players": players}


def new_draw(inside: list[str] | tuple[str, ...]) -> DrawDraft:
    return DrawDraft.model_validate({"players": {s: {} for s in inside}})


class BiteDraft(_Frozen):
    """A guided /bite (Singapore): who, which bite or set, and for a bite whether it was
    hidden or charged to one player."""

    seat: Seat | None = None
    what: str | None = None  # a bite's pair (cat_rat …) or "set_" and a set's kind
    hidden: bool = False
    from_seat: Seat | None = Field(None, alias="from")

    def event(self) -> dict[str, Any]:
        if self.what is not None and self.what.startswith("set_"):
            return {"type": "bonus_set", "seat": self.seat, "kind": self.what[4:]}
        event: dict[str, Any] = {"type": "bite", "seat": self.seat, "pair": self.what,
                                 "hidden": self.hidden}
        if self.from_seat:
            event["from_seat"] = self.from_seat
        return event


class PenaltyDraft(_Frozen):
    """A guided /penalty at an MCR table: who, what for (错和 or a foul), and for a foul the
    referee's fine, the points the offender pays each other player."""

    seat: Seat | None = None
    kind: str | None = None  # engine.models.PenaltyKind
    points: int | None = None

    @property
    def ready(self) -> bool:
        return self.seat is not None and self.kind is not None and (
            self.kind == "false_win" or self.points is not None)

    def event(self) -> dict[str, Any]:
        event: dict[str, Any] = {"type": "penalty", "seat": self.seat, "kind": self.kind}
        if self.points is not None:
            event["points"] = self.points
        return event


Draft = HuDraft | KongDraft | DrawDraft | BiteDraft | PenaltyDraft
_MODELS: dict[str, type[HuDraft] | type[KongDraft] | type[DrawDraft] | type[BiteDraft]
              | type[PenaltyDraft]] = {
    "hu": HuDraft, "kong": KongDraft, "draw": DrawDraft, "bite": BiteDraft,
    "penalty": PenaltyDraft}
KINDS: tuple[Kind, ...] = ("hu", "kong", "draw", "bite", "penalty")


def load(kind: str, data: dict[str, Any]) -> Draft:
    """The draft a row of the drafts table holds (``kind`` as stored: hu, kong or draw).
    Raises ``ValueError`` (pydantic's ``ValidationError``) when the data is not a draft."""
    return _MODELS[kind].model_validate(data)


def kind_of(draft: Draft) -> Kind:
    if isinstance(draft, HuDraft):
        return "hu"
    if isinstance(draft, BiteDraft):
        return "bite"
    if isinstance(draft, PenaltyDraft):
        return "penalty"
    return "kong" if isinstance(draft, KongDraft) else "draw"


def dump(draft: Draft) -> dict[str, Any]:
    """The JSON the drafts table keeps: the shape :func:`load` reads, as the dialog wrote
    it before it was typed (a /hu draft's ``suit``, ``edit`` and ``kong_makers``, a winner's
    ``flowers``, and a winner's ``fan`` once a Hong Kong 番 count is chosen, only once they
    are set)."""
    data = draft.model_dump(mode="json", by_alias=True)
    if isinstance(draft, HuDraft):
        for key in ("suit", "edit", "kong_makers"):
            if data[key] is None:
                del data[key]
        for hand in data["winners"]:  # a tai count or an amount, only once said
            for key in ("tai", "amount"):
                if hand[key] is None:
                    del hand[key]
        for winner in data["winners"]:  # an MCR winner's flowers, only once counted
            if not winner["flowers"]:
                del winner["flowers"]
        for winner in data["winners"]:
            if not winner["fan"]:
                del winner["fan"]
    return data
