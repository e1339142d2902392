// The overview: players, routing, model use, traffic and reflexes, live from /events/overview.
import { actionButton, bytes, duration, el, fill, setStatus, stream, whoami } from "./common.js";

const history = [];   // frames per second, both ways, for the little chart

function facts(pairs) {
  return pairs.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]);
}

function actions(p, servers, status) {
  const span = el("span");
  if (p.autopilot) span.append(actionButton("Stop autopilot", "stop", p.name, `Stop ${p.name}'s autopilot?`, status));
  // On a network: one button per other server (a select would be redrawn under the cursor every second).
  for (const server of servers) {
    if (server === p.server) continue;
    span.append(actionButton(`Send to ${server}`, "send", p.name, `Send ${p.name} to ${server}?`, status, false,
      { server }));
  }
  span.append(actionButton("Kick", "kick", p.name, `Kick ${p.name} from the proxy?`, status, true));
  return span;
}

function players(data, admin) {
  const status = document.getElementById("action-status");
  const rows = data.players.map((p) => el("tr", { "data-player": p.name },
    el("td", {}, el("a", { href: `/player/${encodeURIComponent(p.name)}` }, p.name)),
    el("td", {}, p.version),
    el("td", {}, p.backend),
    el("td", { class: "num ping" }, p.ping_ms === null ? "–" : `${p.ping_ms} ms`),
    el("td", { class: "num" }, p.backend_ping_ms === null ? "–" : `${p.backend_ping_ms} ms`),
    el("td", {}, p.assistant_mode ?? "none"),
    el("td", { class: p.ai_enabled ? "ok" : "dim" }, p.ai_enabled === null ? "–" : p.ai_enabled ? "on" : "off"),
    el("td", { class: p.autopilot ? "ok" : "dim" }, p.autopilot ? `on (${p.provider})` : p.driving ? `off, ${p.driving}` : "off"),
    el("td", {}, p.goal ?? "–"),
    el("td", { class: "num" }, `${p.milestone}/9`),
    el("td", {}, p.reflexes.length ? p.reflexes.join(", ") : "off"),
    el("td", { class: "num" }, duration(p.connected_seconds)),
    el("td", {}, admin ? actions(p, data.servers, status) : "")));
  fill(document.querySelector("#players tbody"),
    ...(rows.length ? rows : [el("tr", {}, el("td", { colspan: "13", class: "dim" }, "nobody is playing"))]));
  document.getElementById("player-count").textContent = `(${data.players.length})`;
}

function traffic(data) {
  const r = data.rates;
  fill(document.getElementById("traffic"), ...facts([
    ["client → server", `${r.c2s_frames} frames/s, ${bytes(r.c2s_bytes)}/s`],
    ["server → client", `${r.s2c_frames} frames/s, ${bytes(r.s2c_bytes)}/s`],
    ["connections", `${data.connections} (${data.logins} logins since start)`],
    ["uptime", duration(data.uptime)],
    ["autopilots running", data.autopilots_running],
    ...(data.network ? [["network", `${data.network.moves} moves, ${data.network.failovers} failovers `
      + `(${data.network.login_failovers} at login)`]] : []),
  ]));
  history.push([r.c2s_frames, r.s2c_frames]);
  if (history.length > 120) history.shift();
  const canvas = document.getElementById("traffic-chart");
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const top = Math.max(1, ...history.flat());
  [["#93c5fd", 1], ["#4ade80", 0]].forEach(([colour, i]) => {
    ctx.strokeStyle = colour;
    ctx.beginPath();
    history.forEach((h, n) => {
      const x = (n / 119) * canvas.width, y = canvas.height - (h[i] / top) * (canvas.height - 4) - 2;
      n ? ctx.lineTo(x, y) : ctx.moveTo(x, y);
    });
    ctx.stroke();
  });
}

function model(m) {
  const node = document.getElementById("model");
  if (!m.configured) { fill(node, el("p", { class: "dim" }, "no model service configured")); return; }
  const share = Math.min(100, (100 * m.tokens_today) / m.daily_budget);
  fill(node,
    el("div", { id: "model-today" }, `today (${m.time_zone}): ${m.calls_today} calls, ${m.tokens_today} of ${m.daily_budget} tokens`),
    el("div", { class: "bar" }, el("div", { style: `width:${share.toFixed(1)}%` })),
    el("div", { class: "dim" }, `in flight ${m.in_flight}`),
    el("dl", { class: "facts" }, ...facts(m.calls.length ? m.calls.map(([k, v]) => [`${k} since start`, v]) : [["calls", "none yet"]])));
}

function routing(r) {
  const node = document.getElementById("routing");
  if (!r) { fill(node, el("p", { class: "dim" }, "local routing is off")); return; }
  const latest = r.latest;
  fill(node,
    el("div", {}, `mode ${r.mode}`),
    el("dl", { class: "facts" }, ...facts(r.counters.length ? r.counters : [["counters", "none yet"]])),
    el("p", { id: "latest-match" }, latest
      ? `latest match: ${latest.module} [${latest.language}] score ${latest.score.toFixed(3)} margin ${latest.margin.toFixed(3)} coverage ${latest.coverage.toFixed(3)} → ${latest.reason}`
      : "latest match: none yet"));
}

async function main() {
  const me = await whoami();
  const admin = me.scope === "admin";
  document.getElementById("actions-head").textContent = admin ? "Actions" : "";
  stream("/events/overview", "overview", (data) => {
    players(data, admin);
    traffic(data);
    model(data.model);
    routing(data.routing);
    fill(document.getElementById("reflexes"),
      ...facts(data.reflex_firings.length ? data.reflex_firings : [["none", "yet"]]));
    document.body.dataset.updated = String(data.now);
  }, (state) => setStatus(state));
}

main();
