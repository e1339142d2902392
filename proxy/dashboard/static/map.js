// The top-down map: the world model's block kinds shaded by height, and what moves on it.
// Live pages pass the proxy's map; the replay passes its episode's terrain, or none (the proxy's own
// episodes hold positions only) and gets a grid under the track.
// The drawn player's world and pixel position are written to the canvas's data attributes,
// which is how a test reads back where the marker is.

export const KINDS = [
  ["unknown", "#1b1d22"], ["drop", "#050506"], ["water", "#2f6fdf"], ["lava", "#ff6a00"], ["grass", "#5da33b"],
  ["dirt", "#8b5a2b"], ["sand", "#dbcf8e"], ["stone", "#8a8a8a"], ["ore", "#d4a017"], ["wood", "#6b4a2a"],
  ["leaves", "#2e6b1f"], ["snow", "#eef4ff"], ["danger", "#e0245e"], ["plant", "#8fd66a"], ["built", "#b08f5a"],
];
const RGB = KINDS.map(([, hex]) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
export const PLAYER_COLOUR = [255, 255, 255];

export function legend(node) {
  node.replaceChildren(...KINDS.slice(1).map(([name, colour]) => {
    const span = document.createElement("span");
    span.style.setProperty("--swatch", colour);
    span.textContent = name;
    return span;
  }));
}

// The view: {x0, z0, size} in blocks (the map's or a box around the track), cells scaled to the canvas.
export function frameFor(map, points, centre, radius = 24) {
  if (map) return { x0: map.x0, z0: map.z0, size: map.size };
  const xs = points.map((p) => p[0]).concat(centre ? [centre[0]] : []);
  const zs = points.map((p) => p[1]).concat(centre ? [centre[1]] : []);
  if (!xs.length) return { x0: -radius, z0: -radius, size: 2 * radius + 1 };
  const minX = Math.min(...xs), maxX = Math.max(...xs), minZ = Math.min(...zs), maxZ = Math.max(...zs);
  const size = Math.max(2 * radius + 1, Math.ceil(Math.max(maxX - minX, maxZ - minZ)) + 9);
  return { x0: Math.floor((minX + maxX) / 2 - size / 2), z0: Math.floor((minZ + maxZ) / 2 - size / 2), size };
}

function terrain(ctx, map, cell) {
  const image = ctx.createImageData(map.size, map.size);
  for (let i = 0; i < map.size * map.size; i++) {
    const [r, g, b] = RGB[map.kinds[i]] || RGB[0];
    const h = Math.max(-16, Math.min(16, map.heights[i]));
    const shade = map.kinds[i] <= 1 ? 1 : 1 + h * 0.035;
    image.data.set([Math.min(255, r * shade), Math.min(255, g * shade), Math.min(255, b * shade), 255], i * 4);
  }
  // Draw at one pixel a block, then scale up without smoothing.
  const off = new OffscreenCanvas(map.size, map.size);
  off.getContext("2d").putImageData(image, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(off, 0, 0, map.size * cell, map.size * cell);
}

function grid(ctx, frame, cell) {
  ctx.strokeStyle = "#22262e";
  ctx.lineWidth = 1;
  const every8 = (v) => ((v % 8) + 8) % 8 === 0;   // a line every 8 blocks, on world coordinates
  for (let i = 0; i <= frame.size; i++) {
    if (every8(frame.x0 + i)) {
      ctx.beginPath(); ctx.moveTo(i * cell, 0); ctx.lineTo(i * cell, frame.size * cell); ctx.stroke();
    }
    if (every8(frame.z0 + i)) {
      ctx.beginPath(); ctx.moveTo(0, i * cell); ctx.lineTo(frame.size * cell, i * cell); ctx.stroke();
    }
  }
}

// scene: {map, player: {x, z, yaw}, markers: [{kind, x, z, name, hostile}], path: [[x, y, z]...],
//         target: [x, y, z] | null, track: [[x, z]...], extent: [[x, z]...] (what the view must hold)}
export function draw(canvas, scene) {
  const ctx = canvas.getContext("2d");
  // A replay passes the whole episode's track as its extent, so the view holds still while scrubbing.
  const points = scene.extent || (scene.track || []).concat((scene.path || []).map((p) => [p[0], p[2]]));
  const frame = frameFor(scene.map, points, scene.player ? [scene.player.x, scene.player.z] : null);
  const cell = canvas.width / frame.size;
  const px = (x) => (x - frame.x0) * cell;
  const pz = (z) => (z - frame.z0) * cell;
  ctx.fillStyle = "#0b0c0f";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  if (scene.map) terrain(ctx, scene.map, cell); else grid(ctx, frame, cell);
  canvas.dataset.terrain = scene.map ? "drawn" : "grid";
  if (scene.track && scene.track.length > 1) {
    ctx.strokeStyle = "rgba(147, 197, 253, 0.8)";
    ctx.lineWidth = Math.max(1.5, cell / 4);
    ctx.beginPath();
    scene.track.forEach(([x, z], i) => (i ? ctx.lineTo(px(x), pz(z)) : ctx.moveTo(px(x), pz(z))));
    ctx.stroke();
  }
  if (scene.path && scene.path.length) {
    ctx.strokeStyle = "#f0f";
    ctx.lineWidth = Math.max(2, cell / 3);
    ctx.beginPath();
    scene.path.forEach(([x, , z], i) => (i ? ctx.lineTo(px(x + 0.5), pz(z + 0.5)) : ctx.moveTo(px(x + 0.5), pz(z + 0.5))));
    ctx.stroke();
  }
  if (scene.target) {
    const [tx, , tz] = scene.target;
    ctx.strokeStyle = "#f0f";
    ctx.lineWidth = 2;
    ctx.strokeRect(px(tx), pz(tz), cell, cell);
    ctx.beginPath(); ctx.arc(px(tx + 0.5), pz(tz + 0.5), cell * 1.4, 0, 2 * Math.PI); ctx.stroke();
  }
  for (const m of scene.markers || []) {
    const x = px(m.x), y = pz(m.z), r = Math.max(3, cell * 0.45);
    if (m.kind === "player") {
      ctx.fillStyle = "#22d3ee";
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill();
      ctx.fillStyle = "#e0f7ff"; ctx.font = "12px system-ui"; ctx.fillText(m.name || "player", x + r + 2, y - r);
    } else {
      ctx.fillStyle = m.hostile ? "#ef4444" : "#facc15";
      ctx.fillRect(x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6);
    }
  }
  canvas.dataset.pathLength = String((scene.path || []).length);
  delete canvas.dataset.playerX;
  if (scene.player) {
    const { x: wx, z: wz, yaw } = scene.player;
    const x = px(wx), y = pz(wz), r = Math.max(4, cell * 0.6);
    // Minecraft's yaw: 0 faces +z (south, down on the map), 90 faces -x (west, left).
    const rad = (yaw * Math.PI) / 180;
    ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x - Math.sin(rad) * r * 2.6, y + Math.cos(rad) * r * 2.6); ctx.stroke();
    ctx.fillStyle = `rgb(${PLAYER_COLOUR.join(",")})`;
    ctx.strokeStyle = "#000"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    Object.assign(canvas.dataset, {
      playerX: String(wx), playerZ: String(wz), playerPx: String(x), playerPy: String(y),
      x0: String(frame.x0), z0: String(frame.z0), cell: String(cell),
    });
  }
}
