// Episode replay: a recorded decision log and its events, scrubbed through on the map with a timeline.
import { el, fill, getJSON, setStatus } from "./common.js";
import { draw } from "./map.js";

const COLOURS = { milestone: "#4ade80", death: "#ef4444", respawned: "#f87171", reflex: "#fb923c",
                  watchdog: "#9ca3af", autopilot: "#60a5fa", suppressed: "#a78bfa", trapped: "#facc15" };
const canvas = document.getElementById("map");
const scrub = document.getElementById("scrub");
let episode = null;
let playing = null;
let extent = [];      // every position of the episode: the map's view

function frameAt(tick) {
  // The last decision at or before the tick (frames are in tick order).
  let lo = 0, hi = episode.frames.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (episode.frames[mid].tick <= tick) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

function timeline() {
  const strip = document.getElementById("timeline");
  const ctx = strip.getContext("2d");
  ctx.clearRect(0, 0, strip.width, strip.height);
  const span = Math.max(1, episode.last_tick);
  for (const e of episode.timeline) {
    ctx.fillStyle = COLOURS[e.kind] || "#e5e7eb";
    const x = (e.tick / span) * (strip.width - 2) + 1;
    const tall = e.kind === "milestone" || e.kind === "death";
    ctx.fillRect(x - 1, tall ? 2 : 14, 3, tall ? strip.height - 4 : strip.height - 28);
  }
}

function facts(pairs) {
  return pairs.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v ?? "–")]);
}

// The episode's terrain (sim episodes carry it) as the live map's shape: heights against this frame's feet.
function groundAt(frame) {
  const t = episode.terrain;
  if (!t) return null;
  const feet = Math.floor(frame ? frame.y : episode.frames.length ? episode.frames[0].y : 0);
  return { x0: t.x0, z0: t.z0, size: t.size, kinds: t.kinds, heights: t.tops.map((y) => (y === null ? 0 : y - feet)) };
}

function show(tick) {
  const i = frameAt(tick);
  const frame = i >= 0 ? episode.frames[i] : null;
  const track = episode.frames.slice(0, i + 1).map((f) => [f.x, f.z]);
  const previous = i > 0 ? episode.frames[i - 1] : null;
  const yaw = frame && previous ? (Math.atan2(-(frame.x - previous.x), frame.z - previous.z) * 180) / Math.PI : 0;
  draw(canvas, { map: groundAt(frame), player: frame ? { x: frame.x, z: frame.z, yaw } : null, track, markers: [], extent });
  const seen = episode.timeline.filter((e) => e.tick <= tick);
  const milestones = seen.filter((e) => e.kind === "milestone");
  // Milestones may come out of ladder order (iron ore before the furnace): "latest" is by tick.
  const latest = milestones.length ? milestones[milestones.length - 1].label.split(" ")[1] : null;
  const now = document.getElementById("now");
  fill(now, ...facts([
    ["tick", `${tick} of ${episode.last_tick}`],
    ["position", frame ? `${frame.x}, ${frame.y}, ${frame.z}` : null],
    ["decision", frame ? frame.choice : null], ["why", frame ? frame.reason : null],
    ["outcome", frame ? frame.outcome ?? "running" : null],
    ["health / food", frame ? `${frame.health ?? "?"} / ${frame.food ?? "?"}` : null],
    ["milestones", `${milestones.length} of ${episode.ladder.length}${latest ? `, latest ${latest.replaceAll("_", " ")}` : ""}`],
  ]));
  Object.assign(now.dataset, { tick: String(tick), milestone: latest || "", milestones: String(milestones.length) });
  const reached = new Set(milestones.map((e) => e.label.split(" ")[1]));
  const next = episode.ladder.find((n) => !reached.has(n));
  fill(document.getElementById("ladder"), ...episode.ladder.map((n) =>
    el("li", { class: reached.has(n) ? "reached" : n === next ? "current" : "" }, n.replaceAll("_", " "))));
  fill(document.getElementById("events"), ...seen.slice(-60).reverse().map((e) =>
    el("li", {}, el("span", { style: `color:${COLOURS[e.kind] || "#e5e7eb"}` }, e.kind), ` @${e.tick} ${e.label}`)));
  document.getElementById("tick").textContent = `tick ${tick}`;
}

function seek(tick) {
  scrub.value = String(tick);
  show(Number(scrub.value));
}

async function load(name) {
  setStatus(`loading ${name}…`);
  try {
    episode = await getJSON(`/api/episode?name=${encodeURIComponent(name)}`);
  } catch (error) {
    setStatus(`cannot load ${name}: ${error.message}`);
    return;
  }
  scrub.max = String(episode.last_tick);
  extent = episode.frames.map((f) => [f.x, f.z]);
  timeline();
  seek(0);
  setStatus(`${name}: ${episode.frames.length} decisions, ${episode.timeline.length} events`);
  document.body.dataset.loaded = name;
}

function play() {
  if (playing) { cancelAnimationFrame(playing); playing = null; return; }
  const step = Math.max(1, Math.round(episode.last_tick / 400));
  const advance = () => {
    const tick = Math.min(episode.last_tick, Number(scrub.value) + step);
    seek(tick);
    playing = tick < episode.last_tick ? requestAnimationFrame(advance) : null;
  };
  playing = requestAnimationFrame(advance);
}

async function main() {
  const me = await getJSON("/api/whoami");
  if (!me.live) document.getElementById("overview-link").remove();
  const { episodes } = await getJSON("/api/episodes");
  const select = document.getElementById("episode");
  fill(select, ...episodes.map((n) => el("option", { value: n }, n)));
  if (!episodes.length) { setStatus("no recorded episodes in the episode folder"); return; }
  const wanted = new URLSearchParams(location.search).get("episode");
  select.value = episodes.includes(wanted) ? wanted : episodes[episodes.length - 1];
  select.addEventListener("change", () => load(select.value));
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  document.getElementById("play").addEventListener("click", () => episode && play());
  document.getElementById("start").addEventListener("click", () => episode && seek(0));
  document.getElementById("end").addEventListener("click", () => episode && seek(episode.last_tick));
  await load(select.value);
}

main();
