// Every string the interface passes to t() must exist in all six languages: a key missing from a
// bundle shows in English (or as its raw key) to everyone reading that language.
import { describe, expect, it } from 'vitest';
import { AGGREGATE_SPECIAL, DOWNLOAD_FORMAT_LABELS, DOWNLOAD_TYPES, TRANSLATE_VALUES, UI_LANGUAGES } from '../lib/shared';
import { PAPER_SIZES } from '../../../packages/shared/src/bookbuilder-constants';
import { DASHBOARD_LINKS } from '../features/account/UserMenu';
import { BOXES } from '../features/curation/boxes';
import { loadBundle } from './index';

const bundles = Object.fromEntries(await Promise.all(UI_LANGUAGES.map(async (l) => [l, await loadBundle(l)] as const)));

// The app's source, tests left out (they may call t() with made-up keys).
const sources = Object.entries(
  import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**'], { query: '?raw', import: 'default', eager: true }),
);

/** The JavaScript value of a quoted literal's body ('…', "…" or `…` without ${}). */
function unquote(body: string): string {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|.)/g, (_, c: string) =>
    c.startsWith('u') && c.length > 1 ? String.fromCodePoint(parseInt(c.replace(/[u{}]/g, ''), 16)) : c === 'n' ? '\n' : c,
  );
}

interface Use { key: string; where: string; plural: boolean }

/** t('literal') and t('literal', { count }) calls (also i18n.t). */
function literalCalls(): Use[] {
  const out: Use[] = [];
  const call = /\bt\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.)*)`)\s*([,)])/g;
  for (const [file, text] of sources) {
    for (const m of text.matchAll(call)) {
      const key = unquote(m[1] ?? m[2] ?? m[3]);
      // Plural forms are looked up as key_one, key_other…: the options object names `count`.
      const rest = m[4] === ',' ? text.slice(m.index! + m[0].length, m.index! + m[0].length + 200) : '';
      out.push({ key, where: file, plural: /^\s*\{[^}]*\bcount\b/.test(rest) });
    }
  }
  return out;
}

/**
 * Label tables translated where shown (t(LABELS[x])): the values of module-level object literals
 * whose name ends in LABELS, TITLES or EXPLAINED.
 */
function labelTables(): Use[] {
  const out: Use[] = [];
  const decl = /^(?:export )?const ([A-Z_]*(?:LABELS|TITLES|EXPLAINED))\b[^=\n]*=\s*\{/gm;
  for (const [file, text] of sources) {
    for (const m of text.matchAll(decl)) {
      const start = m.index! + m[0].length;
      // A one-line table ends at its first '}', a longer one at the '}' that starts a line.
      const line = text.slice(start, text.indexOf('\n', start));
      const body = line.includes('}') ? line.slice(0, line.indexOf('}')) : text.slice(start, text.indexOf('\n}', start));
      for (const v of body.matchAll(/:\s*'((?:[^'\\\n]|\\.)*)'/g)) out.push({ key: unquote(v[1]), where: `${file} ${m[1]}`, plural: false });
    }
  }
  return out;
}

/** Tables of objects whose label fields reach t(). */
function configLabels(): Use[] {
  const out: Use[] = [];
  for (const [, label] of DASHBOARD_LINKS) out.push({ key: label, where: 'DASHBOARD_LINKS', plural: false });
  for (const b of Object.values(BOXES)) {
    for (const key of [b.title, b.menuLabel, b.action, b.canonicalLabel, b.listLabel, b.create?.label]) {
      if (key) out.push({ key, where: `BOXES ${b.kind}`, plural: false });
    }
  }
  const shared = { DOWNLOAD_FORMAT_LABELS, DOWNLOAD_TYPES, AGGREGATE_SPECIAL, TRANSLATE_VALUES };
  for (const [name, table] of Object.entries(shared)) for (const key of Object.values(table)) out.push({ key, where: name, plural: false });
  for (const p of PAPER_SIZES) out.push({ key: p.label, where: 'PAPER_SIZES', plural: false });
  return out;
}

function missing(uses: Use[]): string[] {
  const gaps = new Set<string>();
  for (const { key, where, plural } of uses) {
    for (const lang of UI_LANGUAGES) {
      const b = bundles[lang];
      if (plural) {
        for (const cat of new Intl.PluralRules(lang).resolvedOptions().pluralCategories) {
          if (!b[`${key}_${cat}`] && !b[key]) gaps.add(`${lang}: ${JSON.stringify(`${key}_${cat}`)} (${where})`);
        }
      } else if (!b[key] && !b[`${key}_other`]) {
        gaps.add(`${lang}: ${JSON.stringify(key)} (${where})`);
      }
    }
  }
  return [...gaps].sort();
}

describe('translation keys used in the interface', () => {
  it('finds the t() calls of the source (the scan works)', () => {
    const keys = new Set(literalCalls().map((u) => u.key));
    expect(keys.size).toBeGreaterThan(300);
    expect(keys).toContain('Loading...');
    expect(keys).toContain('Reload the page');
    expect(labelTables().map((u) => u.key)).toContain('Digital library');
    expect(literalCalls().some((u) => u.plural && u.key === 'search_results')).toBe(true);
  });

  it('reports a string absent from any bundle, English included, and each missing plural form', () => {
    const gaps = missing([{ key: 'A string nobody translated', where: 'X.tsx', plural: false }]);
    expect(gaps).toHaveLength(6);
    expect(gaps).toContain('en: "A string nobody translated" (X.tsx)');
    // Croatian has three plural forms, English two.
    expect(missing([{ key: 'no_such_plural', where: 'X.tsx', plural: true }])).toEqual(
      expect.arrayContaining(['hr: "no_such_plural_few" (X.tsx)', 'en: "no_such_plural_one" (X.tsx)']),
    );
    expect(missing([{ key: 'search_results', where: 'X.tsx', plural: true }])).toEqual([]);
  });

  it('has every literal t() key in all six languages, with every plural form of the language', () => {
    expect(missing(literalCalls())).toEqual([]);
  });

  it('has every label of the label tables in all six languages', () => {
    expect(missing([...labelTables(), ...configLabels()])).toEqual([]);
  });
});
