// Mahjong Tally's Mini App: plain JavaScript, no library, no build step.
// Telegram passes the launch parameters in the URL's fragment (#tgWebAppData=...&
// tgWebAppThemeParams=...); they are kept for reloads, and the init data goes with every
// API request as "Authorization: tma <initData>".
"use strict";
(function () {
  const BASE = document.currentScript.dataset.base;
  const POLL_MS = 1000;
  const SEATS = ["E", "S", "W", "N"];
  // Tiles as the page's words write them (S.suits "万筒条", S.honors: 萬, 東 in zh-Hant).
  const SUITS = { m: "万", p: "筒", s: "条" };
  const HONORS = ["东", "南", "西", "北", "白", "发", "中"];  // 1z-7z, as engine/tiles.py reads them
  const COLOURS = 8, DASHES = 3;  // a chart's line colours and styles, .c0-.c7 and .d0-.d2 in app.css
  // the k-th line's look: every colour solid, then each again dashed, then dotted
  const look = (k) => "c" + (k % COLOURS) + " d" + (Math.floor(k / COLOURS) % DASHES);

  function launchParams() {
    const fresh = new URLSearchParams(location.hash.slice(1));
    if (fresh.get("tgWebAppData")) {
      try { sessionStorage.setItem("tally-launch", location.hash.slice(1)); } catch (e) { /* private mode */ }
      return fresh;
    }
    let kept = null;
    try { kept = sessionStorage.getItem("tally-launch"); } catch (e) { /* private mode */ }
    return new URLSearchParams(kept || "");
  }
  const launch = launchParams();
  const initData = launch.get("tgWebAppData") || "";
  let theme = {};
  try { theme = JSON.parse(launch.get("tgWebAppThemeParams") || "{}") || {}; } catch (e) { theme = {}; }

  function applyTheme() {
    const root = document.documentElement;
    const names = { bg_color: "--bg", text_color: "--text", hint_color: "--hint",
      link_color: "--link", button_color: "--button", button_text_color: "--button-text",
      secondary_bg_color: "--secondary-bg" };
    for (const [key, cssVar] of Object.entries(names)) {
      if (typeof theme[key] === "string" && /^#[0-9a-fA-F]{3,8}$/.test(theme[key])) {
        root.style.setProperty(cssVar, theme[key]);
      }
    }
    const bg = theme.bg_color;
    if (typeof bg === "string" && /^#[0-9a-fA-F]{6}$/.test(bg)) {
      const n = parseInt(bg.slice(1), 16);
      const lum = (0.2126 * (n >> 16) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)) / 255;
      root.classList.add(lum < 0.5 ? "dark" : "light");
    } else if (matchMedia("(prefers-color-scheme: dark)").matches) {
      root.classList.add("dark");
    }
  }
  applyTheme();

  // Telegram's Mini App events, without Telegram's script: a method is posted to the
  // client (mobile and desktop: TelegramWebviewProxy; web: the parent frame), an event
  // comes back through window.Telegram.WebView.receiveEvent (or a message from the frame).
  function postEvent(type, data) {
    const payload = JSON.stringify(data || {});
    try {
      if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, payload);
      else if (window.external && "notify" in window.external) {
        window.external.notify(JSON.stringify({ eventType: type, eventData: data || {} }));
      } else if (window.parent !== window) {
        window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data || {} }),
          "https://web.telegram.org");
      }
    } catch (e) { /* outside Telegram */ }
  }
  function receiveEvent(type, data) {
    if (type === "theme_changed" && data && data.theme_params) {
      theme = data.theme_params;
      document.documentElement.classList.remove("dark", "light");
      applyTheme();
    }
  }
  window.Telegram = { WebView: { receiveEvent } };
  window.addEventListener("message", (ev) => {
    if (ev.source !== window.parent || ev.origin !== "https://web.telegram.org") return;
    try {
      const m = JSON.parse(ev.data);
      if (m && m.eventType) receiveEvent(m.eventType, m.eventData);
    } catch (e) { /* not Telegram's */ }
  });

  let S = {};  // the words, from the server
  let me = null;
  let tab = "board";
  let boardKey = "";
  const view = document.getElementById("view");

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  function show(...nodes) { view.replaceChildren(...nodes.flat(Infinity).filter((n) => n)); }
  function signed(n) { return n > 0 ? "+" + n : String(n); }
  function cls(n) { return n > 0 ? "plus" : n < 0 ? "minus" : ""; }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  }
  function toast(text, error, ms) {
    const t = document.getElementById("toast");
    t.textContent = text;
    t.className = error ? "error" : "";
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, ms || 3500);
  }

  async function api(path, body) {
    const opts = { headers: { Authorization: "tma " + initData } };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(BASE + "/api/" + path, opts);
    } catch (e) {  // no answer: the network, or the bot away (a write keeps its key)
      const err = new Error(S.failed || String(e));
      err.status = 0;
      throw err;
    }
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = new Error((data && data.message) || S.failed || "Error " + res.status);
      err.status = res.status;
      err.code = data && data.error;
      // the init data is refused (too old, most often: a night outlasts its hour): the
      // page says so and how to reopen it, and shows nothing it can no longer keep fresh
      if (res.status === 401 && me) fatal(err.message);
      throw err;
    }
    return data;
  }

  let stopped = false;
  function fatal(message) {
    stopped = true;  // no more polling: nothing on the page is kept fresh any more
    document.getElementById("tabs").hidden = true;
    document.getElementById("offline").hidden = true;
    show(el("p", { class: "error", id: "fatal" }, message));
  }

  // A write to the group (a report, an undo, a debt paid) carries an idempotency key: the
  // server sends it once however often it arrives. The key of a slot ("record", "undo",
  // "paid 3") is kept through retries until an answer says the write went in, or was
  // refused before anything was sent (a 4xx); its button is disabled while it is out.
  const keys = {};
  function newKey() {
    const bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }
  async function write(slot, path, body) {
    keys[slot] = keys[slot] || newKey();
    try {
      const r = await api(path, Object.assign({}, body, { key: keys[slot] }));
      delete keys[slot];
      return r;
    } catch (e) {
      if (e.status >= 400 && e.status < 500) delete keys[slot];
      throw e;
    }
  }
  function written(r) {  // what the app says once a write is answered
    if (r.already) toast(S.already, false, 6000);
    else if (r.asks) toast(fill(S.asks, { n: r.asks }), false, 9000);
    else toast(S.sent);
  }

  // -- tabs ------------------------------------------------------------------------------
  const TABS = ["board", "chart", "hands", "players", "debts", "enter"];
  function showTabs() {
    const nav = document.getElementById("tabs");
    nav.replaceChildren(...TABS.filter((k) => k !== "enter" || me.can_record).map((k) =>
      el("button", { "data-tab": k, "aria-selected": String(k === tab),
        onclick: () => { tab = k; showTabs(); render(); } }, S["tab_" + k] || S[k])));
    nav.hidden = false;
  }
  async function render() {
    try {
      if (tab === "board") await renderBoard(true);
      else if (tab === "chart") await renderChart();
      else if (tab === "hands") await renderHands();
      else if (tab === "players") await renderPlayers();
      else if (tab === "debts") await renderDebts();
      else if (tab === "enter") await renderEnter();
    } catch (e) {
      if (e.status === 401 || e.status === 403) fatal(e.message);
      else toast(e.message, true);
    }
  }

  // -- the scoreboard, polled ----------------------------------------------------------------
  async function renderBoard(force, given) {
    const b = given || await api("board");
    const key = JSON.stringify(b);
    if (!force && key === boardKey) return;
    boardKey = key;
    if (tab !== "board") return;
    if (b.status === "none") {
      show(el("h2", {}, S.board), el("p", { class: "hint", id: "no-table" }, S.no_table));
      return;
    }
    const rows = b.seats.map((s) => el("tr", { "data-seat": s.seat },
      el("td", {}, s.seat_name),
      el("td", {}, s.name, s.dealer ? el("span", { class: "badge" }, S.dealer) : null,
        b.open_hand ? el("span", { class: "badge" + (s.in_hand ? "" : " off") },
          s.in_hand ? S.in_hand : S.out) : null),
      el("td", { class: "num " + cls(s.total), "data-total": s.total }, s.shown || signed(s.total)),
      el("td", { class: "num " + cls(s.total) }, s.money)));
    const left = b.left.map((p) => el("tr", { class: "left", "data-left": p.name },
      el("td", {}, ""), el("td", {}, p.name, el("span", { class: "badge off" }, S.left)),
      el("td", { class: "num " + cls(p.total), "data-total": p.total }, signed(p.total)),
      el("td", { class: "num " + cls(p.total) }, p.money)));
    show(
      el("h2", { id: "board-title" }, b.preset + " · " + fill(S.hand_n, { n: b.hand })),
      el("table", { id: "board" },
        el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, ""),
          el("th", { class: "num" }, S.points), el("th", { class: "num" }, S.money))),
        el("tbody", {}, rows, left)),
      b.match ? el("p", { class: "hint", id: "match" }, matchLine(b.match, b.seats)) : null,
      el("p", { class: "hint" }, S.stake + " " + b.stake),
      b.can_undo ? el("div", { class: "row" },
        el("button", { class: "act light", id: "undo", onclick: undo, disabled: undoing }, S.undo)) : null);
    // when the board was first shown, since navigation began (the docs' timings)
    if (!document.body.dataset.shown) document.body.dataset.shown = String(Math.round(performance.now()));
  }
  // MCR: "Match: East round, hand 2 of 4 (2 of 16). Seat winds: alice North, …"
  function matchLine(m, seats) {
    const winds = seats.map((s) => s.name + " " + m.winds[s.seat]).join(S.colon === "：" ? "、" : ", ");
    return fill(S.match, { round: m.round, hand: m.hand, number: m.number, winds });
  }
  let undoing = false;
  async function undo(ev) {
    if (undoing) return;
    undoing = true;
    ev.target.disabled = true;
    try { written(await write("undo", "undo", {})); } catch (e) { if (!stopped) toast(e.message, true); }
    undoing = false;
    const button = document.getElementById("undo");
    if (button) button.disabled = false;
  }
  // the poll: a failure is said, never left as silently stale totals
  function offline(on) {
    const note = document.getElementById("offline");
    note.textContent = S.offline || "";
    note.hidden = !on || stopped;
  }
  setInterval(() => {
    if (tab === "board" && me && !stopped && !document.hidden) {
      renderBoard(false).then(() => offline(false), (e) => {
        if (e.status === 401 || e.status === 403) fatal(e.message);
        else offline(true);
      });
    }
  }, POLL_MS);

  // -- the night's chart ---------------------------------------------------------------------
  function keepPairs(text) {
    // "dave -8" (a word and a signed score) never wraps apart: each in a nowrap span
    return text.split(/(\S+ [+-]\d+)/).map((part, i) => i % 2 ? el("span", { class: "pair" }, part) : part);
  }
  function handView(h) {
    return el("div", { class: "lines" }, keepPairs(h.events.map((lines) => lines.join("\n")).join("\n\n")));
  }
  async function renderChart() {
    const n = await api("night");
    if (tab !== "chart") return;
    if (!n.hands.length) {
      show(el("h2", {}, S.chart), el("p", { class: "hint" }, S.no_hands));
      return;
    }
    const W = 340, H = 200, P = 24;
    const counted = n.hands;
    const all = n.lines.flatMap((l) => l.values).filter((v) => v !== null).concat([0]);
    const lo = Math.min(...all), hi = Math.max(...all);
    const span = hi - lo || 1;
    const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, counted.length);
    const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / span;
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("id", "chart");
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    const detail = el("div", { id: "chart-hand" }, el("p", { class: "hint" }, S.tap_hand));
    const colW = (W - 2 * P) / Math.max(1, counted.length);
    counted.forEach((h, i) => {
      const col = add("rect", { class: "col", x: x(i) + 0, y: P / 2, width: colW, height: H - P,
        "data-hand": h.number });
      col.addEventListener("click", () => {
        svg.querySelectorAll(".col.sel").forEach((c) => c.classList.remove("sel"));
        col.classList.add("sel");
        detail.replaceChildren(el("h3", {}, fill(S.hand_n, { n: h.number })), handView(h));
      });
    });
    add("line", { class: "axis", x1: P, x2: W - P, y1: y(0), y2: y(0) });
    add("text", { x: 2, y: y(hi) + 3 }, String(hi));
    add("text", { x: 2, y: y(lo) + 3 }, String(lo));
    n.lines.forEach((l, k) => {
      // a line per person: a gap where they were not at the table (a seat changed)
      const runs = [[]];
      l.values.forEach((v, i) => {
        if (v !== null) runs[runs.length - 1].push(x(i) + "," + y(v));
        else if (runs[runs.length - 1].length) runs.push([]);
      });
      runs.filter((r) => r.length).forEach((r) => {
        const line = add("polyline", { class: look(k), "data-line": l.name, points: r.join(" ") });
        line.style.pointerEvents = "none";
      });
    });
    const legend = el("p", { class: "legend" }, n.lines.map((l, k) =>
      el("span", {}, el("i", { class: look(k) }), l.name, l.left ? S.lp + S.left + S.rp : null)));
    show(el("h2", {}, fill(S.night_n, { n: n.night }) + " · " + n.preset),
      svg, legend, detail);
  }

  // -- the night's hands -----------------------------------------------------------------------
  async function renderHands() {
    const n = await api("night");
    if (tab !== "hands") return;
    const items = n.hands.slice().reverse().map((h) => {
      const body = handView(h);
      body.hidden = true;
      const status = h.status === "void" ? " · " + S.void : h.status === "open" ? " · " + S.open : "";
      return el("div", { class: "hand " + h.status, "data-hand": h.number,
        onclick: () => { body.hidden = !body.hidden; } },
        el("div", { class: "head" }, el("b", {}, fill(S.hand_n, { n: h.number }) + status),
          el("span", { class: "deltas" }, Object.entries(h.deltas).map(([s, d], i) =>
            [i ? "  " : null, el("span", { class: "pair" }, h.names[s] + " " + signed(d))]))),
        body);
    });
    show(el("h2", {}, S.hands),
      items.length ? el("p", { class: "hint" }, S.tap_hand) : el("p", { class: "hint" }, S.no_hands),
      ...items);
  }

  // -- standings and a player's record -----------------------------------------------------
  function lineChart(id, xs, lines) {
    // lines: [{name, values}] over xs; an inline SVG, coloured as the legend
    const W = 340, H = 180, P = 24, NS = "http://www.w3.org/2000/svg";
    const all = lines.flatMap((l) => l.values).concat([0]);
    const lo = Math.min(...all), hi = Math.max(...all), span = hi - lo || 1;
    const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, xs.length - 1);
    const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / span;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("id", id);
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
    };
    add("line", { class: "axis", x1: P, x2: W - P, y1: y(0), y2: y(0) });
    add("text", { x: 2, y: y(hi) + 3 }, String(hi));
    add("text", { x: 2, y: y(lo) + 3 }, String(lo));
    lines.forEach((l, k) => add("polyline", { class: look(k),
      points: l.values.map((v, i) => x(i) + "," + y(v)).join(" ") }));
    return [svg, el("p", { class: "legend" }, lines.map((l, k) =>
      el("span", {}, el("i", { class: look(k) }), l.name)))];
  }
  async function renderPlayers() {
    const data = await api("players");
    const rows = data.rows;
    if (tab !== "players") return;
    const detail = el("div", { id: "player" });
    const table = el("table", { id: "standings" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", { class: "num" }, S.money),
        el("th", { class: "num" }, S.hands_played), el("th", { class: "num" }, S.wins))),
      el("tbody", {}, rows.map((r) => el("tr", { "data-player": r.id,
        onclick: () => showPlayer(r.id, detail) },
        el("td", {}, r.name), el("td", { class: "num " + cls(r.cents) }, r.money),
        el("td", { class: "num" }, r.hands), el("td", { class: "num" }, r.wins)))));
    const chart = data.chart.lines.length && data.chart.nights.length > 1
      ? lineChart("standings-chart", data.chart.nights, data.chart.lines) : null;
    show(el("h2", {}, S.players), table, chart, detail);
  }
  async function showPlayer(id, detail) {
    const p = await api("player/" + id);
    const facts = [[S.hands_played, p.hands], [S.wins, p.wins], [S.self_draws, p.self_draws],
      [S.dealt_in, p.dealt_in], [S.points, signed(p.net)], [S.biggest, p.biggest_shown],
      [S.average, p.average_win]];
    const W = 300, H = 60, maxAbs = Math.max(1, ...p.last.map((h) => Math.abs(h.delta)));
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    p.last.slice().reverse().forEach((h, i) => {
      const r = document.createElementNS(NS, "rect");
      const hgt = (Math.abs(h.delta) / maxAbs) * (H / 2 - 4);
      r.setAttribute("x", 10 + i * 28); r.setAttribute("width", 20);
      r.setAttribute("y", h.delta >= 0 ? H / 2 - hgt : H / 2); r.setAttribute("height", Math.max(1, hgt));
      r.setAttribute("fill", h.delta >= 0 ? "#27ae60" : "#e74c3c");
      svg.append(r);
    });
    detail.replaceChildren(...[el("h3", {}, p.name),
      el("table", {}, el("tbody", {}, facts.map(([k, v]) =>
        el("tr", {}, el("td", {}, k), el("td", { class: "num" }, v))))),
      p.last.length ? el("h3", {}, S.last) : null, p.last.length ? svg : null,
      // as /stats says it: the best at the chat's preset, with the preset it was played at
      p.best ? el("p", { id: "player-best", "data-preset": p.best.preset }, p.best.text) : null
    ].filter((n) => n));
  }

  // -- open debts ------------------------------------------------------------------------------
  async function renderDebts() {
    const rows = await api("debts");
    if (tab !== "debts") return;
    const list = rows.map((d) => el("div", { class: "hand", "data-debt": d.handle },
      el("div", { class: "head" },
        el("span", {}, "#" + d.handle + " " + fill(S.owes, { payer: d.payer, payee: d.payee })),
        el("b", {}, d.money)),
      d.can_pay ? el("div", { class: "row" }, el("button", { class: "act light",
        onclick: async (ev) => {
          ev.target.disabled = true;  // stays so: the debt leaves the list once it is paid
          try { written(await write("paid " + d.handle, "paid", { handle: d.handle })); } catch (e) {
            if (!stopped) toast(e.message, true);
            ev.target.disabled = false;
          }
        } }, S.paid)) : null));
    show(el("h2", {}, S.debts),
      list.length ? el("div", { id: "debts" }, list) : el("p", { class: "hint" }, S.no_debts));
  }

  // -- entering a hand by its tiles ----------------------------------------------------------
  const form = { kind: "win", winner: null, how: "self_draw", from_seat: null, tiles: [],
    melds: [], patterns: [], indicator: null, kong: null, players: {}, others: [],
    tai: null, bonus: [], amount: null, bite: null, hidden: false };
  const families = window.TallyForms || {};  // form-*.js: each family's own parts of the form
  let target = "tiles";
  function tileLabel(code) {
    const r = code[0], s = code[1];
    if (s === "z") return (S.honors || HONORS)[Number(r) - 1];
    return r + (S.suits ? S.suits["mps".indexOf(s)] : SUITS[s]);
  }
  function tileButton(code, onclick) {
    return el("button", { class: "tile " + code[1], "data-tile": code, onclick }, tileLabel(code));
  }
  function addTile(code) {
    const count = form.tiles.concat(form.melds.flat()).filter((t) => t === code).length;
    if (count >= 4) return;
    if (target === "indicator") {
      form.indicator = code;
    } else if (target === "tiles") {
      if (form.tiles.length < 14) form.tiles.push(code);
    } else {
      const last = form.melds[form.melds.length - 1];
      const kong = last && last.length === 3 && last.every((t) => t === code);
      if (last && (last.length < 3 || kong)) last.push(code);
      else if (form.melds.length < 4) form.melds.push([code]);
    }
  }
  let sending = false;  // Preview or Record is out: both stay disabled until it is answered
  async function renderEnter() {
    const e = await api("entry");
    if (tab !== "enter") return;
    keys.record = keys.record || newKey();  // made when the form is opened
    if (!form.winner || !e.seats.some((s) => s.seat === form.winner)) {
      form.winner = e.still_in[0] || e.seats[0].seat;
    }
    const out = el("div", { id: "preview" });
    const draw = () => {
      gate = false;  // a tap changes the hand: the gate is asked again
      const chips = (items, key, value, label) => el("div", { class: "row" }, items.map((it) =>
        el("button", { class: "chip", "aria-pressed": String(form[key] === it[value]),
          ["data-" + key.replace("_", "-")]: it[value],
          onclick: () => { form[key] = it[value]; draw(); } }, it[label])));
      const modes = chips([{ k: "win", l: S.a_win }]
        .concat(e.kongs.length ? [{ k: "kong", l: S.a_kong }] : [])
        .concat(e.bites.length ? [{ k: "bite", l: S.a_bite }] : [])
        .concat(e.draw ? [{ k: "draw", l: S.a_draw }] : []), "kind", "k", "l");
      // what a family's own part of the form is given (form-*.js)
      const ctx = { S, e, form, el, fill, chips, tileButton, draw };
      const actions = el("div", { class: "row" },
        el("button", { class: "act light", id: "preview-button", onclick: () => send("preview"),
          disabled: sending }, S.preview),
        el("button", { class: "main", id: "record-button", onclick: () => send("record"),
          disabled: sending }, S.record));
      if (form.kind === "draw") {
        const states = [["no", S.wall_no || "未听"], ["ready", S.wall_ready || "听"],
          ["pig", S.wall_pig || "花猪"]];
        const rows = e.seats.filter((s) => e.still_in.includes(s.seat)).map((s) => {
          const p = form.players[s.seat] || (form.players[s.seat] = { state: "no", fan: 1 });
          return el("div", { class: "row", "data-draw-seat": s.seat }, el("b", {}, s.name),
            states.map(([k, label]) => el("button", { class: "chip", "aria-pressed": String(p.state === k),
              "data-state": k, onclick: () => { p.state = k; draw(); } }, label)),
            p.state === "ready" ? [
              el("button", { class: "chip", onclick: () => { p.fan = Math.max(1, p.fan - 1); draw(); } }, "−"),
              el("span", { class: "hint" }, fill(S.fan, { n: p.fan })),
              el("button", { class: "chip", onclick: () => { p.fan = Math.min(20, p.fan + 1); draw(); } }, "+")] : null);
        });
        show(el("h2", {}, S.enter), modes, el("p", { class: "hint" }, S.draw_help), rows, actions, out);
        return;
      }
      if (form.kind === "bite" && families.singapore) {
        show(el("h2", {}, S.enter), modes, families.singapore.bite(ctx), actions, out);
        return;
      }
      if (form.kind === "win" && e.family === "mcr" && families.mcr) {
        show(el("h2", {}, S.enter), modes, families.mcr.win(ctx), actions, out);
        return;
      }
      if (form.kind === "kong") {
        show(el("h2", {}, S.enter), modes,
          el("h3", {}, S.kong_by), chips(e.seats.filter((s) => e.still_in.includes(s.seat)), "winner", "seat", "name"),
          el("h3", {}, S.kong_kind), chips(e.kongs, "kong", "kong", "label"),
          form.kong === "direct" ? el("h3", {}, S.from) : null,
          form.kong === "direct" ? chips(e.seats.filter((s) => s.seat !== form.winner && e.still_in.includes(s.seat)),
            "from_seat", "seat", "name") : null,
          actions, out);
        return;
      }
      const needsFrom = ["discard", "rob_kong", "after_kong_discard"].includes(form.how);
      form.others = needsFrom ? form.others.filter((o) => o.winner !== form.winner && o.winner !== form.from_seat) : [];
      const alsoSeats = e.seats.filter((s) => e.still_in.includes(s.seat) && s.seat !== form.winner &&
        s.seat !== form.from_seat);
      // one winner per hand in Hong Kong (截糊): no "also won"
      const also = needsFrom && form.from_seat && alsoSeats.length && e.family !== "hongkong" ? [
        el("h3", {}, S.also),
        el("div", { class: "row", id: "also" }, alsoSeats.map((s) => {
          const i = form.others.findIndex((o) => o.winner === s.seat);
          return el("button", { class: "chip", "aria-pressed": String(i >= 0), "data-also": s.seat,
            onclick: () => { if (i >= 0) form.others.splice(i, 1); else form.others.push({ winner: s.seat, patterns: [] }); draw(); } },
            s.name);
        })),
        form.others.map((o) => [
          el("h3", {}, S.patterns + " · " + e.seats.find((s) => s.seat === o.winner).name),
          el("div", { class: "row", "data-also-patterns": o.winner }, e.patterns.map((p) =>
            el("button", { class: "chip", "aria-pressed": String(o.patterns.includes(p)), onclick: () => {
              const k = o.patterns.indexOf(p);
              if (k >= 0) o.patterns.splice(k, 1); else if (o.patterns.length < 8) o.patterns.push(p);
              draw();
            } }, (e.pattern_labels || {})[p] || p)))])] : null;
      const palette = el("div", { class: "tiles", id: "palette" });
      for (const code of e.tiles) palette.append(tileButton(code, () => { addTile(code); draw(); }));
      const picked = el("div", { class: "picked", id: "picked" }, form.tiles.map((t, i) =>
        tileButton(t, () => { form.tiles.splice(i, 1); draw(); })));
      const melds = el("div", { class: "picked", id: "melds" }, form.melds.map((m, i) =>
        el("span", { class: "meld" }, m.map((t) => tileButton(t, () => { form.melds.splice(i, 1); draw(); })))));
      const kinds = [["tiles", S.tiles], ["melds", S.melds]];
      if (e.indicator) kinds.push(["indicator", fill(S.indicator, { word: e.indicator })]);
      const targets = el("div", { class: "row" }, kinds.map(([k, label]) =>
        el("button", { class: "chip", "aria-pressed": String(target === k), "data-target": k,
          onclick: () => { target = k; draw(); } }, label)));
      // Singapore: the tai counted in, and the bonus tiles; points only: the amount.
      const taiRow = e.tai ? [el("h3", {}, S.tai), el("div", { class: "row", id: "tai" },
        Array.from({ length: e.tai[1] - e.tai[0] + 1 }, (_, i) => e.tai[0] + i).map((n) =>
          el("button", { class: "chip", "aria-pressed": String(form.tai === n), "data-tai": n,
            onclick: () => { form.tai = form.tai === n ? null : n; draw(); } }, String(n))))] : null;
      const bonusRow = e.bonus.length ? [el("h3", {}, S.bonus), el("div", { class: "row", id: "bonus" },
        e.bonus.map((b) => el("button", { class: "chip", "aria-pressed": String(form.bonus.includes(b)),
          "data-bonus": b, onclick: () => {
            const i = form.bonus.indexOf(b);
            if (i >= 0) form.bonus.splice(i, 1); else form.bonus.push(b);
            draw();
          } }, b)))] : null;
      if (e.amount) {
        const amount = el("input", { type: "number", id: "amount", min: "1", max: "1000000",
          inputmode: "numeric", value: form.amount === null ? "" : String(form.amount) });
        amount.oninput = () => { const n = parseInt(amount.value, 10); form.amount = n > 0 ? n : null; };
        show(
          el("h2", {}, S.enter), modes,
          el("h3", {}, S.winner), chips(e.seats.filter((s) => e.still_in.includes(s.seat)), "winner", "seat", "name"),
          el("h3", {}, S.how), chips(e.hows, "how", "how", "label"),
          needsFrom ? el("h3", {}, S.from) : null,
          needsFrom ? chips(e.seats.filter((s) => s.seat !== form.winner && e.still_in.includes(s.seat)),
            "from_seat", "seat", "name") : null,
          el("h3", {}, S.amount), amount,
          el("div", { class: "row" },
            el("button", { class: "act light", id: "preview-button", onclick: () => send("preview"),
            disabled: sending }, S.preview),
            el("button", { class: "main", id: "record-button", onclick: () => send("record"),
            disabled: sending }, S.record)),
          out);
        return;
      }
      const pats = el("div", { class: "row", id: "patterns" }, e.patterns.map((p) =>
        el("button", { class: "chip", "aria-pressed": String(form.patterns.includes(p)), "data-pattern": p,
          onclick: () => {
            const i = form.patterns.indexOf(p);
            if (i >= 0) form.patterns.splice(i, 1); else if (form.patterns.length < 8) form.patterns.push(p);
            draw();
          } }, (e.pattern_labels || {})[p] || p)));
      show(
        el("h2", {}, S.enter), modes,
        el("h3", {}, S.winner), chips(e.seats.filter((s) => e.still_in.includes(s.seat)), "winner", "seat", "name"),
        el("h3", {}, S.how), chips(e.hows, "how", "how", "label"),
        needsFrom ? el("h3", {}, S.from) : null,
        needsFrom ? chips(e.seats.filter((s) => s.seat !== form.winner && e.still_in.includes(s.seat)),
          "from_seat", "seat", "name") : null,
        also,
        targets, el("h3", {}, S.tiles + S.lp + form.tiles.length + S.rp), picked,
        form.melds.length || target === "melds" ? el("h3", {}, S.melds) : null,
        form.melds.length || target === "melds" ? melds : null,
        e.indicator && (form.indicator || target === "indicator") ? el("h3", {}, fill(S.indicator, { word: e.indicator })) : null,
        e.indicator && form.indicator ? el("div", { class: "picked", id: "indicator" },
          tileButton(form.indicator, () => { form.indicator = null; draw(); })) : null,
        palette,
        el("div", { class: "row" }, el("button", { class: "act light", id: "clear",
          onclick: () => {
            form.tiles = []; form.melds = []; form.patterns = []; form.indicator = null;
            out.replaceChildren(); draw();
          } }, S.clear)),
        el("h3", {}, S.patterns), pats, taiRow, bonusRow,
        e.family === "hongkong" && families.hongkong ? families.hongkong.extras(ctx) : null,
        e.family === "singapore" && families.singapore ? families.singapore.win(ctx) : null,
        el("div", { class: "row" },
          el("button", { class: "act light", id: "preview-button", onclick: () => send("preview"),
          disabled: sending }, S.preview),
          el("button", { class: "main", id: "record-button", onclick: () => send("record"),
          disabled: sending }, S.record)),
        out);
    };
    const body = () => form.kind === "bite" ? families.singapore.body(form)
      : form.kind === "win" && e.family === "mcr" ? families.mcr.body(form, gate)
      : form.kind === "win" && e.family === "hongkong" ? Object.assign(generic(), families.hongkong.body(form))
      : form.kind === "win" && e.family === "singapore" ? Object.assign(generic(), families.singapore.winBody(form))
      : generic();
    const generic = () => form.kind === "draw" ? { kind: "draw", players: form.players } : form.kind === "kong" ? { kind: "kong", winner: form.winner, kong: form.kong,
      from_seat: form.kong === "direct" ? form.from_seat : null } : ({ winner: form.winner, how: form.how,
      from_seat: ["discard", "rob_kong", "after_kong_discard"].includes(form.how) ? form.from_seat : null,
      tiles: form.tiles, melds: form.melds, patterns: form.patterns,
      indicator: e.indicator ? form.indicator : null, others: form.others,
      tai: e.tai ? form.tai : null, bonus: e.bonus.length ? form.bonus : [],
      amount: e.amount ? form.amount : null });
    // MCR: once the app has said the claim is under the gate, Record records it as 错和
    let gate = false;
    const falseWin = (on) => {
      gate = !!on;
      const button = document.getElementById("record-button");
      if (button) button.textContent = gate ? S.record_false_win : S.record;
    };
    const busy = (on) => {
      sending = on;
      for (const id of ["preview-button", "record-button"]) {
        const button = document.getElementById(id);
        if (button) button.disabled = on;
      }
    };
    async function send(kind) {
      if (sending) return;
      busy(true);  // before the request: a second click finds Record disabled
      try {
        const r = kind === "preview" ? await api(kind, body()) : await write("record", kind, body());
        if (kind === "preview") {
          const names = Object.fromEntries(e.seats.map((s) => [s.seat, s.name]));
          out.replaceChildren(el("p", { class: "hint" }, r.text),
            el("p", { class: "deltas" }, Object.entries(r.deltas).map(([s, d]) =>
              [el("span", { class: "pair " + cls(d) }, names[s] + " " + (r.shown ? r.shown[s] : signed(d))), "  "])),
            // MCR: under the 8-fan gate the claim is a false win (错和); Record says so
            r.false_win ? el("p", { class: "error", id: "preview-gate" }, S.under_gate) : "",
            el("div", { class: "lines", id: "preview-lines" }, r.lines.join("\n")),
            // the group will ask "the same hand?" if this is recorded: said before Record
            el("p", { class: "error", id: "preview-asks", hidden: !r.asks },
              r.asks ? fill(S.asks, { n: r.asks }) : ""));
        } else {
          written(r);
          form.tiles = []; form.melds = []; form.patterns = []; form.from_seat = null;
          form.indicator = null; form.kong = null; form.players = {}; form.others = [];
          form.tai = null; form.bonus = []; form.amount = null; form.bite = null;
          form.hidden = false;
          for (const f of Object.values(families)) if (f.reset) f.reset(form);
          tab = "board"; showTabs(); render();
        }
        if (kind === "preview") falseWin(r.false_win);
      } catch (err) {
        if (!stopped) out.replaceChildren(el("p", { class: "error", id: "preview-error" }, err.message));
        if (err.code === "under_gate") falseWin(true);
      } finally {
        busy(false);
      }
    }
    draw();
  }

  async function start() {
    if (!initData) {
      postEvent("web_app_ready");
      fatal("请从 Telegram 群里的按钮打开。 Open this page from the button in the Telegram chat.");
      return;
    }
    let first;
    try {
      [me, first] = await Promise.all([api("me"), api("board")]);  // one round trip
    } catch (e) {
      fatal(e.message);
      postEvent("web_app_ready");
      return;
    }
    S = me.strings;
    document.documentElement.lang = me.lang;
    showTabs();
    renderBoard(true, first);
    postEvent("web_app_ready");
    postEvent("web_app_expand");
  }
  start();
})();
