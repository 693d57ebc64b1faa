// The play page: one link's table, kept current over a WebSocket. Options are chosen with the
// buttons or on the table itself: an option that names regions or cards (in its id, or as the
// value chosen) is picked by clicking them in order; a click that leaves several options open
// shows a small menu of them.

import { el, clear, words, Colours, tipInit, tipShow, tipHide, itemTip } from "./common.js";
import { Board } from "./board.js";
import { renderPlayers, renderMeters, renderZones, wireCards, highlightCards, renderOptions, optionText, Log } from "./panels.js";

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

const colours = new Colours();
let msg = null;          // the last table message
let names = {};          // display names: players, pieces' owners and kinds, regions, items
let picked = [];         // the regions and cards clicked so far for the pending decision
let busy = false;        // an action was sent and its answer has not come
let lastSeat = undefined;
let ws = null, retry = 0, fatal = false;

const ownerName = (id) => names[id] || words(id);
const log = new Log($("log"));
tipInit($("tip"));

// ---- options and what they are about -----------------------------------------------------
function known(t) {
  // the ids the table shows: regions and the cards the viewer can see
  const ids = new Map();
  for (const r of t.board.regions) ids.set(r.id, "region");
  const add = (it) => { if (it && it.id !== null && it.id !== undefined && !ids.has(it.id)) ids.set(it.id, "item"); };
  for (const r of t.board.regions) r.items.forEach(add);
  for (const z of t.zones) z.items.forEach(add);
  return ids;
}

function targetsOf(o, kind, ids) {
  // the regions and cards an option is about: the value chosen, or the move's arguments (in
  // their order; from the id when the table does not list them)
  if (kind !== "ask") {
    const v = o.value === null || o.value === undefined ? null : String(o.value);
    return v !== null && ids.has(v) ? [v] : [];
  }
  const args = o.args && typeof o.args === "object" ? Object.values(o.args).flat().map(String) : o.id.split(":").slice(1);
  return args.filter((p) => ids.has(p));
}

function options() {
  const d = msg && msg.can_act && !busy ? msg.table.decision : null;
  if (!d) return [];
  const ids = known(msg.table);
  return d.options.map((o) => ({ ...o, targets: targetsOf(o, d.kind, ids) }));
}

function candidates() {
  return options().filter((o) => picked.every((p, i) => o.targets[i] === p));
}

function refreshTargets() {
  const c = candidates();
  const next = new Set();
  for (const o of c) if (o.targets.length > picked.length) next.add(o.targets[picked.length]);
  const marks = { next, picked: new Set(picked) };
  board.highlight(marks);
  highlightCards($("zones"), marks);
  $("picked").textContent = picked.length ? `chosen: ${picked.map(nameOf).join(" → ")}` : "";
  $("cancelpick").hidden = !picked.length;
  if (msg && msg.table.decision && msg.can_act) {
    renderOptions($("options"), msg.table.decision, { send, nameOf, only: picked.length ? new Set(c.map((o) => o.id)) : null });
    if (busy) for (const b of $("options").querySelectorAll("button")) b.disabled = true;
  }
  return next;
}

function nameOf(id) {
  if (names[id]) return names[id];
  if (!msg) return words(id);
  for (const r of msg.table.board.regions) {
    if (r.id === id) return r.name;
    for (const it of r.items) if (it && it.id === id) return it.name;
  }
  for (const z of msg.table.zones) for (const it of z.items) if (it && it.id === id) return it.name;
  return words(id);
}

function pick(target, e) {
  hideMenu();
  const d = msg && msg.can_act && !busy ? msg.table.decision : null;
  if (!target) { if (picked.length) { picked = []; refreshTargets(); } return; }
  const next = d ? refreshTargets() : new Set();
  if (target.id && next.has(target.id)) {
    picked.push(target.id);
    const c = candidates();
    const done = c.filter((o) => o.targets.length === picked.length);
    const more = c.filter((o) => o.targets.length > picked.length);
    refreshTargets();
    if (!more.length && done.length === 1) send(done[0].id);
    else if (done.length) showMenu(done, d.kind, e, more.length > 0);
    return;
  }
  if (target.id && picked.includes(target.id)) {
    picked = picked.slice(0, picked.indexOf(target.id));
    refreshTargets();
    return;
  }
  // not a choice now: say what it is (a tap on a phone pins the note)
  const content = target.kind === "region" ? board.regionTip(target.data) : itemTip(target.data, ownerName);
  if (content && e) tipShow(content, e.clientX ?? 40, e.clientY ?? 40, e.pointerType !== "mouse");
}

function showMenu(list, kind, e, more) {
  const menu = clear($("menu"));
  menu.append(el("div", { class: "dim small", text: more ? "choose one, or click on" : "choose one" }));
  for (const o of list) {
    menu.append(el("button", { class: "opt", dataset: { action: o.id }, onclick: () => { hideMenu(); send(o.id); } },
      el("span", { class: "otext", text: optionText(o, kind) }), o.line ? el("small", { class: "oline", text: o.line }) : null));
  }
  menu.append(el("button", { class: "small", onclick: () => { hideMenu(); picked = []; refreshTargets(); } }, "cancel"));
  menu.hidden = false;
  const x = (e && e.clientX) || 40, y = (e && e.clientY) || 40;
  const w = menu.offsetWidth, h = menu.offsetHeight;
  menu.style.left = `${Math.max(6, Math.min(window.innerWidth - w - 6, x + 8))}px`;
  menu.style.top = `${Math.max(6, Math.min(window.innerHeight - h - 6, y + 8))}px`;
}

function hideMenu() { $("menu").hidden = true; }

function send(id) {
  if (!ws || ws.readyState !== 1 || busy || !msg) return;
  busy = true;
  hideMenu();
  tipHide(true);
  for (const b of document.querySelectorAll("button.opt")) b.disabled = true;
  document.body.dataset.busy = "1";
  ws.send(JSON.stringify({ type: "act", action: id, version: msg.version }));
  setTimeout(() => { if (busy) { busy = false; document.body.dataset.busy = ""; refreshTargets(); } }, 8000);
}

// ---- drawing a table ---------------------------------------------------------------------
const board = new Board($("board"), $("legend"), { onPick: pick, colours, ownerName });
wireCards($("zones"), { colours, ownerName, onPick: pick });

function status() {
  const t = msg.table;
  const p = $("prompt");
  clear(p);
  if (msg.error) {
    p.append(el("b", { class: "error", text: "The game has stopped: " }), msg.error);
  } else if (t.over) {
    // the end in words, as the log's "game over" line says it (display: victories:)
    const r = t.result || { who: `${t.winners.map(ownerName).join(", ") || "nobody"} won`, victory: "", points: "" };
    p.append(el("b", { text: "Game over: " }), `${r.who}${r.victory ? ` (${r.victory})` : ""}${r.points ? `; ${r.points}` : ""}`);
  } else if (msg.can_act && t.decision) {
    const whose = msg.acts_for.length > 1 ? `${ownerName(t.decision.player)}, your turn: ` : "Your turn: ";
    p.append(el("b", { text: whose }), t.decision.prompt);
  } else if (t.to_act) {
    const seat = (msg.seats || []).find((s) => s.id === t.to_act);
    const cpu = seat && seat.controller !== "person";
    p.append(`Waiting for ${ownerName(t.to_act)}`, cpu ? " (the computer is thinking…)" : "…");
  } else {
    p.append("…");
  }
}

function overBanner() {
  const t = msg.table;
  if (!t.over || document.body.dataset.overSeen === String(msg.version)) return;
  document.body.dataset.overSeen = String(msg.version);
  const r = t.result || { who: t.winners.length ? `${t.winners.map(ownerName).join(", ")} won` : "nobody won", victory: "" };
  $("overtitle").textContent = r.who.charAt(0).toUpperCase() + r.who.slice(1);
  const body = clear($("overbody"));
  if (r.victory) body.append(el("p", { text: r.victory }));
  if (t.scores && typeof t.scores === "object") {
    body.append(el("table", { class: "scores" }, Object.entries(t.scores).map(([k, v]) => el("tr", {}, el("td", { text: ownerName(k) }), el("td", { text: typeof v === "object" ? JSON.stringify(v) : v })))));
  }
  $("over").hidden = false;
}

function render() {
  const t = msg.table;
  names = Object.assign({}, msg.names || {});
  for (const r of t.board.regions) names[r.id] = r.name;
  colours.seats((msg.seats || []).map((s) => s.id));
  document.title = `${t.title}${msg.can_act ? " · your turn" : ""}`;
  $("title").textContent = t.title;
  const save = $("savebtn");
  save.hidden = !msg.can_save;
  if (msg.can_save) save.href = `/api/save/${encodeURIComponent(token)}`;
  $("undobtn").hidden = !msg.can_undo;
  status();
  renderPlayers($("players"), msg, colours);
  renderMeters($("meters"), t, ownerName);
  renderZones($("zones"), t, { colours, ownerName });
  log.update(msg);
  board.render(t, { next: new Set(), picked: new Set() });
  clear($("options"));
  refreshTargets();
  overBanner();
  const b = document.body.dataset;
  b.version = msg.version;
  b.canAct = msg.can_act ? "1" : "";
  b.over = t.over ? "1" : "";
  b.seat = msg.seat || "";
  b.busy = "";
}

function curtain(seat) {
  $("curtaintext").textContent = `${ownerName(seat)} plays next. Pass the screen; click when only ${ownerName(seat)} is looking.`;
  $("curtain").hidden = false;
}

$("chatform").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("chatinput").value.trim();
  if (!text || !ws || ws.readyState !== 1) return;
  ws.send(JSON.stringify({ type: "chat", text }));
  $("chatinput").value = "";
});
$("curtainbtn").addEventListener("click", () => { $("curtain").hidden = true; });
$("overclose").addEventListener("click", () => { $("over").hidden = true; });
$("cancelpick").addEventListener("click", () => { picked = []; hideMenu(); refreshTargets(); });
$("zoomin").addEventListener("click", () => board.zoom(1.4));
$("zoomout").addEventListener("click", () => board.zoom(1 / 1.4));
$("zoomreset").addEventListener("click", () => board.reset());
function undo() {
  // take back the person's last decision (the server says why when it cannot)
  if (!ws || ws.readyState !== 1 || !msg || !msg.can_undo) return;
  picked = [];
  hideMenu();
  ws.send(JSON.stringify({ type: "undo" }));
}
$("undobtn").addEventListener("click", undo);
document.addEventListener("keydown", (e) => {
  const typing = e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA");
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z" && !typing) { e.preventDefault(); undo(); }
});
document.addEventListener("keydown", (e) => { if (e.key === "Escape") { picked = []; hideMenu(); tipHide(true); refreshTargets(); } });

function toast(text) {
  const n = $("toast");
  n.textContent = text;
  n.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { n.hidden = true; }, 5000);
}

// ---- the connection -----------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(token)}`);
  $("conn").textContent = "connecting…";
  $("conn").className = "conn";
  ws.onopen = () => { retry = 0; $("conn").textContent = "online"; $("conn").className = "conn on"; };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.type === "table") {
      const moved = !msg || m.version !== msg.version;
      if (msg && m.log_from > 0 && m.log_from !== log.lines.length) { ws.send(JSON.stringify({ type: "sync" })); return; }
      if (moved) picked = [];
      busy = false;
      const seatBefore = lastSeat;
      msg = m;
      lastSeat = m.seat;
      render();
      if (m.hotseat && seatBefore !== undefined && seatBefore !== m.seat && m.can_act) curtain(m.seat);
    } else if (m.type === "chat") {
      const box = $("chat");
      if (m.all) clear(box);
      for (const [who, text] of m.lines) box.append(el("li", {}, el("b", { text: `${who}: ` }), text));
      box.scrollTop = box.scrollHeight;
    } else if (m.type === "note") {
      toast(m.message);
    } else if (m.type === "error") {
      busy = false;
      document.body.dataset.busy = "";
      toast(m.message);
      if (m.fatal) { fatal = true; $("prompt").textContent = m.message; }
      if (msg) refreshTargets();
    }
  };
  ws.onclose = (ev) => {
    $("conn").textContent = fatal || ev.code === 4404 ? "no game" : "offline, reconnecting…";
    $("conn").className = "conn off";
    if (fatal || ev.code === 4404) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * 2 ** retry);
  };
}

connect();
