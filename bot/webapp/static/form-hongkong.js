// A Hong Kong win in the Mini App's form, beside the patterns and tiles every table has:
// the 番 count (and how much of it is flower 番), the bonus tiles, the seat winds and the
// prevailing wind, 包自摸 (who fed the fourth exposed meld), and the share table the
// table plays, in dollars and cents. The server writes it as the chat's /hu and counts it.
"use strict";
(function () {
  const forms = (window.TallyForms = window.TallyForms || {});
  const WINDS = ["E", "S", "W", "N"];
  const FACES = { "1f": "梅", "2f": "蘭", "3f": "菊", "4f": "竹", "1g": "春", "2g": "夏", "3g": "秋", "4g": "冬" };

  function state(form) {
    if (!form.hk) form.hk = { fan: null, flower_fan: 0, flowers: [], wind: null, feeder: null };
    return form.hk;
  }

  forms.hongkong = {
    extras(ctx) {
      const { S, e, form, el, fill, draw } = ctx;
      const h = state(form);
      const sh = e.shares;
      if (document.documentElement.lang !== "zh-Hant") FACES["2f"] = "兰";
      const chip = (attrs, pressed, label, onclick) =>
        el("button", Object.assign({ class: "chip", "aria-pressed": String(pressed), onclick }, attrs), label);
      const fans = [];
      for (let n = 0; n <= sh.cap; n++) fans.push(n);
      const seatWinds = e.seats.map((s) => s.name + " " + e.seat_winds[s.seat]).join(S.colon === "：" ? "、" : ", ");
      const others = e.seats.filter((s) => s.seat !== form.winner);
      return [
        el("h3", {}, S.fan_count),
        el("div", { class: "row", id: "hk-fan" }, fans.map((n) =>
          chip({ "data-fan": n }, h.fan === n, String(n), () => { h.fan = h.fan === n ? null : n; draw(); }))),
        h.fan !== null ? [el("h3", {}, S.flower_fan), el("div", { class: "row", id: "hk-flower-fan" },
          [0, 1, 2, 3].map((n) => chip({ "data-flower-fan": n }, h.flower_fan === n, String(n),
            () => { h.flower_fan = n; draw(); })))] : null,
        el("h3", {}, S.hk_flowers),
        el("div", { class: "row", id: "hk-flowers" }, e.flowers.map((code) =>
          chip({ "data-flower": code }, h.flowers.includes(code), FACES[code] + " " + code, () => {
            const i = h.flowers.indexOf(code);
            if (i >= 0) h.flowers.splice(i, 1); else h.flowers.push(code);
            draw();
          }))),
        el("p", { class: "hint", id: "hk-seat-winds" }, fill(S.seat_winds, { winds: seatWinds })),
        el("h3", {}, S.prevailing),
        el("div", { class: "row", id: "hk-wind" }, WINDS.map((w) =>
          chip({ "data-wind": w }, (h.wind || "E") === w, S["seat_" + w], () => { h.wind = w === "E" ? null : w; draw(); }))),
        form.how === "self_draw" ? [el("h3", {}, S.feeder), el("div", { class: "row", id: "hk-feeder" },
          [chip({ "data-feeder": "none" }, h.feeder === null, S.nobody, () => { h.feeder = null; draw(); })].concat(
            others.map((s) => chip({ "data-feeder": s.seat }, h.feeder === s.seat, "← " + s.name,
              () => { h.feeder = s.seat; draw(); }))))] : null,
        el("h3", {}, sh.title),
        el("table", { id: "hk-shares" },
          el("thead", {}, el("tr", {}, el("th", {}, "番"), el("th", { class: "num" }, S.share),
            el("th", { class: "num" }, S.pays_self), el("th", { class: "num" }, S.pays_discard))),
          el("tbody", {}, sh.rows.map((r) => el("tr", { "data-fan": r.fan, class: h.fan === r.fan ? "sel" : "" },
            el("td", {}, String(r.fan)), el("td", { class: "num" }, r.share),
            el("td", { class: "num" }, r.self_draw), el("td", { class: "num" }, r.discard))))),
      ];
    },
    reset(form) { form.hk = null; },
    body(form) {
      const h = state(form);
      return { fan: h.fan, flower_fan: h.fan === null ? 0 : h.flower_fan, flowers: h.flowers,
        wind: h.wind, feeder: form.how === "self_draw" ? h.feeder : null };
    },
  };
})();
