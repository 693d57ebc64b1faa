// The start page: the games this server offers; set one up (players, mods, options, who plays
// each seat) or resume a save; then hand out the links.

import { el, clear, api, words } from "./common.js";

const $ = (id) => document.getElementById(id);
let catalogue = null;

function fail(e) {
  $("starterror").textContent = e && e.message ? e.message : String(e);
}

function agentChoices(info) {
  const list = ["human", ...catalogue.agents];
  if (info.default_agent && !list.includes(info.default_agent)) list.push(info.default_agent);
  return list;
}

function agentLabel(a, info) {
  if (a === "human") return "a person";
  return `computer: ${a}${a === info.default_agent ? " (the game's own)" : ""}`;
}

function seatRows(info, seats, chosen) {
  return seats.map((s, i) => {
    const sel = el("select", { name: `seat-${s.id}`, dataset: { seat: s.id }, "aria-label": `who plays ${s.name}` },
      agentChoices(info).map((a) => el("option", { value: a, text: agentLabel(a, info) })));
    sel.value = chosen[s.id] || (i === 0 ? "human" : info.default_agent || "random");
    sel.addEventListener("change", () => { chosen[s.id] = sel.value; });
    chosen[s.id] = sel.value;
    return el("div", { class: "row" }, el("label", { text: s.name }), sel);
  });
}

async function setup(key) {
  $("ready").hidden = true;
  const box = $("setup");
  box.hidden = false;
  const state = { mods: [], players: null, options: {}, seats: {}, hotseat: false };
  let info = catalogue.games.find((g) => g.game === key);

  async function draw() {
    clear(box);
    if (info.error) { box.append(el("p", { class: "error", text: info.error })); return; }
    state.players = state.players && info.players.includes(state.players) ? state.players : info.default_players;
    box.append(el("h2", { text: `Set up: ${info.title}` }));
    const form = el("form", { class: "setup", onsubmit: (e) => { e.preventDefault(); create(); } });
    if (info.players.length > 1) {
      const sel = el("select", { name: "players", "aria-label": "number of players" }, info.players.map((n) => el("option", { value: n, text: `${n} players` })));
      sel.value = String(state.players);
      sel.addEventListener("change", () => { state.players = Number(sel.value); state.seats = {}; draw(); });
      form.append(el("div", { class: "row" }, el("label", { text: "players" }), sel));
    }
    if (info.mods.length) {
      const mods = el("fieldset", {}, el("legend", { text: "mods (variants)" }));
      for (const m of info.mods) {
        const cb = el("input", { type: "checkbox", name: `mod-${m}`, value: m, checked: state.mods.includes(m) || undefined });
        cb.addEventListener("change", async () => {
          state.mods = cb.checked ? [...state.mods, m] : state.mods.filter((x) => x !== m);
          try {
            info = await api(`/api/games/${encodeURIComponent(key)}?mods=${state.mods.map(encodeURIComponent).join(",")}`);
          } catch (e) { fail(e); }
          draw();
        });
        mods.append(el("label", { class: "check" }, cb, ` ${m}`, info.mod_docs && info.mod_docs[m] ? el("span", { class: "dim", text: ` — ${info.mod_docs[m]}` }) : null));
      }
      form.append(mods);
    }
    const opts = Object.entries(info.options || {});
    if (opts.length) {
      const fs = el("fieldset", {}, el("legend", { text: "options" }));
      for (const [k, o] of opts) {
        let input;
        if (o.choices) {
          input = el("select", { name: `option-${k}` }, o.choices.map((c) => el("option", { value: JSON.stringify(c), text: String(c) + (c === o.default ? " (default)" : "") })));
          input.value = JSON.stringify(k in state.options ? state.options[k] : o.default);
          input.addEventListener("change", () => { state.options[k] = JSON.parse(input.value); });
        } else {
          input = el("input", { name: `option-${k}`, value: k in state.options ? state.options[k] : (o.default ?? "") });
          input.addEventListener("change", () => {
            const v = input.value.trim();
            state.options[k] = /^-?\d+$/.test(v) ? Number(v) : v === "true" ? true : v === "false" ? false : v;
          });
        }
        fs.append(el("div", { class: "row" }, el("label", { text: words(k) }), input, o.doc ? el("span", { class: "dim small", text: o.doc }) : null));
      }
      form.append(fs);
    }
    const seats = info.seatings[String(state.players)] || [];
    const who = el("fieldset", {}, el("legend", { text: "who plays" }), seatRows(info, seats, state.seats));
    form.append(who);
    const hot = el("input", { type: "checkbox", name: "hotseat", checked: state.hotseat || undefined });
    hot.addEventListener("change", () => { state.hotseat = hot.checked; });
    form.append(el("label", { class: "check" }, hot, " the people share one screen (hot seat); otherwise each person gets a link"));
    const seed = el("input", { name: "seed", inputmode: "numeric", placeholder: "random", size: 10 });
    form.append(el("details", {}, el("summary", { text: "more" }), el("div", { class: "row" }, el("label", { text: "seed" }), seed)));
    form.append(el("p", {}, el("button", { type: "submit", class: "primary", id: "create" }, "Create the game")));
    box.append(form);

    async function create() {
      fail("");
      const body = { game: key, mods: state.mods, players: state.players, options: state.options, seats: {}, hotseat: state.hotseat };
      for (const s of seats) body.seats[s.id] = state.seats[s.id];
      if (seed.value.trim()) body.seed = Number(seed.value.trim());
      try {
        ready(await api("/api/new", body), body);
      } catch (e) { fail(e); }
    }
  }
  await draw();
  box.scrollIntoView({ behavior: "smooth", block: "start" });
}

function ready(res, body) {
  // one person against the computer: straight to the table; else the links to hand out
  const people = res.links;
  if (people.length === 1 && people[0].kind === "seat") { location.href = people[0].url; return; }
  const box = clear($("ready"));
  box.hidden = false;
  $("setup").hidden = true;
  box.append(el("h2", { text: `${res.title}: ready` }));
  if (!people.length) box.append(el("p", { text: "The computer plays every seat; watch it here:" }));
  else if (people[0].kind === "hotseat") box.append(el("p", { text: "Open the table on the screen you share; the host page saves the game." }));
  else box.append(el("p", { text: "Give each person their link (it shows only what that seat may see)." }));
  const list = el("ul", { class: "links" });
  for (const lk of people) list.append(linkRow((lk.kind === "hotseat" ? "one screen: " : "") + lk.seats.map((s) => s.name).join(", "), lk.url, true));
  list.append(linkRow("watch (the public view)", res.watch, !people.length));
  list.append(linkRow("host page (these links, save the game)", res.host, false));
  box.append(list);
}

function linkRow(label, url, open) {
  const copy = el("button", { type: "button", class: "small", onclick: async () => {
    try { await navigator.clipboard.writeText(url); copy.textContent = "copied"; } catch (e) { copy.textContent = "select and copy the link"; }
  } }, "copy");
  return el("li", {}, el("b", { text: label }), " ", el("a", { href: url, class: open ? "button primary" : "", text: open ? "open" : url }), " ",
    open ? el("code", { class: "small", text: url }) : null, " ", copy);
}

function renderGames() {
  const box = clear($("games"));
  for (const g of catalogue.games) {
    box.append(el("article", { class: "game", dataset: { game: g.game } },
      el("h3", { text: g.title || g.game }),
      el("p", { class: "dim", text: g.error ? g.error : `${g.players.join(" or ")} players` + (g.mods.length ? ` · mods: ${g.mods.join(", ")}` : "") }),
      el("button", { class: "primary", disabled: g.error ? true : undefined, onclick: () => setup(g.game) }, "Set up")));
  }
}

// ---- resuming a save -----------------------------------------------------------------------------
$("savefile").addEventListener("change", async () => {
  fail("");
  const f = $("savefile").files[0];
  const box = clear($("loadsetup"));
  if (!f) return;
  let text, saved;
  try {
    text = await f.text();
    saved = JSON.parse(text);
  } catch (e) { fail(new Error("that file is not a save (not JSON)")); return; }
  if (!saved || typeof saved.game !== "string" || !Array.isArray(saved.seats)) { fail(new Error("that file is not a save of lotr-rules")); return; }
  const info = catalogue.games.find((g) => g.game === saved.game || g.rules_name === saved.game);
  if (!info) { fail(new Error(`this server has no game ${saved.game}`)); return; }
  const seatsOf = (info.seatings[String(saved.seats.length)] || []).filter((s) => saved.seats.includes(s.id));
  const seats = seatsOf.length === saved.seats.length ? seatsOf : saved.seats.map((id) => ({ id, name: words(id) }));
  // who played each seat, as the save says (when this server offers that player)
  const chosen = {};
  const offered = agentChoices(info);
  for (const [seat, who] of Object.entries(saved.agents && typeof saved.agents === "object" ? saved.agents : {})) {
    if (offered.includes(who)) chosen[seat] = who;
  }
  const hot = el("input", { type: "checkbox", name: "hotseat" });
  box.append(el("p", { text: `${info.title}, ${(saved.history || []).length} actions in.` }),
    el("fieldset", {}, el("legend", { text: "who plays" }), seatRows(info, seats, chosen)),
    el("label", { class: "check" }, hot, " hot seat (one screen)"),
    el("p", {}, el("button", { class: "primary", id: "resume", onclick: async () => {
      try { ready(await api("/api/new", { save: text, seats: chosen, hotseat: hot.checked }), {}); } catch (e) { fail(e); }
    } }, "Resume")));
});

(async () => {
  try {
    catalogue = await api("/api/games");
    renderGames();
    const want = new URLSearchParams(location.search).get("game");
    if (want && catalogue.games.some((g) => g.game === want)) setup(want);
  } catch (e) {
    $("games").textContent = "";
    fail(e);
  }
})();
