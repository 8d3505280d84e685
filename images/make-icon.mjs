// Draws images/icon.png (128x128): a magnifying lens over three tool bars coloured like the
// workflow graph (read-only, additive, destructive). Node only: shapes are sampled 4x4 per pixel
// for smooth edges, and the PNG is written by hand with zlib. Run: node images/make-icon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4;

const BACKGROUND = [30, 41, 59];
const LENS = [125, 211, 252];
const GLASS = [15, 23, 42];
const BARS = [
  [46, 125, 50],
  [21, 101, 192],
  [198, 40, 40],
];

/** Signed distance to a rounded rectangle centred at (cx, cy). */
function roundedRect(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Distance to the segment a-b, minus half its thickness. */
function segment(x, y, ax, ay, bx, by, half) {
  const px = x - ax;
  const py = y - ay;
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - t * dx, py - t * dy) - half;
}

/** The colour of one sample point, or null outside the icon. */
function colourAt(x, y) {
  if (roundedRect(x, y, 64, 64, 62, 62, 22) > 0) return null;
  const cx = 54;
  const cy = 54;
  const d = Math.hypot(x - cx, y - cy);
  if (segment(x, y, 79, 79, 108, 108, 8) <= 0 && d > 34) return LENS;
  if (d <= 34 && d >= 26) return LENS;
  if (d < 26) {
    for (let i = 0; i < BARS.length; i++) {
      const width = [17, 13, 9][i];
      if (roundedRect(x, y, cx - 14 + width, 42 + i * 12, width, 3.5, 3.5) <= 0) return BARS[i];
    }
    return GLASS;
  }
  return BACKGROUND;
}

const rows = [];
for (let py = 0; py < SIZE; py++) {
  const row = Buffer.alloc(1 + SIZE * 4);
  row[0] = 0; // filter: none
  for (let px = 0; px < SIZE; px++) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const colour = colourAt(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
        if (!colour) continue;
        sum[0] += colour[0];
        sum[1] += colour[1];
        sum[2] += colour[2];
        sum[3] += 255;
      }
    }
    const covered = sum[3] / 255;
    const at = 1 + px * 4;
    if (covered > 0) {
      row[at] = Math.round(sum[0] / covered);
      row[at + 1] = Math.round(sum[1] / covered);
      row[at + 2] = Math.round(sum[2] / covered);
    }
    row[at + 3] = Math.round(sum[3] / (SAMPLES * SAMPLES));
  }
  rows.push(row);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`images/icon.png ${png.length} bytes`);
