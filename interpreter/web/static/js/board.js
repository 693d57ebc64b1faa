// The board as SVG, drawn from the table's data alone: regions at their `pos` (a 1000 x 700
// box), connections styled by kind (arrows where directed), pieces as counted chips in their
// owner's colour (one shape per kind), items lying in a region as small cards. Under a region's
// name only on hover (and always in its tooltip): its own fields, which drawn for every region
// at once would cover the neighbours' names. Zoom with the wheel, a pinch or the buttons; drag to move.

import { svg, el, clear, words, ink, itemTip, tipShow, tipHide } from "./common.js";

const W = 1000, H = 700, PAD = 30;
const SHAPES = ["circle", "square", "triangle", "diamond", "hexagon", "pentagon", "star"];
const KIND_PALETTE = ["#8a6d3b", "#2f6db5", "#7a4fa3", "#2a9d8f", "#b5651d", "#555"];

function kindStyle(kind, index) {
  // a connection's look: a few words suggest their usual map style, others take the next style
  const k = String(kind || "");
  if (!kind) return { stroke: "#6d5c44", dash: null, width: 2.2 };
  if (/sea|ship|boat|ocean/.test(k)) return { stroke: "#2f78c4", dash: "9 6", width: 2.2 };
  if (/river|water|lake|ford|stream/.test(k)) return { stroke: "#2f78c4", dash: null, width: 3 };
  if (/bridge/.test(k)) return { stroke: "#7b4a1e", dash: null, width: 4.5 };
  if (/tunnel|under|cave|mine|secret/.test(k)) return { stroke: "#5b3f7a", dash: "2 5", width: 2.6 };
  if (/side|lateral|across/.test(k)) return { stroke: "#8c7b5e", dash: "6 5", width: 1.8 };
  return { stroke: KIND_PALETTE[index % KIND_PALETTE.length], dash: index % 2 ? "10 4" : null, width: 2.4 };
}

function shapePath(shape, x, y, s) {
  // an outline of a chip centred on (x, y) with half-size s
  const poly = (n, rot = -Math.PI / 2, inner = null) => {
    const pts = [];
    const m = inner ? n * 2 : n;
    for (let i = 0; i < m; i++) {
      const a = rot + (i * 2 * Math.PI) / m;
      const rr = inner && i % 2 ? s * inner : s;
      pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
    }
    return `M${pts.join("L")}Z`;
  };
  switch (shape) {
    case "square": return `M${x - s * 0.85},${y - s * 0.85}h${s * 1.7}v${s * 1.7}h${-s * 1.7}Z`;
    case "triangle": return poly(3, -Math.PI / 2);
    case "diamond": return poly(4, -Math.PI / 2);
    case "hexagon": return poly(6, 0);
    case "pentagon": return poly(5);
    case "star": return poly(5, -Math.PI / 2, 0.5);
    default: return `M${x - s},${y}a${s},${s} 0 1,0 ${2 * s},0a${s},${s} 0 1,0 ${-2 * s},0`;
  }
}

export class Board {
  constructor(svgNode, legendNode, { onPick, colours, ownerName }) {
    this.svg = svgNode;
    this.legend = legendNode;
    this.onPick = onPick;
    this.colours = colours;
    this.ownerName = ownerName;
    this.view = { x: -PAD, y: -PAD, w: W + 2 * PAD, h: H + 2 * PAD };
    this.geo = null;
    this.before = new Map();
    this.kinds = new Map();
    this.pieceKinds = [];
    this.inkCache = new Map();
    this.regions = new Map();
    this.labels = new Map();
    this.hot = null;
    this._wire();
    this._apply();
  }

  ink(c) {
    if (!this.inkCache.has(c)) this.inkCache.set(c, ink(c));
    return this.inkCache.get(c);
  }

  // ---- geometry, once per board --------------------------------------------------------
  _geometry(regions) {
    const pts = regions.filter((r) => Array.isArray(r.pos));
    const near = pts.map((a) => {
      let best = Infinity;
      for (const b of pts) {
        if (a === b) continue;
        const d = Math.hypot(a.pos[0] - b.pos[0], a.pos[1] - b.pos[1]);
        if (d < best) best = d;
      }
      return best;
    }).filter(Number.isFinite).sort((x, y) => x - y);
    const median = near.length ? near[Math.floor(near.length / 2)] : 200;
    const r = Math.max(9, Math.min(36, median * 0.34));
    const pos = new Map();
    // a region without a position goes on a row along the bottom edge
    let spare = 0;
    for (const reg of regions) {
      if (Array.isArray(reg.pos)) pos.set(reg.id, reg.pos);
      else pos.set(reg.id, [40 + (spare++ * 3 * r) % (W - 80), H - 20]);
    }
    return { r, font: Math.max(8, Math.min(17, r * 0.55)), pos };
  }

  // ---- drawing --------------------------------------------------------------------------
  render(table, targets) {
    this.plurals = table.plurals;
    const board = table.board || { regions: [], connections: [] };
    if (!this.geo || this.geo.count !== board.regions.length) {
      this.geo = this._geometry(board.regions);
      this.geo.count = board.regions.length;
      this.before = new Map();
    }
    const { r, font, pos } = this.geo;
    const root = clear(this.svg);
    const defs = svg("defs");
    root.append(defs);
    root.append(svg("rect", { class: "sea", x: -PAD * 4, y: -PAD * 4, width: W + PAD * 8, height: H + PAD * 8 }));

    // connections
    const lines = svg("g", { class: "connections" });
    for (const c of board.connections) {
      const a = pos.get(c.a), b = pos.get(c.b);
      if (!a || !b) continue;
      const key = c.kind || "";
      if (!this.kinds.has(key)) this.kinds.set(key, { style: kindStyle(c.kind, this.kinds.size), directed: false });
      const k = this.kinds.get(key);
      k.directed = k.directed || c.directed;
      const st = k.style;
      const dx = b[0] - a[0], dy = b[1] - a[1], d = Math.hypot(dx, dy) || 1;
      const trimA = r + 2, trimB = c.directed ? r + 6 : r + 2;
      if (d <= trimA + trimB) continue;
      const attrs = {
        class: "conn", x1: a[0] + (dx * trimA) / d, y1: a[1] + (dy * trimA) / d,
        x2: b[0] - (dx * trimB) / d, y2: b[1] - (dy * trimB) / d,
        stroke: st.stroke, "stroke-width": st.width, "stroke-dasharray": st.dash,
        dataset: { a: c.a, b: c.b, kind: key },
      };
      if (c.directed) {
        const id = `arrow-${[...this.kinds.keys()].indexOf(key)}`;
        if (!defs.querySelector(`#${id}`)) {
          defs.append(svg("marker", { id, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
            svg("path", { d: "M0,0L10,5L0,10Z", fill: st.stroke })));
        }
        attrs["marker-end"] = `url(#${id})`;
      }
      lines.append(svg("line", attrs));
    }
    root.append(lines);

    // regions
    const layer = svg("g", { class: "regions" });
    const labels = svg("g", { class: "labels" });
    this.regions = new Map();
    this.labels = new Map();
    const pieceKinds = new Set(this.pieceKinds);
    for (const reg of board.regions) {
      const [x, y] = pos.get(reg.id);
      const owners = new Set();
      for (const [o] of reg.pieces) if (o !== null && o !== undefined) owners.add(o);
      for (const it of reg.items) if (it && it.owner) owners.add(it.owner);
      const tint = owners.size === 1 ? this.colours.of([...owners][0]) : null;
      const sig = JSON.stringify([reg.pieces, reg.items.map((i) => i && (i.id || "?") + (i.owner || "")), reg.fields]);
      const changed = this.before.has(reg.id) && this.before.get(reg.id) !== sig;
      this.before.set(reg.id, sig);
      const g = svg("g", { class: `region${changed ? " changed" : ""}`, dataset: { region: reg.id }, tabindex: -1 });
      g.append(svg("circle", { class: "spot", cx: x, cy: y, r }));
      if (tint) g.append(svg("circle", { class: "tint", cx: x, cy: y, r: r - 1.5, fill: tint }));
      // pieces: one chip per (owner, kind), with its count
      const chips = reg.pieces.slice().sort((p, q) => String(p[0]).localeCompare(String(q[0])) || String(p[1]).localeCompare(String(q[1])));
      const n = chips.length;
      chips.forEach(([owner, kind, count], i) => {
        if (!pieceKinds.has(kind)) { pieceKinds.add(kind); this.pieceKinds.push(kind); }
        const shape = SHAPES[this.pieceKinds.indexOf(kind) % SHAPES.length];
        const s = n === 1 ? r * 0.62 : Math.max(5, Math.min(r * 0.5, (r * 2.4) / n));
        const ang = -Math.PI / 2 + (i * 2 * Math.PI) / Math.max(1, n);
        const cx = n === 1 ? x : x + r * 0.62 * Math.cos(ang), cy = n === 1 ? y : y + r * 0.62 * Math.sin(ang);
        const col = this.colours.of(owner);
        g.append(svg("g", { class: "chip", dataset: { owner: owner ?? "", kind, count } },
          svg("path", { d: shapePath(shape, cx, cy, s), fill: col }),
          svg("text", { x: cx, y: cy, "font-size": Math.max(6, s * 1.1), fill: this.ink(col), dy: "0.35em", text: count })));
      });
      // items lying here: small cards to the right of the region
      const items = reg.items.filter(Boolean);
      if (items.length) {
        const w = Math.max(30, r * 1.5), h = Math.max(11, r * 0.52);
        const top = y - (items.length * (h + 2)) / 2;
        items.forEach((it, i) => {
          const col = it.owner ? this.colours.of(it.owner) : "#d9ccaa";
          const ix = x + r + 3, iy = top + i * (h + 2);
          const label = it.id === null ? "?" : it.name;
          const fits = Math.max(2, Math.floor(w / (h * 0.5)));
          const g2 = svg("g", { class: `bitem${it.id === null ? " back" : ""}`, dataset: it.id === null ? { hidden: "1" } : { item: it.id } },
            svg("rect", { x: ix, y: iy, width: w, height: h, rx: 2, fill: it.id === null ? col : "#fffaf0", stroke: col, "stroke-width": 2 }),
            svg("text", { x: ix + 3, y: iy + h / 2, dy: "0.35em", "font-size": h * 0.62, fill: it.id === null ? this.ink(col) : "#222",
              text: label.length > fits ? label.slice(0, fits - 1) + "…" : label }));
          g2.__item = it;
          g.append(g2);
        });
      }
      const label = svg("g", { class: "region-label", dataset: { label: reg.id } },
        svg("text", { class: "name", x, y: y + r + font * 0.95, "font-size": font, text: reg.name }));
      labels.append(label);
      this.labels.set(reg.id, label);
      if (reg.fields && reg.fields.length) {
        label.append(svg("text", { class: "fields", x, y: y + r + font * 1.9, "font-size": font * 0.78,
          text: reg.fields.map(([l, t]) => `${l}: ${t}`).join(" · ") }));
      }
      g.__region = reg;
      layer.append(g);
      this.regions.set(reg.id, g);
    }
    root.append(layer);
    root.append(labels);
    const hot = this.hot;
    this.hot = null;
    this.hover(hot);
    this.highlight(targets);
    this._legend(table);
  }

  hover(id) {
    // the hovered region's label shows its fields line too, raised above the others
    if (id === this.hot) return;
    const old = this.labels.get(this.hot);
    if (old) old.classList.remove("hot");
    this.hot = id;
    const label = this.labels.get(id);
    if (label) { label.classList.add("hot"); label.parentNode.append(label); }
  }

  highlight({ next = new Set(), picked = new Set() } = {}) {
    for (const node of this.svg.querySelectorAll(".target, .picked")) node.classList.remove("target", "picked");
    for (const [id, g] of this.regions) {
      if (next.has(id)) g.classList.add("target");
      if (picked.has(id)) g.classList.add("picked");
    }
    for (const node of this.svg.querySelectorAll("[data-item]")) {
      const id = node.dataset.item;
      if (next.has(id)) node.classList.add("target");
      if (picked.has(id)) node.classList.add("picked");
    }
    this.svg.classList.toggle("picking", next.size > 0);
  }

  _legend(table) {
    const box = clear(this.legend);
    for (const [key, k] of this.kinds) {
      if (this.kinds.size < 2 && !key && !k.directed) continue;
      const st = k.style;
      box.append(el("span", { class: "lg" },
        svgLine(st, k.directed), ` ${key ? words(key) : "connection"}${k.directed ? " (one way)" : ""}`));
    }
    const owners = new Set();
    for (const reg of table.board.regions) {
      for (const [o] of reg.pieces) if (o) owners.add(o);
      for (const it of reg.items) if (it && it.owner) owners.add(it.owner);
    }
    for (const o of owners) {
      const s = svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14" }, svg("circle", { cx: 7, cy: 7, r: 6, fill: this.colours.of(o) }));
      box.append(el("span", { class: "lg" }, s, ` ${this.ownerName(o)}`));
    }
    this.pieceKinds.forEach((k, i) => {
      const s = svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14" }, svg("path", { d: shapePath(SHAPES[i % SHAPES.length], 7, 7, 5.5), fill: "#777" }));
      box.append(el("span", { class: "lg" }, s, ` ${this.ownerName(k)}`));
    });
  }

  regionTip(reg) {
    const parts = [el("b", { text: reg.name })];
    const props = Object.entries(reg.props || {});
    if (props.length) parts.push(el("dl", { class: "props" }, props.map(([k, v]) => [el("dt", { text: words(k) }), el("dd", { text: v })])));
    // (a count other than 1 takes the kind's word for more than one: display: plurals:)
    const many = this.plurals || {};
    for (const [o, k, n] of reg.pieces) parts.push(el("div", { text: `${this.ownerName(o)}: ${n} ${n !== 1 && many[k] ? many[k] : this.ownerName(k)}` }));
    for (const it of reg.items) if (it) parts.push(el("div", { text: it.id === null ? `a hidden piece${it.owner ? " of " + this.ownerName(it.owner) : ""}` : it.name }));
    for (const [l, t] of reg.fields || []) parts.push(el("div", { class: "dim", text: `${l}: ${t}` }));
    return el("div", {}, parts);
  }

  // ---- zoom, pan, clicks, hover -----------------------------------------------------------
  _apply() {
    const v = this.view;
    this.svg.setAttribute("viewBox", `${v.x.toFixed(1)} ${v.y.toFixed(1)} ${v.w.toFixed(1)} ${v.h.toFixed(1)}`);
    this.svg.classList.toggle("zoomed", v.w < W + 2 * PAD - 1);
  }

  zoom(f, px = 0.5, py = 0.5) {
    const v = this.view;
    const w = Math.max(120, Math.min(W + 2 * PAD, v.w / f));
    const h = (w * (H + 2 * PAD)) / (W + 2 * PAD);
    const cx = v.x + v.w * px, cy = v.y + v.h * py;
    v.x = cx - w * px; v.y = cy - h * py; v.w = w; v.h = h;
    this._clamp();
    this._apply();
  }

  reset() {
    this.view = { x: -PAD, y: -PAD, w: W + 2 * PAD, h: H + 2 * PAD };
    this._apply();
  }

  _clamp() {
    const v = this.view;
    v.x = Math.max(-PAD, Math.min(W + PAD - v.w, v.x));
    v.y = Math.max(-PAD, Math.min(H + PAD - v.h, v.y));
  }

  _target(e) {
    const item = e.target.closest && e.target.closest("[data-item], [data-hidden]");
    if (item) return { kind: "item", id: item.dataset.item || null, node: item, data: item.__item };
    const reg = e.target.closest && e.target.closest("[data-region]");
    if (reg) return { kind: "region", id: reg.dataset.region, node: reg, data: reg.__region };
    return null;
  }

  _wire() {
    const s = this.svg;
    const pointers = new Map();
    let drag = null, moved = false, pinch = null;
    s.addEventListener("wheel", (e) => {
      e.preventDefault();
      const box = s.getBoundingClientRect();
      this.zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, (e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height);
    }, { passive: false });
    s.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      moved = false;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
      } else drag = { x: e.clientX, y: e.clientY, vx: this.view.x, vy: this.view.y };
    });
    s.addEventListener("pointermove", (e) => {
      if (pointers.has(e.pointerId)) pointers.set(e.pointerId, [e.clientX, e.clientY]);
      const box = s.getBoundingClientRect();
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (d > 0 && Math.abs(d - pinch) > 4) {
          this.zoom(d / pinch, ((a[0] + b[0]) / 2 - box.left) / box.width, ((a[1] + b[1]) / 2 - box.top) / box.height);
          pinch = d; moved = true;
        }
        return;
      }
      if (drag && pointers.size === 1 && s.classList.contains("zoomed")) {
        const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (moved || Math.hypot(dx, dy) > 6) {
          moved = true;
          this.view.x = drag.vx - (dx * this.view.w) / box.width;
          this.view.y = drag.vy - (dy * this.view.h) / box.height;
          this._clamp();
          this._apply();
          tipHide();
          return;
        }
      }
      if (e.pointerType === "mouse") {
        const t = this._target(e);
        this.hover(t && t.kind === "region" ? t.id : null);
        if (t && t.data) tipShow(t.kind === "region" ? this.regionTip(t.data) : itemTip(t.data, this.ownerName), e.clientX, e.clientY);
        else tipHide();
      }
    });
    const end = (e) => { pointers.delete(e.pointerId); if (pointers.size < 2) pinch = null; if (!pointers.size) drag = null; };
    s.addEventListener("pointerup", end);
    s.addEventListener("pointercancel", end);
    s.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") { tipHide(); this.hover(null); } });
    s.addEventListener("click", (e) => {
      if (moved) { moved = false; return; }
      const t = this._target(e);
      if (!t) { this.onPick(null, e); return; }
      this.onPick(t, e);
    });
  }
}

function svgLine(st, directed) {
  return svg("svg", { width: 34, height: 10, viewBox: "0 0 34 10" },
    svg("line", { x1: 1, y1: 5, x2: directed ? 26 : 33, y2: 5, stroke: st.stroke, "stroke-width": Math.min(st.width, 4), "stroke-dasharray": st.dash }),
    directed ? svg("path", { d: "M26,1L33,5L26,9Z", fill: st.stroke }) : null);
}
