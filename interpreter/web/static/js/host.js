// The host page: the links of a game to hand out, its state, and the save.

import { el, clear, api } from "./common.js";

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const box = document.getElementById("hostbody");

function row(label, url) {
  const copy = el("button", { type: "button", class: "small", onclick: async () => {
    try { await navigator.clipboard.writeText(url); copy.textContent = "copied"; } catch (e) { copy.textContent = "select and copy"; }
  } }, "copy");
  return el("li", {}, el("b", { text: label }), " ", el("a", { href: url, text: url }), " ", copy);
}

async function refresh() {
  let info;
  try {
    info = await api(`/api/host/${encodeURIComponent(token)}`);
  } catch (e) {
    clear(box).append(el("p", { class: "error", text: e.message }));
    return;
  }
  document.getElementById("title").textContent = info.title;
  const seatNames = new Map(info.seats.map((s) => [s.id, s.name]));
  const status = info.error ? `stopped: ${info.error}`
    : info.over ? `over: ${info.winners.map((w) => seatNames.get(w) || w).join(", ") || "nobody"} won`
    : `${seatNames.get(info.to_act) || info.to_act || "nobody"} to act (move ${info.version})`;
  clear(box).append(...[
    el("h2", { text: info.title }),
    el("p", { text: status }),
    info.mods.length ? el("p", { class: "dim", text: `mods: ${info.mods.join(", ")}` }) : null,
    el("ul", { class: "links" },
      info.links.map((lk) => row(lk.kind === "hotseat" ? `hot seat: ${lk.seats.map((s) => s.name).join(", ")}` : lk.seats[0].name, lk.url)),
      info.seats.filter((s) => s.controller !== "human").map((s) => el("li", {}, el("b", { text: s.name }), ` the computer (${s.controller})`)),
      row("watch", info.watch)),
    el("p", {}, el("a", { class: "button primary", href: info.save, download: "" }, "Save the game"),
      el("span", { class: "dim", text: " resume it from the start page, or with lotr-rules serve --load FILE / play --load FILE" })),
  ].filter(Boolean));
}

refresh();
setInterval(refresh, 3000);
