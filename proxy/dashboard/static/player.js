// A player's page: the world model around them on the map, the autopilot's path, ladder and decisions.
import { actionButton, el, fill, setStatus, stream, whoami } from "./common.js";
import { draw, legend } from "./map.js";

const name = decodeURIComponent(location.pathname.split("/")[2] || "");
const canvas = document.getElementById("map");

function facts(node, pairs) {
  fill(node, ...pairs.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v ?? "–")]));
}

function position(p) {
  return p ? p.map((v) => v.toFixed(1)).join(", ") : "not known yet";
}

function show(view, admin) {
  const me = view.position;
  draw(canvas, {
    map: view.map,
    player: me ? { x: me[0], z: me[2], yaw: view.yaw } : null,
    markers: view.markers, path: view.path, target: view.target,
  });
  const reflex = view.last_reflex;
  facts(document.getElementById("facts"), [
    ["position", position(me)], ["facing (yaw)", `${view.yaw}°`], ["dimension", view.dimension],
    ["health", view.health], ["food", view.food], ["version", view.version],
    ["near", `${view.markers.filter((m) => m.kind === "player").length} players, ${view.markers.filter((m) => m.kind !== "player").length} mobs and objects`],
    ["last reflex", reflex ? `${reflex.name}, ${reflex.seconds_ago} s ago${reflex.active ? " (driving now)" : ""}` : "none yet"],
  ]);
  facts(document.getElementById("autopilot"), [
    ["state", view.autopilot ? "on" : "off"], ["progress", view.progress],
    ["action", view.action], ["target", view.target ? view.target.join(", ") : null],
    ["path", view.path.length ? `${view.path.length} steps` : null],
  ]);
  fill(document.getElementById("ladder"), ...view.ladder.map((rung) =>
    el("li", { class: rung.current ? "current" : rung.reached ? "reached" : "" }, rung.name.replaceAll("_", " "))));
  fill(document.querySelector("#decisions tbody"), ...view.decisions.slice().reverse().map((d) => el("tr", {},
    el("td", { class: "num" }, d.tick), el("td", {}, d.choice), el("td", {}, d.reason), el("td", {}, d.source),
    el("td", { class: d.outcome === "ok" ? "ok" : d.outcome ? "warn" : "dim" }, d.outcome ?? "running"))));
  const adminNode = document.getElementById("admin");
  // Built again only when the player's server changes (a button under the cursor must not be redrawn).
  const where = `${view.server ?? ""}|${(view.servers ?? []).join(",")}`;
  if (admin && adminNode.dataset.ready !== where) {
    const status = document.getElementById("action-status");
    adminNode.dataset.ready = where;
    const send = (view.servers ?? []).filter((server) => server !== view.server).map((server) =>
      actionButton(`Send to ${server}`, "send", name, `Send ${name} to ${server}?`, status, false, { server }));
    fill(adminNode, actionButton("Stop autopilot", "stop", name, `Stop ${name}'s autopilot?`, status),
      ...send, actionButton("Kick", "kick", name, `Kick ${name} from the proxy?`, status, true));
  }
  document.body.dataset.updated = String(Date.now());
}

async function main() {
  document.getElementById("title").textContent = name;
  document.title = `mcagent: ${name}`;
  legend(document.getElementById("legend"));
  const me = await whoami();
  stream(`/events/player/${encodeURIComponent(name)}`, "player", (view) => show(view, me.scope === "admin"),
    (state) => setStatus(state), () => setStatus(`${name} is not connected`));
}

main();
