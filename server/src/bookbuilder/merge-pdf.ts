// Joins the PDFs of a book laid out in chunks (packages/muse/src/chunks.ts) into one: the pages each
// piece keeps (without its stand-in and placeholder pages) with their fonts (each piece's subsets), the
// links (those to a placeholder sent to the real place of their label), one outline rebuilt from the
// headings' levels, one structure tree (PDF 1.7 §14.7: elements copied with their marked content and
// link objects, the parent tree and IDs rebuilt), and the first piece's language, viewer preferences,
// XMP and document information.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRawStream,
  ParseSpeeds,
  PDFRef,
  PDFString,
  decodePDFRawStream,
  type PDFObject,
} from 'pdf-lib';
import { TARGET_STEP, TARGETS_PER_PAGE } from '@uc/muse';
import { copyPdfValue } from '@uc/imposition';

export interface MergePiece {
  pdf: Uint8Array;
  /** The pages kept: [first, end), 0-based; the placeholder pages follow `end`. */
  first: number;
  end: number;
  /** The labels of the placeholder anchors, in order (see chunks.ts). */
  foreign: string[];
  /** The levels of the piece's bookmarked headings, in order (to nest the outline across pieces). */
  levels: number[];
}

/** Where a label really is: a piece's physical page (1-based) and the point, in pt from the top left. */
export interface TargetPlace {
  piece: number;
  page: number;
  x: number;
  y: number;
}

const N = (s: string) => PDFName.of(s);
/** Entries of a structure element copied as they are (PDF 1.7 table 323); P, K, Pg and ID are rebuilt. */
const ELEMENT_KEYS = ['S', 'T', 'Lang', 'Alt', 'E', 'ActualText', 'A', 'C', 'R'];

/** Copies direct values into the output (refs resolved): the one rule imposition uses for its tags. */
const plain = copyPdfValue;

const text = (o: PDFObject | undefined) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : '');

interface PendingDest {
  annot: PDFDict;
  /** The target: a label, or a place in a piece. */
  label?: string;
  piece: number;
  page: number;
  x: number;
  y: number;
}

interface OutlineItem {
  title: string;
  level: number;
  dest: PDFArray;
}

export async function mergeChunkPdfs(pieces: MergePiece[], targets: Map<string, TargetPlace>): Promise<Uint8Array> {
  const out = await PDFDocument.create({ updateMetadata: false });
  const outPages: PDFRef[][] = [];
  const heights: number[][] = [];
  const pending: PendingDest[] = [];
  const outline: OutlineItem[] = [];
  // structure tree
  const docElement = out.context.obj({ Type: 'StructElem', S: 'Document' }) as PDFDict;
  const docRef = out.context.register(docElement);
  const docKids: PDFRef[] = [];
  const parentTree: [number, PDFObject][] = [];
  let nextKey = 0;
  const ids = new Map<string, PDFRef>();
  const roleMap = out.context.obj({}) as PDFDict;
  let first: PDFDocument | null = null;

  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k];
    const src = await PDFDocument.load(piece.pdf, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    const srcPages = src.getPages();
    const index = new Map(srcPages.map((p, i) => [p.ref.toString(), i]));
    const kept = srcPages.slice(piece.first, piece.end);
    // links are copied by hand: the copier would follow their destinations into every page
    const annots = kept.map((p) => {
      const a = p.node.lookupMaybe(N('Annots'), PDFArray);
      p.node.delete(N('Annots'));
      return a ? a.asArray() : [];
    });
    const copies = await out.copyPages(src, kept.map((_, i) => piece.first + i));
    outPages[k] = [];
    heights[k] = [];
    copies.forEach((p, i) => {
      out.addPage(p);
      outPages[k][piece.first + i] = p.ref;
      heights[k][piece.first + i] = p.getHeight();
    });
    const placeOf = (dest: PDFObject | undefined): Omit<PendingDest, 'annot'> | null => {
      const arr = dest instanceof PDFRef ? src.context.lookup(dest) : dest;
      if (!(arr instanceof PDFArray) || arr.size() < 2) return null;
      const i = index.get(String(arr.get(0)));
      const num = (j: number) => (arr.size() > j ? (arr.lookup(j) as PDFNumber | undefined)?.asNumber?.() ?? 0 : 0);
      if (i === undefined) return null;
      const x = num(2);
      const y = srcPages[i].getHeight() - num(3);
      if (i >= piece.end) {
        const at = (i - piece.end) * TARGETS_PER_PAGE + Math.round(x / TARGET_STEP);
        const label = piece.foreign[at];
        return label === undefined ? null : { label, piece: k, page: 0, x: 0, y: 0 };
      }
      if (i < piece.first) return null;
      return { piece: k, page: i + 1, x, y };
    };
    // old annotation ref → new, for the structure tree's object references
    const annotMap = new Map<string, PDFRef>();
    copies.forEach((page, i) => {
      const refs: PDFRef[] = [];
      for (const ref of annots[i]) {
        const a = src.context.lookup(ref);
        if (!(a instanceof PDFDict)) continue;
        const d = out.context.obj({}) as PDFDict;
        for (const [key, v] of a.entries()) {
          if (key === N('Dest') || key === N('P') || key === N('StructParent')) continue;
          d.set(key, plain(src, out, v));
        }
        d.set(N('P'), page.ref);
        const r = out.context.register(d);
        if (a.has(N('Dest'))) {
          const place = placeOf(a.get(N('Dest')));
          if (place) pending.push({ annot: d, ...place });
        }
        if (ref instanceof PDFRef) annotMap.set(ref.toString(), r);
        refs.push(r);
      }
      if (refs.length) page.node.set(N('Annots'), out.context.obj(refs));
      page.node.delete(N('StructParents'));
    });

    // outline: the piece's items in reading order, nested again by their headings' levels
    const items: { title: string; depth: number; dest: PDFObject | undefined }[] = [];
    const walk = (ref: PDFObject | undefined, depth: number) => {
      for (let cur = ref; cur instanceof PDFRef; ) {
        const it = src.context.lookup(cur, PDFDict);
        items.push({ title: text(it.lookup(N('Title'))), depth, dest: it.get(N('Dest')) });
        walk(it.get(N('First')), depth + 1);
        cur = it.get(N('Next'));
      }
    };
    walk(src.catalog.lookupMaybe(N('Outlines'), PDFDict)?.get(N('First')), 0);
    const levels = items.length === piece.levels.length ? piece.levels : items.map((it) => it.depth + 1);
    items.forEach((it, i) => {
      const place = placeOf(it.dest);
      if (!place || place.label) return;
      outline.push({ title: it.title, level: levels[i], dest: destArray(out, outPages[k][place.page - 1], place.x, heights[k][place.page - 1] - place.y) });
    });

    // structure tree
    const root = src.catalog.lookupMaybe(N('StructTreeRoot'), PDFDict);
    if (root) {
      const rm = root.lookupMaybe(N('RoleMap'), PDFDict);
      for (const [key, v] of rm?.entries() ?? []) roleMap.set(key, plain(src, out, v));
      // per kept page: its new parent-tree key and the element of each MCID
      const pageKeys = new Map<string, { key: number; mcids: PDFRef[] }>();
      const pageEntry = (pg: PDFObject | undefined) => {
        const i = pg ? index.get(pg.toString()) : undefined;
        if (i === undefined || i < piece.first || i >= piece.end) return null;
        const ref = outPages[k][i];
        let e = pageKeys.get(ref.toString());
        if (!e) {
          e = { key: nextKey++, mcids: [] };
          pageKeys.set(ref.toString(), e);
          out.context.lookup(ref, PDFDict).set(N('StructParents'), PDFNumber.of(e.key));
        }
        return { ref, e };
      };
      const copyElement = (ref: PDFRef, parent: PDFRef, inheritedPg: PDFObject | undefined): PDFRef | null => {
        const el = src.context.lookup(ref, PDFDict);
        const d = out.context.obj({}) as PDFDict;
        const r = out.context.register(d);
        for (const key of ELEMENT_KEYS) if (el.has(N(key))) d.set(N(key), plain(src, out, el.get(N(key))!));
        d.set(N('P'), parent);
        const pg = el.get(N('Pg')) ?? inheritedPg;
        const own = pageEntry(pg);
        if (own && el.has(N('Pg'))) d.set(N('Pg'), own.ref);
        const kidsIn = el.get(N('K'));
        const list = kidsIn instanceof PDFArray ? kidsIn.asArray() : kidsIn ? [kidsIn] : [];
        const kids: PDFObject[] = [];
        for (const kid of list) {
          if (kid instanceof PDFNumber) {
            if (!own) continue;
            own.e.mcids[kid.asNumber()] = r;
            if (!d.has(N('Pg'))) d.set(N('Pg'), own.ref);
            kids.push(kid);
            continue;
          }
          const o = kid instanceof PDFRef ? src.context.lookup(kid) : kid;
          if (!(o instanceof PDFDict)) continue;
          const type = o.lookup(N('Type'));
          if (type === N('MCR')) {
            const at = pageEntry(o.get(N('Pg')) ?? pg);
            if (!at) continue;
            const mcid = (o.lookup(N('MCID')) as PDFNumber).asNumber();
            at.e.mcids[mcid] = r;
            kids.push(out.context.obj({ Type: 'MCR', Pg: at.ref, MCID: mcid }));
          } else if (type === N('OBJR')) {
            const obj = o.get(N('Obj'));
            const mapped = obj ? annotMap.get(obj.toString()) : undefined;
            if (!mapped) continue;
            const key = nextKey++;
            out.context.lookup(mapped, PDFDict).set(N('StructParent'), PDFNumber.of(key));
            parentTree.push([key, r]);
            const page = out.context.lookup(mapped, PDFDict).get(N('P'));
            kids.push(out.context.obj({ Type: 'OBJR', Obj: mapped, ...(page ? { Pg: page } : {}) }));
          } else if (kid instanceof PDFRef) {
            const c = copyElement(kid, r, pg);
            if (c) kids.push(c);
          }
        }
        // an element whose content was all on dropped pages (stand-ins, placeholders) goes with them
        if (list.length && !kids.length) {
          out.context.delete(r);
          return null;
        }
        if (kids.length) d.set(N('K'), out.context.obj(kids));
        const id = el.lookup(N('ID'));
        if (id instanceof PDFString || id instanceof PDFHexString) {
          // IDs must be unique in the document: each piece numbers its notes from 1
          let name = id.decodeText();
          for (let n = 2; ids.has(name); n++) name = `${id.decodeText()} (${n})`;
          ids.set(name, r);
          d.set(N('ID'), PDFHexString.fromText(name));
        }
        return r;
      };
      const top = root.get(N('K'));
      for (const t of top instanceof PDFArray ? top.asArray() : top ? [top] : []) {
        if (!(t instanceof PDFRef)) continue;
        const el = src.context.lookup(t, PDFDict);
        if (el.lookup(N('S')) === N('Document')) {
          if (!first) for (const key of ELEMENT_KEYS) if (el.has(N(key)) && key !== 'S') docElement.set(N(key), plain(src, out, el.get(N(key))!));
          const kidsIn = el.get(N('K'));
          for (const kid of kidsIn instanceof PDFArray ? kidsIn.asArray() : kidsIn ? [kidsIn] : []) {
            if (!(kid instanceof PDFRef)) continue;
            const c = copyElement(kid, docRef, el.get(N('Pg')));
            if (c) docKids.push(c);
          }
        } else {
          const c = copyElement(t, docRef, undefined);
          if (c) docKids.push(c);
        }
      }
      for (const e of pageKeys.values()) parentTree.push([e.key, out.context.obj(e.mcids.map((m) => m ?? PDFNull))]);
    }
    if (!first) first = src;
  }

  // links to placeholders: to the place of their label
  for (const p of pending) {
    const place = p.label ? targets.get(p.label) : p;
    const ref = place ? outPages[place.piece]?.[place.page - 1] : undefined;
    if (!place || !ref) {
      p.annot.delete(N('Dest'));
      continue;
    }
    p.annot.set(N('Dest'), destArray(out, ref, place.x, heights[place.piece][place.page - 1] - place.y));
  }

  writeOutline(out, outline);

  docElement.set(N('K'), out.context.obj(docKids));
  if (docKids.length) {
    const nums: PDFObject[] = [];
    for (const [key, v] of parentTree.sort((a, b) => a[0] - b[0])) nums.push(PDFNumber.of(key), v);
    const names: PDFObject[] = [];
    for (const name of [...ids.keys()].sort()) names.push(PDFHexString.fromText(name), ids.get(name)!);
    const root = out.context.obj({
      Type: 'StructTreeRoot',
      K: out.context.obj([docRef]),
      ParentTree: out.context.obj({ Nums: out.context.obj(nums) }),
      ParentTreeNextKey: nextKey,
      ...(roleMap.entries().length ? { RoleMap: roleMap } : {}),
      ...(names.length ? { IDTree: out.context.obj({ Names: out.context.obj(names) }) } : {}),
    });
    out.catalog.set(N('StructTreeRoot'), out.context.register(root));
  }
  if (first) {
    for (const key of ['Lang', 'MarkInfo', 'ViewerPreferences']) {
      const v = first.catalog.get(N(key));
      if (v) out.catalog.set(N(key), plain(first, out, v));
    }
    const meta = first.catalog.lookup(N('Metadata'));
    if (meta instanceof PDFRawStream) {
      // the XMP tells the page count: the whole book's, not the front's
      const xml = Buffer.from(decodePDFRawStream(meta).decode())
        .toString('utf8')
        .replace(/<xmpTPg:NPages>\d+<\/xmpTPg:NPages>/, `<xmpTPg:NPages>${out.getPageCount()}</xmpTPg:NPages>`);
      out.catalog.set(N('Metadata'), out.context.register(out.context.stream(xml, { Type: 'Metadata', Subtype: 'XML' })));
    }
    const info = first.context.trailerInfo.Info;
    if (info) out.context.trailerInfo.Info = out.context.register(plain(first, out, info));
  }
  return out.save({ objectsPerTick: Infinity });
}

function destArray(out: PDFDocument, page: PDFRef, x: number, y: number): PDFArray {
  return out.context.obj([page, N('XYZ'), PDFNumber.of(round(x)), PDFNumber.of(round(y)), PDFNumber.of(0)]);
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** The outline as nested items (a heading under the nearest earlier one of a lower level), all open. */
function writeOutline(out: PDFDocument, items: OutlineItem[]): void {
  if (!items.length) return;
  const rootRef = out.context.nextRef();
  type Node = { ref: PDFRef; dict: PDFDict; kids: Node[]; level: number };
  const top: Node = { ref: rootRef, dict: out.context.obj({ Type: 'Outlines' }) as PDFDict, kids: [], level: 0 };
  const stack: Node[] = [top];
  for (const it of items) {
    while (stack.length > 1 && stack[stack.length - 1].level >= it.level) stack.pop();
    const parent = stack[stack.length - 1];
    const dict = out.context.obj({ Title: PDFHexString.fromText(it.title), Parent: parent.ref, Dest: it.dest }) as PDFDict;
    const node: Node = { ref: out.context.register(dict), dict, kids: [], level: it.level };
    parent.kids.push(node);
    stack.push(node);
  }
  const link = (n: Node): number => {
    let count = 0;
    n.kids.forEach((c, i) => {
      if (i > 0) c.dict.set(N('Prev'), n.kids[i - 1].ref);
      if (i + 1 < n.kids.length) c.dict.set(N('Next'), n.kids[i + 1].ref);
      count += 1 + link(c);
    });
    if (n.kids.length) {
      n.dict.set(N('First'), n.kids[0].ref);
      n.dict.set(N('Last'), n.kids[n.kids.length - 1].ref);
      n.dict.set(N('Count'), PDFNumber.of(count));
    }
    return count;
  };
  link(top);
  out.context.assign(rootRef, top.dict);
  out.catalog.set(N('Outlines'), rootRef);
}
