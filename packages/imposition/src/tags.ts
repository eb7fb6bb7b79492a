// What a tagged book PDF (Typst writes PDF/UA-style tags) keeps through imposition: the structure
// tree, language, MarkInfo, viewer preferences and outline. Each book page becomes one form XObject
// drawn once on a sheet side, and its marked content (MCIDs) goes with it, so the book's structure
// elements point into those forms: integer kids become marked-content references with /Pg (the sheet)
// and /Stm (the form), each form gets /StructParents, and the parent tree is rebuilt from the copy
// (PDF 1.7 §14.7.4). Reading the tree gives the book in its own order whatever the sheets' order.
// Link annotations are not carried (the sheets are for printing), so their object references are dropped.
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';

/** Where a book page went: the sheet side's page, its form XObject, and the matrix from book page to sheet. */
export interface PlacedPage {
  sheet: PDFRef;
  form: PDFRef;
  matrix: [number, number, number, number, number, number];
}

const N = (s: string) => PDFName.of(s);
/** Entries of a structure element copied as they are (PDF 1.7 table 323); P, K and Pg are rebuilt. */
const ELEMENT_KEYS = ['S', 'T', 'Lang', 'Alt', 'E', 'ActualText', 'A', 'C', 'R', 'ID'];

/** Copies direct values (names, strings, numbers, attribute dictionaries) into the output; refs are resolved first. */
export function plain(src: PDFDocument, out: PDFDocument, v: PDFObject): PDFObject {
  const o = v instanceof PDFRef ? src.context.lookup(v) : v;
  if (o instanceof PDFDict) {
    const d = out.context.obj({});
    for (const [k, x] of o.entries()) d.set(k, plain(src, out, x));
    return d;
  }
  if (o instanceof PDFArray) return out.context.obj(o.asArray().map((x) => plain(src, out, x)));
  return o ?? PDFNull;
}

/** Sets the book's structure tree on the imposed document; false when the book has none. */
function carryStructure(src: PDFDocument, out: PDFDocument, placed: (PlacedPage | undefined)[]): boolean {
  const root = src.catalog.lookupMaybe(N('StructTreeRoot'), PDFDict);
  if (!root) return false;
  const pageIndex = new Map(src.getPages().map((p, i) => [p.ref.toString(), i]));
  // per book page (= form), the element owning each MCID
  const parents: PDFRef[][] = placed.map(() => []);
  const ids: [string, PDFRef][] = [];

  const mcr = (pg: PDFObject | undefined, mcid: number, owner: PDFRef): PDFDict | null => {
    const i = pg instanceof PDFRef ? pageIndex.get(pg.toString()) : undefined;
    const p = i === undefined ? undefined : placed[i];
    if (!p || i === undefined) return null;
    parents[i][mcid] = owner;
    return out.context.obj({ Type: 'MCR', Pg: p.sheet, Stm: p.form, MCID: mcid });
  };

  const copyElement = (d: PDFDict, parent: PDFRef, inheritedPg: PDFObject | undefined): PDFRef => {
    const ref = out.context.nextRef();
    const copy = out.context.obj({ Type: 'StructElem', P: parent });
    for (const k of ELEMENT_KEYS) {
      const v = d.get(N(k));
      if (v !== undefined) copy.set(N(k), plain(src, out, v));
    }
    const id = d.lookup(N('ID'));
    if (id instanceof PDFString || id instanceof PDFHexString) ids.push([id.decodeText(), ref]);
    const pg = d.get(N('Pg')) ?? inheritedPg;
    const raw = d.get(N('K'));
    const kids: PDFObject[] = [];
    const visit = (k: PDFObject) => {
      if (k instanceof PDFNumber) {
        const m = mcr(pg, k.asNumber(), ref);
        if (m) kids.push(m);
        return;
      }
      const o = k instanceof PDFRef ? src.context.lookup(k) : k;
      if (!(o instanceof PDFDict)) return;
      const type = o.lookup(N('Type'));
      if (type === N('MCR')) {
        // marked content inside a form of the book's own page cannot be placed again: left out
        if (o.has(N('Stm'))) return;
        const mcid = o.lookup(N('MCID'));
        const m = mcid instanceof PDFNumber ? mcr(o.get(N('Pg')) ?? pg, mcid.asNumber(), ref) : null;
        if (m) kids.push(m);
      } else if (type !== N('OBJR')) {
        kids.push(copyElement(o, ref, pg));
      }
    };
    if (raw instanceof PDFArray) raw.asArray().forEach(visit);
    else if (raw !== undefined) visit(raw);
    if (kids.length) copy.set(N('K'), out.context.obj(kids));
    out.context.assign(ref, copy);
    return ref;
  };

  const rootRef = out.context.nextRef();
  const top = root.get(N('K'));
  const kids: PDFRef[] = [];
  for (const k of top instanceof PDFArray ? top.asArray() : top ? [top] : []) {
    const d = k instanceof PDFRef ? src.context.lookup(k) : k;
    if (d instanceof PDFDict) kids.push(copyElement(d, rootRef, undefined));
  }
  const nums: PDFObject[] = [];
  placed.forEach((p, i) => {
    if (!p) return;
    const form = out.context.lookup(p.form);
    const dict = form && 'dict' in form ? (form as { dict: PDFDict }).dict : null;
    if (!dict) return;
    dict.set(N('StructParents'), PDFNumber.of(i));
    const owners = parents[i];
    nums.push(PDFNumber.of(i), out.context.obj(Array.from({ length: owners.length }, (_, m) => owners[m] ?? PDFNull)));
  });
  const tree = out.context.obj({
    Type: 'StructTreeRoot',
    K: kids,
    ParentTree: out.context.obj({ Nums: nums }),
    ParentTreeNextKey: placed.length,
  });
  for (const k of ['RoleMap', 'ClassMap']) {
    const v = root.get(N(k));
    if (v) tree.set(N(k), plain(src, out, v));
  }
  if (ids.length) {
    // a name tree's keys in byte order
    ids.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    tree.set(N('IDTree'), out.context.obj({ Names: ids.flatMap(([id, r]) => [PDFHexString.fromText(id), r]) }));
  }
  out.context.assign(rootRef, tree);
  out.catalog.set(N('StructTreeRoot'), rootRef);
  return true;
}

/** The destination of a book outline item on the sheets: the sheet side holding the page, the point moved with it. */
function sheetDest(src: PDFDocument, out: PDFDocument, dest: PDFObject | undefined, pageIndex: Map<string, number>, placed: (PlacedPage | undefined)[]): PDFArray | null {
  const d = dest instanceof PDFRef ? src.context.lookup(dest) : dest;
  if (!(d instanceof PDFArray) || d.size() < 2) return null;
  const page = d.get(0);
  const p = page instanceof PDFRef ? placed[pageIndex.get(page.toString()) ?? -1] : undefined;
  if (!p) return null;
  const kind = d.lookup(1);
  if (kind === N('XYZ')) {
    const num = (i: number) => {
      const v = d.lookup(i);
      return v instanceof PDFNumber ? v.asNumber() : null;
    };
    const [left, top, zoom] = [num(2), num(3), num(4)];
    const [a, b, c, dd, e, f] = p.matrix;
    // the book page's point on the sheet; an unset coordinate stays unset
    const x = left === null || top === null ? null : a * left + c * top + e;
    const y = left === null || top === null ? null : b * left + dd * top + f;
    return out.context.obj([p.sheet, N('XYZ'), x ?? PDFNull, y ?? PDFNull, zoom ?? PDFNull]);
  }
  return out.context.obj([p.sheet, N('Fit')]);
}

/** Copies the outline (titles, nesting, open state, style), each item pointing at its sheet side. */
function carryOutline(src: PDFDocument, out: PDFDocument, placed: (PlacedPage | undefined)[]): void {
  const outlines = src.catalog.lookupMaybe(N('Outlines'), PDFDict);
  if (!outlines) return;
  const pageIndex = new Map(src.getPages().map((p, i) => [p.ref.toString(), i]));
  const copyLevel = (first: PDFObject | undefined, parent: PDFRef): PDFRef[] => {
    const refs: PDFRef[] = [];
    const items: PDFDict[] = [];
    let cur = first instanceof PDFRef ? src.context.lookup(first) : undefined;
    for (let guard = 0; cur instanceof PDFDict && guard < 100_000; guard++) {
      const ref = out.context.nextRef();
      const item = out.context.obj({ Parent: parent });
      for (const k of ['Title', 'C', 'F']) {
        const v = cur.get(N(k));
        if (v) item.set(N(k), plain(src, out, v));
      }
      const action = cur.lookupMaybe(N('A'), PDFDict);
      const dest = sheetDest(src, out, cur.get(N('Dest')) ?? action?.get(N('D')), pageIndex, placed);
      if (dest) item.set(N('Dest'), dest);
      const kids = copyLevel(cur.get(N('First')), ref);
      if (kids.length) {
        item.set(N('First'), kids[0]);
        item.set(N('Last'), kids[kids.length - 1]);
        const count = cur.lookup(N('Count'));
        item.set(N('Count'), count instanceof PDFNumber ? count : PDFNumber.of(kids.length));
      }
      refs.push(ref);
      items.push(item);
      const next = cur.get(N('Next'));
      cur = next instanceof PDFRef ? src.context.lookup(next) : undefined;
    }
    items.forEach((item, i) => {
      if (i > 0) item.set(N('Prev'), refs[i - 1]);
      if (i < items.length - 1) item.set(N('Next'), refs[i + 1]);
      out.context.assign(refs[i], item);
    });
    return refs;
  };
  const rootRef = out.context.nextRef();
  const top = copyLevel(outlines.get(N('First')), rootRef);
  if (!top.length) return;
  const count = outlines.lookup(N('Count'));
  out.context.assign(rootRef, out.context.obj({ Type: 'Outlines', First: top[0], Last: top[top.length - 1], Count: count instanceof PDFNumber ? count : PDFNumber.of(top.length) }));
  out.catalog.set(N('Outlines'), rootRef);
}

/**
 * Carries the book's tags onto the imposed sheets: structure tree, MarkInfo, Lang, viewer
 * preferences (reading direction) and outline. Call after `out.flush()` (the forms must exist).
 */
export function carryTags(src: PDFDocument, out: PDFDocument, placed: (PlacedPage | undefined)[]): void {
  if (carryStructure(src, out, placed)) out.catalog.set(N('MarkInfo'), out.context.obj({ Marked: true }));
  for (const k of ['Lang', 'ViewerPreferences']) {
    const v = src.catalog.get(N(k));
    if (v) out.catalog.set(N(k), plain(src, out, v));
  }
  carryOutline(src, out, placed);
}
