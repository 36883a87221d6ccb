// A Chinese Official (MCR) win in the Mini App's form: the standing tiles, the melds (each
// with the seat it was claimed from, or concealed), the winning tile, the flags and the
// flowers; or the fan count alone. The server writes it as the chat's /hu and counts the
// fans (no scoring here); under the 8-fan gate it says so, and Record then records a
// false win (错和), never a win.
"use strict";
(function () {
  const forms = (window.TallyForms = window.TallyForms || {});
  const SIZE = { chow: 3, pung: 3, kong: 4, concealed: 4, added: 4 };
  const CLAIMED = ["pung", "kong", "added"];  // these name whom they were claimed from
  const FLOWER_CODES = ["f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4"];

  function state(form) {
    if (!form.mcr) {
      form.mcr = { melds: [], winning_tile: null, last_tile: false, last_of_wall: false,
        flowers: [], fan: null, target: "standing", kind: "pung" };
    }
    return form.mcr;
  }
  function used(form, code) {
    const m = state(form);
    return form.tiles.concat(m.melds.flatMap((x) => x.tiles), m.winning_tile ? [m.winning_tile] : [])
      .filter((t) => t === code).length;
  }
  // a tap on the palette: one tile to the standing hand, the winning tile, or a whole meld
  // (a chow from its lowest tile, a pung or kong from its tile)
  function tap(form, code) {
    const m = state(form);
    if (m.target === "standing") {
      if (form.tiles.length < 13 && used(form, code) < 4) form.tiles.push(code);
    } else if (m.target === "winning") {
      m.winning_tile = code;
    } else if (m.melds.length < 4) {
      let tiles;
      if (m.kind === "chow") {
        const rank = Number(code[0]);
        if (code[1] === "z" || rank > 7) return;
        tiles = [0, 1, 2].map((i) => rank + i + code[1]);
      } else {
        tiles = Array(SIZE[m.kind]).fill(code);
      }
      if (tiles.some((t) => used(form, t) + tiles.filter((x) => x === t).length > 4)) return;
      m.melds.push({ kind: m.kind, tiles, from_seat: null });
    }
  }

  forms.mcr = {
    win(ctx) {
      const { S, e, form, el, chips, tileButton, fill, draw } = ctx;
      const m = state(form);
      const wind = (seat) => (e.match ? " · " + e.match.winds[seat] : "");
      const inHand = e.seats.filter((s) => e.still_in.includes(s.seat));
      const needsFrom = ["discard", "rob_kong"].includes(form.how);
      const selfDrawn = ["self_draw", "kong_replacement"].includes(form.how);
      const toggle = (id, key, label) => el("button", { class: "chip", id, "aria-pressed": String(m[key]),
        onclick: () => { m[key] = !m[key]; draw(); } }, label);
      const target = (k, label) => el("button", { class: "chip", "aria-pressed": String(m.target === k),
        "data-target": k, onclick: () => { m.target = k; draw(); } }, label);
      const meldRows = m.melds.map((meld, i) => el("div", { class: "row", "data-meld": i },
        el("span", { class: "meld" }, meld.tiles.map((t) => tileButton(t, () => { m.melds.splice(i, 1); draw(); }))),
        el("span", { class: "hint" }, S["mcr_" + meld.kind]),
        CLAIMED.includes(meld.kind) ? el("span", { class: "hint" }, S.meld_from) : null,
        CLAIMED.includes(meld.kind) ? e.seats.filter((s) => s.seat !== form.winner).map((s) =>
          el("button", { class: "chip", "aria-pressed": String(meld.from_seat === s.seat), "data-meld-from": s.seat,
            onclick: () => { meld.from_seat = s.seat; draw(); } }, "← " + s.name)) : null));
      const palette = el("div", { class: "tiles", id: "palette" },
        e.tiles.map((code) => tileButton(code, () => { tap(form, code); draw(); })));
      const flowers = el("div", { class: "row", id: "flowers" }, FLOWER_CODES.map((code, i) =>
        el("button", { class: "chip", "aria-pressed": String(m.flowers.includes(code)), "data-flower": code,
          onclick: () => {
            const k = m.flowers.indexOf(code);
            if (k >= 0) m.flowers.splice(k, 1); else m.flowers.push(code);
            draw();
          } }, (S.flower_tiles || "梅兰竹菊春夏秋冬")[i])));
      const fan = el("input", { type: "number", id: "mcr-fan", min: "1", max: "999", inputmode: "numeric",
        value: m.fan === null ? "" : String(m.fan) });
      fan.oninput = () => { const n = parseInt(fan.value, 10); m.fan = n > 0 ? n : null; };
      return [
        e.match ? el("p", { class: "hint", id: "mcr-match" },
          fill(S.match, { round: e.match.round, hand: e.match.hand, number: e.match.number,
            winds: e.seats.map((s) => s.name + " " + e.match.winds[s.seat]).join(S.colon === "：" ? "、" : ", ") }),
          " ", fill(S.gate, { gate: e.match.gate })) : null,
        el("h3", {}, S.winner), chips(inHand.map((s) => ({ seat: s.seat, name: s.name + wind(s.seat) })),
          "winner", "seat", "name"),
        el("h3", {}, S.how), chips(e.hows, "how", "how", "label"),
        needsFrom ? el("h3", {}, S.from) : null,
        needsFrom ? chips(inHand.filter((s) => s.seat !== form.winner), "from_seat", "seat", "name") : null,
        el("div", { class: "row" }, target("standing", S.standing + S.lp + form.tiles.length + S.rp),
          target("meld", S.melds), target("winning", S.winning_tile)),
        m.target === "meld" ? el("h3", {}, S.meld_kind) : null,
        m.target === "meld" ? el("div", { class: "row", id: "meld-kinds" }, Object.keys(SIZE).map((k) =>
          el("button", { class: "chip", "aria-pressed": String(m.kind === k), "data-meld-kind": k,
            onclick: () => { m.kind = k; draw(); } }, S["mcr_" + k]))) : null,
        m.target === "meld" && m.kind === "chow" ? el("p", { class: "hint" }, S.chow_from) : null,
        el("h3", {}, S.standing), el("div", { class: "picked", id: "picked" }, form.tiles.map((t, i) =>
          tileButton(t, () => { form.tiles.splice(i, 1); draw(); }))),
        m.melds.length ? [el("h3", {}, S.melds), el("div", { id: "melds" }, meldRows)] : null,
        el("h3", {}, S.winning_tile), el("div", { class: "picked", id: "winning" },
          m.winning_tile ? tileButton(m.winning_tile, () => { m.winning_tile = null; draw(); }) : null),
        palette,
        el("h3", {}, fill(S.flowers_n, { n: m.flowers.length })), flowers,
        el("h3", {}, S.flags), el("div", { class: "row", id: "flags" },
          toggle("flag-last-tile", "last_tile", S.mcr_last_tile),
          toggle("flag-last-of-wall", "last_of_wall", selfDrawn ? S.mcr_last_of_wall_self : S.mcr_last_of_wall)),
        el("div", { class: "row" }, el("button", { class: "act light", id: "clear", onclick: () => {
          forms.mcr.reset(form); draw();
        } }, S.clear)),
        el("h3", {}, S.fan_alone), fan,
      ];
    },
    reset(form) {
      form.tiles = [];
      form.mcr = null;
    },
    body(form, falseWin) {
      const m = state(form);
      return { winner: form.winner, how: form.how,
        from_seat: ["discard", "rob_kong"].includes(form.how) ? form.from_seat : null,
        tiles: form.tiles, mcr: { melds: m.melds, winning_tile: m.winning_tile,
          last_tile: m.last_tile, last_of_wall: m.last_of_wall, flowers: m.flowers.length,
          fan: m.fan, false_win: !!falseWin } };
    },
  };
})();
