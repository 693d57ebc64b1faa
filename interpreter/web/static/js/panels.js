// The table around the board: players, meters and tracks, zones (hands, areas, rows of cards),
// the log and the decision's options, all from the table's data.

import { el, svg, clear, words, itemColour, itemTip, tipShow, tipHide } from "./common.js";

// ---- players ---------------------------------------------------------------------------
export function renderPlayers(node, msg, colours) {
  const t = msg.table;
  const seats = new Map((msg.seats || []).map((s) => [s.id, s]));
  clear(node);
  for (const p of t.players) {
    const seat = seats.get(p.id) || {};
    const badges = [];
    if (p.you) badges.push(el("span", { class: "badge you", text: "you" }));
    if (p.to_act) badges.push(el("span", { class: "badge act", text: "to act" }));
    else if (p.turn) badges.push(el("span", { class: "badge turn", text: "their turn" }));
    if (seat.controller && seat.controller !== "person") badges.push(el("span", { class: "badge cpu", text: `computer: ${seat.controller}` }));
    else if (seat.controller === "person" && !seat.online) badges.push(el("span", { class: "badge off", text: "away" }));
    if (t.over && t.winners.includes(p.id)) badges.push(el("span", { class: "badge won", text: "winner" }));
    const sw = svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", class: "swatch" }, svg("circle", { cx: 7, cy: 7, r: 6, fill: colours.of(p.id) }));
    node.append(el("section", { class: `player${p.to_act ? " acting" : ""}${p.you ? " me" : ""}`, dataset: { player: p.id } },
      el("h3", {}, sw, " ", el("span", { class: "pname", text: p.name }), " ", badges),
      p.fields.length ? el("dl", { class: "fields" }, p.fields.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])) : null));
  }
}

// ---- meters and tracks --------------------------------------------------------------------
export function renderMeters(node, t, ownerName) {
  clear(node);
  for (const m of t.meters || []) {
    const label = m.owner ? `${m.label} (${ownerName(m.owner)})` : m.label;
    const num = typeof m.value === "number" && typeof m.max === "number" && m.max > 0;
    const bar = num ? el("div", { class: "bar", role: "meter", "aria-valuenow": m.value, "aria-valuemax": m.max, "aria-valuemin": 0 }) : null;
    if (bar) {
      const fillNode = el("div", { class: "fill" });
      fillNode.style.width = `${Math.max(0, Math.min(100, (100 * m.value) / m.max))}%`;
      bar.append(fillNode);
      for (const [space, text] of Object.entries(m.marks || {})) {
        const at = Number(space);
        if (!Number.isFinite(at)) continue;
        const tick = el("span", { class: "tick", title: `${space}: ${text}` });
        tick.style.left = `${Math.max(0, Math.min(100, (100 * at) / m.max))}%`;
        bar.append(tick);
      }
    }
    const marks = Object.entries(m.marks || {});
    node.append(el("div", { class: "meter", dataset: { meter: m.id }, title: m.doc || "" },
      el("div", { class: "mlabel" }, el("span", { text: label }), el("b", { text: m.value === null || m.value === undefined ? "-" : `${m.value}${m.max !== null && m.max !== undefined ? " / " + m.max : ""}` })),
      bar,
      !num && marks.length ? el("div", { class: "dim small", text: marks.map(([s, x]) => `${s}: ${x}`).join(" · ") } ) : null));
  }
}

// ---- zones ------------------------------------------------------------------------------
function card(it, ctx, slot) {
  if (!it) return el("div", { class: "card empty", title: slot ? `slot ${slot}` : "", text: slot || "" });
  if (it.id === null || it.id === undefined) {
    const back = el("div", { class: "card back", dataset: { hidden: "1" }, title: "hidden" }, el("span", { text: "?" }));
    if (it.owner) back.style.setProperty("--side", ctx.colours.of(it.owner));
    if (it.available !== undefined) back.classList.add(it.available ? "available" : "unavailable");
    back.__item = it;
    return back;
  }
  const c = el("div", { class: `card${it.face === "down" ? " down" : ""}`, dataset: { item: it.id }, tabindex: 0 },
    el("div", { class: "cname", text: it.name }),
    it.line ? el("div", { class: "cline", text: it.line }) : null,
    it.text ? el("div", { class: "ctext", text: it.text }) : null);
  const colour = itemColour(it);
  if (colour) c.style.setProperty("--stripe", colour);
  if (it.owner) c.style.setProperty("--side", ctx.colours.of(it.owner));
  if (it.available === true) c.classList.add("available");
  if (it.available === false) c.classList.add("unavailable");
  c.__item = it;
  return c;
}

export function renderZones(node, t, ctx) {
  clear(node);
  const empty = [];
  for (const z of t.zones) {
    if (!z.count && !z.slots && !(z.items || []).length) { empty.push(z); continue; }
    const body = el("div", { class: "cards" });
    if (z.slots) {
      // a tableau: rows by the letters of its slot names (A1 A2 / B1 B2 B3 ...), centred
      const rows = new Map();
      z.items.forEach((it, i) => {
        const slot = z.slots[i] || String(i);
        const row = slot.replace(/\d+$/, "") || slot;
        if (!rows.has(row)) rows.set(row, []);
        rows.get(row).push(card(it, ctx, slot));
      });
      body.classList.add("tableau");
      for (const cards of rows.values()) body.append(el("div", { class: "trow" }, cards));
    } else if (z.hidden) {
      const shown = Math.min(z.count, 12);
      for (let i = 0; i < shown; i++) body.append(card({ id: null, owner: z.owner }, ctx));
      if (z.count > shown) body.append(el("span", { class: "dim", text: ` +${z.count - shown}` }));
      for (const it of z.items) body.append(card(it, ctx));
    } else {
      for (const it of z.items) if (it) body.append(card(it, ctx));
      if (!z.count) body.append(el("span", { class: "dim", text: "empty" }));
    }
    const mine = z.owner && z.owner === t.viewer;
    const section = el("section", { class: `zone${mine ? " mine" : ""}${z.hidden ? " hidden" : ""}${z.slots ? " wide" : ""}`, dataset: { zone: z.id } },
      el("h3", {}, z.owner ? svg("svg", { width: 12, height: 12, viewBox: "0 0 12 12", class: "swatch" }, svg("circle", { cx: 6, cy: 6, r: 5, fill: ctx.colours.of(z.owner) })) : null,
        " ", el("span", { text: words(z.title) }), el("span", { class: "count", text: ` ${z.count}${z.hidden ? " hidden" : ""}` })),
      body);
    node.append(section);
  }
  if (empty.length) {
    node.append(el("section", { class: "zone empties" }, el("span", { class: "dim", text: "empty: " }),
      empty.map((z, i) => el("span", { dataset: { zone: z.id }, text: `${words(z.title)}${i < empty.length - 1 ? ", " : ""}` }))));
  }
}

export function wireCards(node, ctx) {
  node.addEventListener("pointermove", (e) => {
    if (e.pointerType !== "mouse") return;
    const c = e.target.closest(".card");
    if (c && c.__item) tipShow(itemTip(c.__item, ctx.ownerName), e.clientX, e.clientY);
    else tipHide();
  });
  node.addEventListener("pointerleave", () => tipHide());
  node.addEventListener("click", (e) => {
    const c = e.target.closest(".card");
    if (!c || !c.__item) return;
    ctx.onPick({ kind: "item", id: c.dataset.item || null, node: c, data: c.__item }, e);
  });
  node.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const c = e.target.closest(".card");
    if (!c || !c.__item) return;
    e.preventDefault();
    const box = c.getBoundingClientRect();
    ctx.onPick({ kind: "item", id: c.dataset.item || null, node: c, data: c.__item }, { clientX: box.left, clientY: box.bottom });
  });
}

export function highlightCards(node, { next = new Set(), picked = new Set() } = {}) {
  for (const c of node.querySelectorAll(".card[data-item]")) {
    c.classList.toggle("target", next.has(c.dataset.item));
    c.classList.toggle("picked", picked.has(c.dataset.item));
  }
}

// ---- the log --------------------------------------------------------------------------------
export class Log {
  constructor(node) { this.node = node; this.lines = []; }

  update(msg) {
    const from = msg.log_from || 0;
    const fresh = msg.log || [];
    const follow = this.node.scrollHeight - this.node.scrollTop - this.node.clientHeight < 40;
    if (from === 0 || from !== this.lines.length) {
      this.lines = this.lines.slice(0, from).concat(fresh);
      clear(this.node);
      this.lines.forEach((line, i) => this.node.append(el("li", { text: line, dataset: { n: i } })));
    } else {
      for (const line of fresh) {
        this.node.append(el("li", { class: "new", text: line, dataset: { n: this.lines.length } }));
        this.lines.push(line);
      }
    }
    if (follow || from === 0) this.node.scrollTop = this.node.scrollHeight;
  }
}

// ---- the decision -----------------------------------------------------------------------------
export function optionText(o, kind) {
  // the option's own words when the table gives them; else "from_discard: Treasure: 2 coins"
  // -> "Treasure: 2 coins" (the prompt says the rest)
  if (typeof o.text === "string" && o.text) return o.text;
  let text = o.label || o.id;
  const own = String(o.group || "").split(":").pop();
  if (kind !== "ask" && own && text.startsWith(own)) {
    const at = text.indexOf(": ");
    if (at >= 0) text = text.slice(at + 2);
  }
  if (kind !== "ask" && /^[a-z0-9_]+$/.test(text)) text = words(text);
  return text;
}

export function groupTitle(group, nameOf, list, given) {
  // the table's label for the group when it gives one; else the words the group's options
  // share ("move the piece to"), else its id in names
  if (given && given.get(group)) return given.get(group);
  if (list && list.length > 1) {
    let common = list[0].label || "";
    for (const o of list) {
      let i = 0;
      const l = o.label || "";
      while (i < common.length && i < l.length && common[i] === l[i]) i++;
      common = common.slice(0, i);
    }
    common = common.replace(/\s*\S*$/, "").trim();
    if (common.split(/\s+/).length >= 2) return common;
  }
  const parts = String(group).split(":");
  return parts.map((p, i) => (i === 0 ? words(p) : nameOf(p))).join(" · ");
}

export function renderOptions(node, decision, ctx) {
  // buttons, grouped (each group folds) when there are many; a filter for very long lists
  clear(node);
  if (!decision) return;
  const opts = decision.options.filter((o) => !ctx.only || ctx.only.has(o.id));
  // (o.line: what the item the option is about says, e.g. what a card costs: on the button, in
  // small letters under its words, on its tooltip, and beside a group whose options are all
  // about one item)
  const button = (o) => el("button", {
    class: "opt", dataset: { action: o.id }, title: o.line ? `${o.label} (${o.line})` : o.label,
    onclick: () => ctx.send(o.id),
  }, el("span", { class: "otext", text: optionText(o, decision.kind) }),
     o.line ? el("small", { class: "oline", text: o.line }) : null);
  const lineOf = (list) => (list.every((o) => o.about && o.about === list[0].about) ? list[0].line : null);
  const groups = new Map();
  for (const o of opts) {
    if (!groups.has(o.group)) groups.set(o.group, []);
    groups.get(o.group).push(o);
  }
  const many = opts.length > 10 && groups.size > 1 && groups.size < opts.length;
  if (opts.length > 30) {
    const filter = el("input", { type: "search", class: "filter", placeholder: `filter ${opts.length} options…`, "aria-label": "filter the options" });
    filter.addEventListener("input", () => {
      const q = filter.value.toLowerCase();
      for (const b of node.querySelectorAll("button.opt")) b.hidden = q && !b.textContent.toLowerCase().includes(q);
      for (const d of node.querySelectorAll("details")) {
        const any = [...d.querySelectorAll("button.opt")].some((b) => !b.hidden);
        d.hidden = !any;
        if (q) d.open = any;
      }
    });
    node.append(filter);
  }
  if (!many) {
    node.append(el("div", { class: "optrow" }, opts.map(button)));
    return;
  }
  const loose = [];
  const given = new Map((decision.groups || []).map((g) => [g.id, g.label]));
  for (const [g, list] of groups) {
    if (list.length === 1) { loose.push(button(list[0])); continue; }
    node.append(el("details", { class: "optgroup", open: groups.size <= 3 || undefined, dataset: { group: g } },
      el("summary", {}, el("span", { text: groupTitle(g, ctx.nameOf, list, given) }), el("span", { class: "count", text: ` ${list.length}` }),
        lineOf(list) ? el("span", { class: "dim", text: ` · ${lineOf(list)}` }) : null),
      el("div", { class: "optrow" }, list.map(button))));
  }
  if (loose.length) node.append(el("div", { class: "optrow" }, loose));
}
