#!/usr/bin/env node
// Writes the small PDFs of the demo catalogue with raw PDF syntax (no dependencies, deterministic).
//   node demo/tools/make-pdfs.mjs
// Output: demo/pdf/visiting-a-member-library.pdf, demo/pdf/guia-del-lector.pdf
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '..');

// Text is encoded as WinAnsi (close enough to Latin-1 for the characters used here).
const enc = (s) => Buffer.from(s, 'latin1');
const esc = (s) => s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');

// Very small word wrapper: Helvetica averages a little more than half an em per character.
function wrap(text, size, width) {
  const max = Math.floor(width / (size * 0.5));
  const out = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && (line + ' ' + word).length > max) { out.push(line); line = word; } else line = line ? line + ' ' + word : word;
  }
  if (line) out.push(line);
  return out;
}

// blocks: {h: 'heading'} | {p: 'paragraph'} | {li: 'bullet item'} | {small: 'footer text'}
function layoutPages(title, subtitle, blocks) {
  const pages = [];
  let ops = [];
  let y = 0;
  const top = 770, bottom = 80, left = 72, width = 451;
  const newPage = () => {
    if (ops.length) pages.push(ops);
    ops = [];
    y = top;
  };
  const line = (s, font, size, x = left) => {
    ops.push(`BT /${font} ${size} Tf ${x} ${y} Td (${esc(s)}) Tj ET`);
  };
  newPage();
  line(title, 'F2', 20); y -= 24;
  if (subtitle) { line(subtitle, 'F3', 12); y -= 14; }
  ops.push(`0.71 0.27 0.18 RG 2 w ${left} ${y} m ${left + width} ${y} l S 0 0 0 RG`);
  y -= 26;
  for (const b of blocks) {
    if (b.h) {
      if (y < bottom + 60) newPage();
      y -= 6; line(b.h, 'F2', 13); y -= 18;
    } else if (b.p || b.li) {
      const size = 11, lead = 15;
      const lines = wrap(b.p ?? b.li, size, b.li ? width - 16 : width);
      lines.forEach((l, i) => {
        if (y < bottom) newPage();
        if (b.li && i === 0) line('-', 'F1', size);
        line(l, 'F1', size, b.li ? left + 14 : left);
        y -= lead;
      });
      y -= 6;
    } else if (b.small) {
      for (const l of wrap(b.small, 9, width)) { if (y < bottom) newPage(); line(l, 'F3', 9); y -= 12; }
    }
  }
  pages.push(ops);
  // page numbers
  pages.forEach((p, i) => p.push(`BT /F1 9 Tf 290 40 Td (${i + 1} / ${pages.length}) Tj ET`));
  return pages;
}

function buildPdf({ title, subtitle, author, blocks }) {
  const pages = layoutPages(title, subtitle, blocks);
  const objects = []; // index i holds object number i+1
  const add = (body) => { objects.push(body); return objects.length; };
  const catalog = add(null);
  const pagesObj = add(null);
  const f1 = add(enc('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'));
  const f2 = add(enc('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'));
  const f3 = add(enc('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Oblique /Encoding /WinAnsiEncoding >>'));
  const kids = [];
  for (const ops of pages) {
    const stream = enc(ops.join('\n') + '\n');
    const content = add(Buffer.concat([enc(`<< /Length ${stream.length} >>\nstream\n`), stream, enc('endstream')]));
    kids.push(add(enc(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 595 842] ` +
      `/Resources << /Font << /F1 ${f1} 0 R /F2 ${f2} 0 R /F3 ${f3} 0 R >> >> /Contents ${content} 0 R >>`)));
  }
  objects[catalog - 1] = enc(`<< /Type /Catalog /Pages ${pagesObj} 0 R >>`);
  objects[pagesObj - 1] = enc(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  const info = add(enc(`<< /Title (${esc(title)}) /Author (${esc(author)}) /Producer (Common Shelves demo tools) ` +
    `/CreationDate (D:20261101120000Z) >>`));

  const parts = [enc('%PDF-1.4\n'), Buffer.from([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a])];
  let offset = parts.reduce((n, b) => n + b.length, 0);
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([enc(`${i + 1} 0 obj\n`), body, enc('\nendobj\n')]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(enc(xref));
  parts.push(enc(`trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

export const PDFS = [
  {
    file: 'pdf/visiting-a-member-library.pdf',
    title: 'Visiting a Member Library',
    subtitle: 'A leaflet for readers of the Common Shelves union catalogue',
    author: 'Kensington Free Reading Room',
    blocks: [
      { p: 'You found a book in the union catalogue and it is held by a library you have never visited. This leaflet tells you what to expect, and how to make the visit easy for you and for the volunteers who will welcome you.' },
      { h: 'Before you go' },
      { li: 'Check the opening hours on the library page of the catalogue, then write or call to confirm them. Most member libraries are run by volunteers and hours change with the seasons.' },
      { li: 'Write down the shelf location code shown in the library box of the entry page. It is the fastest way for anyone at the desk to find the book.' },
      { li: 'If you need several items, send the list in advance. Pamphlets and periodicals are often kept in boxes in another room.' },
      { h: 'At the library' },
      { p: 'Many member libraries do not lend older or fragile material, but almost all of them let you read it on the spot. Ask before photographing pages; most will say yes if the flash is off and the book is supported.' },
      { p: 'Nobody will ask for an identity document to read in the room. Some libraries ask for a name and an address to lend books; that information stays with them and is never sent to the union catalogue.' },
      { h: 'After your visit' },
      { p: 'If you noticed a mistake in a record, use the Report Error button on the entry page. If the library helped you, tell your friends about it, donate a book it is missing, or offer an afternoon of your time. That is how these places survive.' },
      { h: 'Reading rules in short' },
      { li: 'Pencil only near the books.' },
      { li: 'Food and drinks stay on the other table.' },
      { li: 'Books go back on the trolley, not on the shelf: the volunteers will reshelve them.' },
      { li: 'Quiet voices in the reading room, any voice in the kitchen.' },
      { small: 'This leaflet was written for the Common Shelves demo catalogue. Copy it, change it and hand it out freely.' },
    ],
  },
  {
    file: 'pdf/guia-del-lector.pdf',
    title: 'Guía del lector',
    subtitle: 'Biblioteca Popular Barracas del Sur',
    author: 'Biblioteca Popular Barracas del Sur',
    blocks: [
      { p: 'Esta biblioteca nació de una asamblea de vecinos y sigue siendo de quien la usa. No hace falta ser socio para leer en la sala: basta con entrar, saludar y pedir lo que se busca.' },
      { h: '¿Cómo encontrar un libro?' },
      { p: 'Nuestro fichero de cartón sigue en la entrada, pero el catálogo completo también está en el catálogo colectivo Common Shelves, junto con el de otras bibliotecas independientes. Busque por título o por autor, anote la signatura topográfica y désela a quien esté en el mostrador.' },
      { h: 'Préstamo' },
      { li: 'Se prestan hasta tres libros por vez, durante tres semanas.' },
      { li: 'Los folletos, las revistas y los libros anteriores a 1950 se leen solo en la sala.' },
      { li: 'Para el préstamo pedimos un nombre y una dirección, que quedan en nuestro cuaderno y no se comparten con nadie.' },
      { h: 'Donaciones' },
      { p: 'Recibimos libros con gusto, pero no todos se quedan: los duplicados se intercambian con otras bibliotecas populares del país y del exterior. Si trae una colección grande, avísenos antes para que podamos hacerle lugar.' },
      { h: 'Horarios' },
      { p: 'Martes a viernes de 17 a 21 h, sábados de 10 a 14 h. En enero la biblioteca cierra por vacaciones y por limpieza de estantes.' },
      { small: 'Texto escrito para el catálogo de demostración de Common Shelves. Puede copiarse y adaptarse libremente.' },
    ],
  },
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const doc of PDFS) {
    writeFileSync(join(demoDir, doc.file), buildPdf(doc));
    console.log(`wrote demo/${doc.file}`);
  }
}
