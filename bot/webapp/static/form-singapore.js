// Singapore's instant payouts besides kongs, in the Mini App's form: a bite (cat and rat,
// rooster and centipede, seat flower and season; hidden: paid double; from every other
// player or charged to one) or a complete set. The server writes it as the chat's /bite.
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
    reset(form) { form.bite_from = null; },
    body(form) {
      const isSet = form.bite && form.bite.startsWith("set_");
      return { kind: "bite", winner: form.winner, bite: form.bite,
        hidden: !isSet && form.hidden, from_seat: isSet ? null : form.bite_from };
    },
  };
})();
