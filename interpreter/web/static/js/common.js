// Helpers shared by the pages: building DOM and SVG nodes (text always as text, never as
// markup: rule files and mods are untrusted), talking JSON to the server, colours, the tooltip.

const SVGNS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k === "class") node.setAttribute("class", v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVGNS, tag), attrs, children);
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

export async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new Error("the server cannot be reached (is lotr-rules serve still running?)");
  }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) throw new Error((data && data.error) || `the server answered ${res.status}`);
  return data;
}

// words from ids: "move_armies" -> "move armies"
export function words(id) {
  return String(id ?? "").replace(/_/g, " ");
}

// ---- colours -----------------------------------------------------------------------------
const PALETTE = ["#2f6db5", "#b8322a", "#3c8d40", "#c9a227", "#7a4fa3", "#d2691e", "#2a9d8f",
  "#8c564b", "#e377c2", "#556b2f", "#4b0082", "#b5651d", "#1f77b4", "#708090", "#9acd32", "#cd5c5c"];
const cssOk = (c) => typeof CSS !== "undefined" && CSS.supports && CSS.supports("color", c);

export class Colours {
  // seats first (an id that is a colour name is its own colour), then any other owner
  constructor() { this.map = new Map(); this.used = 0; }
  seats(ids) { for (const id of ids) this.of(id); }
  of(id) {
    if (id === null || id === undefined) return "#9a8f7a";
    if (!this.map.has(id)) {
      const own = /^[a-z]+$/.test(id) && cssOk(id) ? id : null;
      this.map.set(id, own || PALETTE[this.used++ % PALETTE.length]);
    }
    return this.map.get(id);
  }
}

export function ink(colour) {
  // black or white text, whichever reads on the colour
  const probe = document.createElement("span");
  probe.style.color = colour;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color.match(/\d+/g) || [0, 0, 0];
  probe.remove();
  const [r, g, b] = rgb.map(Number);
  return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? "#111" : "#fff";
}

export function itemColour(item) {
  const c = item && item.props && (item.props.color || item.props.colour);
  return c && /^[a-z]+$/.test(c) && cssOk(c) ? c : null;
}

// ---- the tooltip -------------------------------------------------------------------------
let tipNode = null;
let pinned = false;

export function tipInit(node) {
  tipNode = node;
  document.addEventListener("pointerdown", (e) => {
    if (pinned && !tipNode.contains(e.target)) { pinned = false; tipHide(); }
  }, true);
}

export function tipShow(content, x, y, pin = false) {
  if (!tipNode || !content) return;
  if (pinned && !pin) return;
  pinned = pin;
  clear(tipNode).append(content);
  tipNode.hidden = false;
  const w = tipNode.offsetWidth, h = tipNode.offsetHeight;
  const vw = window.innerWidth, vh = window.innerHeight;
  let left = x + 14, top = y + 14;
  if (left + w > vw - 6) left = Math.max(6, x - w - 14);
  if (top + h > vh - 6) top = Math.max(6, y - h - 14);
  tipNode.style.left = `${left}px`;
  tipNode.style.top = `${top}px`;
}

export function tipHide(force = false) {
  if (!tipNode || (pinned && !force)) return;
  if (force) pinned = false;
  tipNode.hidden = true;
}

export function itemTip(item, ownerName) {
  // what an item says about itself: name, type, text, its line, its properties
  if (!item) return null;
  if (item.id === null || item.id === undefined) {
    return el("div", {}, el("b", { text: "hidden" }),
      item.owner ? el("div", { class: "dim", text: `belongs to ${ownerName(item.owner)}` }) : null,
      el("div", { class: "dim", text: "its face is hidden from you" }));
  }
  const props = Object.entries(item.props || {});
  return el("div", {},
    el("b", { text: item.name }),
    item.type ? el("span", { class: "dim", text: `  ${words(item.type)}` }) : null,
    item.face === "down" ? el("div", { class: "dim", text: "face down (only you see it)" }) : null,
    item.text ? el("p", { text: item.text }) : null,
    item.line ? el("p", { class: "dim", text: item.line }) : null,
    props.length ? el("dl", { class: "props" }, props.map(([k, v]) => [el("dt", { text: words(k) }), el("dd", { text: v })])) : null,
    item.available === false ? el("div", { class: "dim", text: "not available now" }) : null);
}
