// Helpers every page uses: building elements (text only, never HTML from data), JSON, event streams.

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function fill(node, ...children) {
  node.replaceChildren(...children.filter((c) => c !== null && c !== undefined)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c)))));
}

export async function getJSON(url) {
  const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (response.status === 401) { location.href = "/"; throw new Error("signed out"); }
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

export async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// An EventSource that calls onData with each event's JSON; onGone when the stream says the subject left.
export function stream(url, event, onData, onState = () => {}, onGone = () => {}) {
  const source = new EventSource(url, { withCredentials: true });
  source.addEventListener(event, (e) => onData(JSON.parse(e.data)));
  source.addEventListener("gone", () => { source.close(); onGone(); });
  source.addEventListener("open", () => onState("live"));
  source.addEventListener("error", () => onState(source.readyState === EventSource.CLOSED ? "closed" : "reconnecting"));
  return source;
}

export function bytes(n) {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KiB`;
  return `${Math.round(n)} B`;
}

export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, "0")}m` : `${m}m${String(s % 60).padStart(2, "0")}s`;
}

let scope = null;
export async function whoami() {
  if (scope === null) scope = await getJSON("/api/whoami");
  return scope;
}

// An admin action button: asks for confirmation, posts, and reports the answer in `status`.
export function actionButton(label, action, player, question, status, danger = false, more = {}) {
  return el("button", {
    class: danger ? "action danger" : "action", "data-action": action, "data-player": player,
    "data-server": more.server ?? "",
    onclick: async () => {
      if (!window.confirm(question)) return;
      try {
        const answer = await postJSON(`/admin/${action}`, { ...more, player, confirm: true });
        status.textContent = answer.done;
      } catch (error) {
        status.textContent = `failed: ${error.message}`;
      }
    },
  }, label);
}

export function setStatus(text) {
  const node = document.getElementById("live");
  if (node) node.textContent = text;
}

// Every page's header has a sign-out button: the session cookie is forgotten on the proxy's side too.
document.getElementById("signout")?.addEventListener("click", async () => {
  await fetch("/logout", { method: "POST", credentials: "same-origin" });
  location.href = "/";
});
