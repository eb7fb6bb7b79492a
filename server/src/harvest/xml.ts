// XML read with a strict, namespace-aware parser (saxes) into a small element tree. Documents that
// declare a DOCTYPE are refused: OAI-PMH, MARCXML, Dublin Core and OPF never need one, and refusing it
// shuts out entity-expansion bombs and external entities before any expansion can happen.
import { SaxesParser } from 'saxes';
import { ReportError } from './report.ts';

export interface XmlElement {
  /** Local name (no prefix). */
  name: string;
  /** Namespace URI ('' when none). */
  ns: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Character data directly inside this element (text and CDATA, concatenated). */
  text: string;
}

export class XmlError extends ReportError {}

/** Most elements in one document: a guard against pathological inputs, far above a page of 1,000 MARC records. */
const MAX_ELEMENTS = 5_000_000;

export function parseXml(input: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const root: XmlElement = { name: '#document', ns: '', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let count = 0;
  let failure: Error | null = null;
  parser.on('doctype', () => {
    throw new XmlError('The document declares a DOCTYPE, which is refused (entity declarations are not expanded)');
  });
  parser.on('opentag', (tag) => {
    if (++count > MAX_ELEMENTS) throw new XmlError('The document has too many elements');
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) {
      if (typeof a === 'string') continue;
      if (a.prefix === 'xmlns' || a.name === 'xmlns') continue;
      attrs[a.local] = a.value;
    }
    const el: XmlElement = { name: tag.local ?? tag.name, ns: tag.uri ?? '', attrs, children: [], text: '' };
    stack[stack.length - 1].children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (t: string) => {
    if (stack.length > 1) stack[stack.length - 1].text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('error', (e) => {
    failure ??= e;
  });
  try {
    parser.write(input).close();
  } catch (e) {
    failure = e as Error;
  }
  if (failure) {
    const msg = (failure as Error).message;
    throw failure instanceof XmlError ? failure : new XmlError('The document is not well-formed XML: {{detail}}', { detail: msg });
  }
  const top = root.children[0];
  if (!top) throw new XmlError('The document is empty');
  return top;
}

/** The first child element with this local name (any namespace). */
export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** Every child element with this local name. */
export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** The trimmed text of an element ('' when absent). */
export function textOf(el: XmlElement | undefined): string {
  return el ? el.text.trim() : '';
}

/** The trimmed text of the first child with this name. */
export function childText(el: XmlElement | undefined, name: string): string {
  return textOf(child(el, name));
}
