import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFullText } from '../../api/hooks';
import { markWords } from './highlight';

interface TocItem {
  id: string;
  level: number;
  text: string;
}

/** The table of contents from the headings (with ids) of a text that has no table-of-contents block. */
function tocFromHeadings(doc: Document): TocItem[] {
  return Array.from(doc.querySelectorAll<HTMLElement>('h1[id],h2[id],h3[id],h4[id],h5[id],h6[id]')).map((h) => {
    const clone = h.cloneNode(true) as HTMLElement;
    clone.querySelectorAll('a.footnote, sup').forEach((n) => n.remove());
    return { id: h.id, level: Number(h.tagName.slice(1)), text: (clone.textContent ?? '').trim() };
  }).filter((i) => i.text !== '');
}

/**
 * Splits the server's full text (Text::Amuse's layout: `div.table-of-contents`, then `div#thework`) into
 * its table of contents, laid out here as a navigation, and the text. A hidden block (#notoc) means no
 * table of contents.
 */
export function splitFullText(html: string): { toc: TocItem[]; body: string } {
  if (typeof DOMParser === 'undefined') return { toc: [], body: html };
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const block = doc.body.querySelector<HTMLElement>('div.table-of-contents');
  if (!block) return { toc: tocFromHeadings(doc), body: doc.body.innerHTML };
  const toc = block.style.display === 'none' ? [] : Array.from(block.querySelectorAll('p.tableofcontentline')).flatMap((p) => {
    const a = p.querySelector('a[href^="#"]');
    const level = Number(/toclevel(\d+)/.exec(p.className)?.[1] ?? 1);
    const text = (a?.textContent ?? '').trim();
    return a && text ? [{ id: a.getAttribute('href')!.slice(1), level, text }] : [];
  });
  block.remove();
  return { toc, body: doc.body.innerHTML };
}

/**
 * The full text of a data source; mounted on the first toggle and kept (hidden) afterwards. `highlight`:
 * folded words to mark (from a search snippet); the first is scrolled into view.
 */
export function FullText({ dataSourceId, id, hidden, highlight }: { dataSourceId: number; id: string; hidden: boolean; highlight?: Set<string> }) {
  const { t } = useTranslation();
  const { data, isPending, error } = useFullText(dataSourceId, true);
  const tocId = useId();
  const { toc, body } = useMemo(() => (data ? splitFullText(data.html) : { toc: [], body: '' }), [data]);
  const minLevel = toc.reduce((m, i) => Math.min(m, i.level), 6);
  const articleRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!articleRef.current || !highlight) return;
    const first = markWords(articleRef.current, highlight);
    first?.scrollIntoView?.({ block: 'center' });
  }, [body, highlight]);
  return (
    <div id={id} hidden={hidden} className="mt-4 border-t border-stone-300 pt-4">
      {isPending && <p role="status">{t('Loading the full text...')}</p>}
      {error && <p className="text-red-800">{t('The full text could not be loaded.')}</p>}
      {data && (
        <div className={toc.length ? 'grid gap-6 md:grid-cols-[15rem_minmax(0,1fr)]' : ''}>
          {toc.length > 0 && (
            <nav aria-labelledby={tocId} className="md:sticky md:top-4 md:max-h-[90vh] md:self-start md:overflow-y-auto">
              <h4 id={tocId} className="mb-2 font-semibold">
                {t('Table of contents')}
              </h4>
              <ul className="space-y-1 text-sm">
                {toc.map((i) => (
                  <li key={i.id} style={{ paddingLeft: `${(i.level - minLevel) * 0.75}rem` }}>
                    <a className="link" href={`#${i.id}`}>
                      {i.text}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {/* Server-rendered and sanitised HTML of the text. */}
          <article ref={articleRef} className="fulltext max-w-prose font-serif" dangerouslySetInnerHTML={{ __html: body }} />
        </div>
      )}
    </div>
  );
}
