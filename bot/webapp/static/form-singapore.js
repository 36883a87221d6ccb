// Singapore's own parts of the Mini App's form. The instant payouts besides kongs: a bite
// (cat and rat, rooster and centipede, seat flower and season; hidden: paid double; from
// every other player or charged to one) or a complete set, written by the server as the
// chat's /bite. And a win's 包: the liable player, who pays for all (on a self-draw or off a
// discard), written after the win as the chat says it (/hu bob self 3 tai bao carol).
"use strict";
(function () {
  const forms = (window.TallyForms = window.TallyForms || {});
  forms.singapore = {
    // the bite or set part of the form: who, which, who pays, hidden
    bite(ctx) {
      const { S, e, form, el, chips, draw } = ctx;
      const inHand = e.seats.filter((s) => e.still_in.includes(s.seat));
      const isSet = form.bite && form.bite.startsWith("set_");
      if (form.bite_from === undefined) form.bite_from = null;
      if (isSet) { form.hidden = false; form.bite_from = null; }
      if (form.bite_from === form.winner) form.bite_from = null;
      const payers = [{ seat: null, name: S.each_other }].concat(
        e.seats.filter((s) => s.seat !== form.winner).map((s) => ({ seat: s.seat, name: "← " + s.name })));
      return [
        el("h3", {}, S.bite_by), chips(inHand, "winner", "seat", "name"),
        el("h3", {}, S.bite_what),
        el("div", { class: "row", id: "bites" }, e.bites.map((b) =>
          el("button", { class: "chip", "aria-pressed": String(form.bite === b.bite), "data-bite": b.bite,
            onclick: () => { form.bite = b.bite; draw(); } }, b.label))),
        form.bite && !isSet ? [
          el("h3", {}, S.bite_payer),
          el("div", { class: "row", id: "bite-payer" }, payers.map((p) =>
            el("button", { class: "chip", "aria-pressed": String(form.bite_from === p.seat),
              "data-payer": p.seat || "all", onclick: () => { form.bite_from = p.seat; draw(); } }, p.name))),
          el("div", { class: "row" }, el("button", { class: "chip", id: "bite-hidden",
            "aria-pressed": String(form.hidden), onclick: () => { form.hidden = !form.hidden; draw(); } },
          S.hidden))] : null,
      ];
    },
    // a win's 包: nobody, or one of the other players
    win(ctx) {
      const { S, e, form, el, draw } = ctx;
      if (form.liable === undefined || form.liable === form.winner) form.liable = null;
      const chip = (seat, label) => el("button", { class: "chip", "aria-pressed": String(form.liable === seat),
        "data-liable": seat || "none", onclick: () => { form.liable = seat; draw(); } }, label);
      return [el("h3", {}, S.liable), el("div", { class: "row", id: "sg-liable" },
        [chip(null, S.nobody)].concat(e.seats.filter((s) => s.seat !== form.winner)
          .map((s) => chip(s.seat, "← " + s.name))))];
    },
    winBody(form) { return { feeder: form.liable || null }; },
    reset(form) { form.bite_from = null; form.liable = null; },
    body(form) {
      const isSet = form.bite && form.bite.startsWith("set_");
      return { kind: "bite", winner: form.winner, bite: form.bite,
        hidden: !isSet && form.hidden, from_seat: isSet ? null : form.bite_from };
    },
  };
})();
