#!/usr/bin/env node
// Draws the small PNG images used by the demo (no dependencies, deterministic).
//   node demo/tools/make-images.mjs
// Writes demo/texts/search-screen-sketch.png, demo/texts/card-drawer.png and demo/logo.png.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------- PNG encoding
const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function encodePng(img) {
  const { w, h, px } = img;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0; // filter type: none
    px.copy(raw, y * (w * 3 + 1) + 1, y * w * 3, (y + 1) * w * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------- drawing
const hex = (s) => [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16)];
function canvas(w, h, bg) {
  const px = Buffer.alloc(w * h * 3);
  const img = { w, h, px };
  rect(img, 0, 0, w, h, bg);
  return img;
}
function set(img, x, y, c) {
  if (x < 0 || y < 0 || x >= img.w || y >= img.h) return;
  const [r, g, b] = hex(c);
  const i = (y * img.w + x) * 3;
  img.px[i] = r; img.px[i + 1] = g; img.px[i + 2] = b;
}
function rect(img, x, y, w, h, c) {
  for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) set(img, i, j, c);
}
function frame(img, x, y, w, h, c, t = 1) {
  rect(img, x, y, w, t, c); rect(img, x, y + h - t, w, t, c);
  rect(img, x, y, t, h, c); rect(img, x + w - t, y, t, h, c);
}
function disc(img, cx, cy, r, c) {
  for (let j = -r; j <= r; j++) for (let i = -r; i <= r; i++) if (i * i + j * j <= r * r) set(img, cx + i, cy + j, c);
}

// A 3x5 pixel font, enough for short labels (upper case, digits, a few signs).
const FONT = {
  A: '010101111101101', B: '110101110101110', C: '011100100100011', D: '110101101101110',
  E: '111100110100111', F: '111100110100100', G: '011100101101011', H: '101101111101101',
  I: '111010010010111', J: '001001001101010', K: '101101110101101', L: '100100100100111',
  M: '101111111101101', N: '110101101101101', O: '010101101101010', P: '110101110100100',
  Q: '010101101110011', R: '110101110101101', S: '011100010001110', T: '111010010010010',
  U: '101101101101111', V: '101101101101010', W: '101101111111101', X: '101101010101101',
  Y: '101101010010010', Z: '111001010100111', ' ': '000000000000000', ':': '000010000010000',
  '0': '111101101101111', '1': '010110010010111', '2': '110001010100111', '3': '110001010001110',
  '4': '101101111001001', '5': '111100110001110', '6': '011100111101111', '7': '111001010010010',
  '8': '111101111101111', '9': '111101111001110', '-': '000000111000000', '.': '000000000000010', '?': '110001010000010',
};
function text(img, x, y, s, c, scale = 1) {
  for (const ch of s.toUpperCase()) {
    const g = FONT[ch] ?? FONT[' '];
    for (let j = 0; j < 5; j++) for (let i = 0; i < 3; i++) {
      if (g[j * 3 + i] === '1') rect(img, x + i * scale, y + j * scale, scale, scale, c);
    }
    x += 4 * scale;
  }
}

// ---------------------------------------------------------------- pictures
function searchScreenSketch() {
  const ink = '#2f3b45', paper = '#fbf7ee', accent = '#b5452d', soft = '#d9d2c3', green = '#4f7f52';
  const img = canvas(320, 200, '#e9e3d6');
  rect(img, 6, 6, 308, 188, paper);
  frame(img, 6, 6, 308, 188, ink);
  // header bar
  rect(img, 7, 7, 306, 16, ink);
  disc(img, 17, 15, 4, accent);
  text(img, 26, 13, 'COMMON SHELVES', paper);
  text(img, 262, 13, 'EN IT', soft);
  // query box and buttons
  frame(img, 16, 30, 220, 14, ink);
  text(img, 21, 35, 'AUTHOR:RECLUS LANGUAGE:FR', ink);
  rect(img, 240, 30, 14, 14, soft); text(img, 245, 35, 'X', ink);
  rect(img, 256, 30, 14, 14, soft); text(img, 260, 35, '?', ink);
  frame(img, 274, 30, 30, 14, ink); text(img, 278, 35, 'SORT', ink);
  // chips
  rect(img, 90, 50, 46, 9, accent); text(img, 93, 52, 'FR X', paper);
  rect(img, 140, 50, 58, 9, accent); text(img, 143, 52, '1892 X', paper);
  // facets on the left
  const facets = ['LANGUAGE', 'AUTHORS', 'LIBRARIES', 'DATE', 'DOWNLOAD', 'AGGREGATE'];
  facets.forEach((f, k) => {
    const y = 50 + k * 23;
    frame(img, 16, y, 66, 21, soft);
    text(img, 19, y + 3, f, ink);
    for (let r = 0; r < 2; r++) {
      frame(img, 19, y + 10 + r * 5, 3, 3, ink);
      if (r === 0 && k < 2) rect(img, 20, y + 11, 1, 1, green);
      rect(img, 25, y + 11 + r * 5, 30 - r * 8, 1, ink);
      rect(img, 72, y + 11 + r * 5, 6, 1, accent);
    }
  });
  // pager
  const pager = (y) => { for (let p = 0; p < 5; p++) { const x = 170 + p * 13; (p === 0 ? rect : frame)(img, x, y, 10, 9, p === 0 ? ink : soft); text(img, x + 4, y + 2, String(p + 1), p === 0 ? paper : ink); } };
  pager(64);
  // result cards
  for (let k = 0; k < 3; k++) {
    const y = 78 + k * 32;
    frame(img, 90, y, 214, 28, soft);
    rect(img, 96, y + 5, 60, 2, accent);
    rect(img, 96, y + 11, 140 - k * 20, 3, ink);
    rect(img, 96, y + 18, 90, 1, ink);
    rect(img, 250, y + 5, 16, 7, green); text(img, 253, y + 6, 'FR', paper);
    rect(img, 270, y + 5, 28, 7, soft);
    rect(img, 250, y + 17, 48, 6, '#c9b98f');
  }
  pager(178);
  return img;
}

function cardDrawer() {
  const wood = '#8a5a34', woodDark = '#5e3b20', woodLight = '#a8744a', card = '#f6f0dd', line = '#b9c4cf', red = '#b5452d';
  const img = canvas(200, 160, '#efe8d8');
  // cards standing in the drawer, seen slightly from above
  for (let k = 0; k < 9; k++) {
    const x = 36 + k * 2, y = 22 + k * 6;
    rect(img, x, y, 120, 54, card);
    frame(img, x, y, 120, 54, '#c8bd9e');
    for (let l = 0; l < 4; l++) rect(img, x + 8, y + 12 + l * 9, 100 - (l % 2) * 30, 1, line);
    rect(img, x + 8, y + 5, 36, 2, red);
  }
  // the tab card
  rect(img, 120, 64, 28, 10, '#e3c46b'); text(img, 123, 66, 'M-N', woodDark);
  // drawer box
  rect(img, 24, 84, 152, 58, wood);
  rect(img, 24, 84, 152, 4, woodLight);
  frame(img, 24, 84, 152, 58, woodDark, 2);
  // label holder and handle
  frame(img, 78, 96, 44, 16, '#c7c1b4', 2);
  rect(img, 80, 98, 40, 12, card);
  text(img, 86, 102, 'A-Z', woodDark, 2);
  rect(img, 84, 120, 32, 6, '#c7c1b4');
  rect(img, 88, 126, 24, 4, '#8f897c');
  // the rod through the cards
  disc(img, 100, 136, 3, '#8f897c');
  return img;
}

function logo() {
  const img = canvas(64, 64, '#fbf7ee');
  const books = [['#b5452d', 6, 14], ['#2f3b45', 7, 18], ['#4f7f52', 5, 10], ['#c99a2e', 8, 16], ['#6b4f8a', 6, 12]];
  let x = 10;
  for (const [c, w, top] of books) {
    rect(img, x, top, w, 50 - top, c);
    rect(img, x + 1, top + 4, w - 2, 1, '#fbf7ee');
    rect(img, x + 1, 44, w - 2, 1, '#fbf7ee');
    x += w + 1;
  }
  // a leaning book
  for (let j = 0; j < 36; j++) rect(img, 48 + Math.floor(j / 4), 50 - j, 6, 1, '#2f3b45');
  rect(img, 6, 50, 52, 4, '#5e3b20');
  return img;
}

const out = [
  ['texts/search-screen-sketch.png', searchScreenSketch()],
  ['texts/card-drawer.png', cardDrawer()],
  ['logo.png', logo()],
];
for (const [path, img] of out) {
  writeFileSync(join(demoDir, path), encodePng(img));
  console.log(`wrote demo/${path} (${img.w}x${img.h})`);
}
