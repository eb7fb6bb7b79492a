// Linked-data card of an author from Wikidata's action API (wbgetentities): label, description,
// Wikipedia link and a fixed list of statements with their values rendered as text. Cards are cached
// in the database (wikidata_cache) for WIKIDATA_CACHE_SECONDS; a failed fetch serves the stale card when
// there is one, else a card with `error` so the author page still works.
import type { WikidataCard, WikidataStatement } from '@uc/shared';
import type { Db } from '../db/index.ts';

/** Statements shown, in this order (as the prior product). */
export const WIKIDATA_PROPERTIES = [
  'P18', 'P109', 'P1559', 'P154', 'P1476', 'P856', 'P159', 'P735', 'P5056', 'P734', 'P800', 'P495', 'P19', 'P569',
  'P571', 'P577', 'P20', 'P570', 'P1196', 'P509', 'P3999', 'P576', 'P214', 'P485', 'P112', 'P407', 'P1412',
] as const;

export const WIKIDATA_UNREACHABLE = 'Wikidata cannot be reached right now. Please try again later.';
export const WIKIDATA_MISSING = 'Wikidata does not know this identifier.';

const USER_AGENT = 'UnionCatalogue/1.0 (library union catalogue; author cards)';
/** At most this many values per statement, and ids per wbgetentities call (the API's limit). */
const MAX_VALUES = 20;
const IDS_PER_CALL = 50;
/** After a failure, Wikidata is not asked again for this long (each attempt would wait for the timeout). */
const FAILURE_BACKOFF_MS = 60_000;

/** A link the UI may render: http(s) and no whitespace (also checked by the UI). */
export function safeLink(value: string): string | null {
  return /^https?:\/\/[^\s<>"]+$/i.test(value) ? value : null;
}

export interface WikidataSettings {
  wikidataUrl: string;
  wikidataTimeoutMs: number;
  wikidataCacheSeconds: number;
}

interface Snak { snaktype?: string; property?: string; datatype?: string; datavalue?: { type?: string; value?: unknown } }
interface Claim { mainsnak?: Snak; rank?: string }
interface Entity {
  id?: string;
  missing?: string;
  labels?: Record<string, { value?: string }>;
  descriptions?: Record<string, { value?: string }>;
  claims?: Record<string, Claim[]>;
  sitelinks?: Record<string, { url?: string; title?: string }>;
}

class FetchFailed extends Error {}

export class WikidataService {
  private q;
  private inFlight = new Map<string, Promise<WikidataCard>>();
  private failedAt = 0;

  constructor(db: Db, private settings: WikidataSettings, private now: () => number = Date.now) {
    const s = db.sqlite;
    this.q = {
      get: s.prepare('SELECT card, fetched_at FROM wikidata_cache WHERE wikidata_id = ? AND language = ?'),
      put: s.prepare(`INSERT INTO wikidata_cache (wikidata_id, language, card, fetched_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (wikidata_id, language) DO UPDATE SET card = excluded.card, fetched_at = excluded.fetched_at`),
    };
  }

  /** The card of a Wikidata item (Q-id) in a language (labels fall back to English). */
  async card(wikidataId: string | null, language: string): Promise<WikidataCard> {
    if (!wikidataId) return { wikidata_id: null, name: null, desc: null, link: null, statements: [] };
    const cached = this.q.get.get(wikidataId, language) as { card: string; fetched_at: number } | undefined;
    if (cached && this.now() - cached.fetched_at < this.settings.wikidataCacheSeconds * 1000) return JSON.parse(cached.card) as WikidataCard;
    const key = `${wikidataId}|${language}`;
    let p = this.inFlight.get(key);
    if (!p) {
      p = this.refresh(wikidataId, language, cached?.card ?? null).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, p);
    }
    return p;
  }

  private async refresh(qid: string, language: string, stale: string | null): Promise<WikidataCard> {
    try {
      if (this.now() - this.failedAt < FAILURE_BACKOFF_MS) throw new FetchFailed('recently failed');
      const card = await this.build(qid, language);
      this.q.put.run(qid, language, JSON.stringify(card), this.now());
      return card;
    } catch (err) {
      if (!(err instanceof FetchFailed)) throw err;
      this.failedAt = this.now();
      // An old card is better than none.
      if (stale) return JSON.parse(stale) as WikidataCard;
      return { wikidata_id: qid, name: null, desc: null, link: `https://www.wikidata.org/wiki/${qid}`, statements: [], error: WIKIDATA_UNREACHABLE };
    }
  }

  private async build(qid: string, language: string): Promise<WikidataCard> {
    const langs = [...new Set([language, 'en'])];
    const entity = (await this.entities([qid], 'labels|descriptions|claims|sitelinks/urls', langs))[qid];
    if (!entity || entity.missing !== undefined) {
      return { wikidata_id: qid, name: null, desc: null, link: `https://www.wikidata.org/wiki/${qid}`, statements: [], error: WIKIDATA_MISSING };
    }
    // The snaks to show, then one more call (per 50 ids) for the labels of their properties and items.
    const shown: { property: string; snaks: Snak[] }[] = [];
    const labelIds = new Set<string>();
    for (const property of WIKIDATA_PROPERTIES) {
      const claims = (entity.claims?.[property] ?? []).filter((c) => c.rank !== 'deprecated' && c.mainsnak?.snaktype === 'value');
      const preferred = claims.filter((c) => c.rank === 'preferred');
      const snaks = (preferred.length ? preferred : claims).slice(0, MAX_VALUES).map((c) => c.mainsnak!);
      if (snaks.length === 0) continue;
      shown.push({ property, snaks });
      labelIds.add(property);
      for (const s of snaks) {
        const id = (s.datavalue?.value as { id?: string } | undefined)?.id;
        if (s.datavalue?.type === 'wikibase-entityid' && typeof id === 'string' && /^[QP]\d+$/.test(id)) labelIds.add(id);
      }
    }
    const labelled: Record<string, Entity> = {};
    const ids = [...labelIds];
    for (let i = 0; i < ids.length; i += IDS_PER_CALL) Object.assign(labelled, await this.entities(ids.slice(i, i + IDS_PER_CALL), 'labels', langs));

    const statements: WikidataStatement[] = shown.map(({ property, snaks }) => {
      const values = snaks.map((s) => renderValue(s, labelled, langs)).filter((v): v is string => v !== null && v !== '');
      return {
        property,
        name: pick(labelled[property]?.labels, langs) ?? property,
        data_type: snaks[0].datatype ?? snaks[0].datavalue?.type ?? 'string',
        values,
        links: values.map(safeLink),
      };
    }).filter((s) => s.values.length > 0);

    const wiki = language.split('-')[0];
    const link = entity.sitelinks?.[`${wiki}wiki`]?.url ?? entity.sitelinks?.enwiki?.url ?? `https://www.wikidata.org/wiki/${qid}`;
    return {
      wikidata_id: qid,
      name: pick(entity.labels, langs) ?? null,
      desc: pick(entity.descriptions, langs) ?? null,
      link: safeLink(link),
      statements,
    };
  }

  /** One wbgetentities call; any transport or format problem is a FetchFailed. */
  private async entities(ids: string[], props: string, langs: string[]): Promise<Record<string, Entity>> {
    const url = new URL(this.settings.wikidataUrl);
    url.search = new URLSearchParams({
      action: 'wbgetentities', format: 'json', ids: ids.join('|'), props, languages: langs.join('|'),
    }).toString();
    let body: unknown;
    try {
      const res = await fetch(url, {
        headers: { 'User-Agent': USER_AGENT, Accept: 'application/json' },
        signal: AbortSignal.timeout(this.settings.wikidataTimeoutMs),
      });
      if (!res.ok) throw new FetchFailed(`HTTP ${res.status}`);
      body = await res.json();
    } catch (err) {
      throw err instanceof FetchFailed ? err : new FetchFailed(String((err as Error)?.message ?? err));
    }
    const b = body as { entities?: Record<string, Entity>; error?: { code?: string } };
    if (b?.error?.code === 'no-such-entity') return {};
    if (!b || typeof b.entities !== 'object' || b.entities === null) throw new FetchFailed('unexpected answer');
    return b.entities;
  }
}

function pick(map: Record<string, { value?: string }> | undefined, langs: string[]): string | undefined {
  for (const l of langs) {
    const v = map?.[l]?.value;
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

/** A statement value as text: dates, item labels, VIAF and Commons links, texts, quantities. */
function renderValue(snak: Snak, labelled: Record<string, Entity>, langs: string[]): string | null {
  const dv = snak.datavalue;
  const v = dv?.value;
  if (v === undefined || v === null) return null;
  switch (dv?.type) {
    case 'time': {
      const t = v as { time?: string; precision?: number };
      const m = /^([+-])(\d+)-(\d\d)-(\d\d)/.exec(t.time ?? '');
      if (!m) return null;
      const year = String(Number(m[2]));
      if (m[1] === '+' && (t.precision ?? 0) >= 11) return `${year.padStart(4, '0')}-${m[3]}-${m[4]}`;
      return m[1] === '-' ? `-${year}` : year;
    }
    case 'wikibase-entityid': {
      const id = (v as { id?: string }).id ?? '';
      return pick(labelled[id]?.labels, langs) ?? id;
    }
    case 'monolingualtext':
      return (v as { text?: string }).text ?? null;
    case 'quantity':
      return String((v as { amount?: string }).amount ?? '').replace(/^\+/, '') || null;
    case 'globecoordinate': {
      const g = v as { latitude?: number; longitude?: number };
      return typeof g.latitude === 'number' && typeof g.longitude === 'number' ? `${g.latitude}, ${g.longitude}` : null;
    }
    case 'string': {
      if (typeof v !== 'string') return null;
      if (snak.datatype === 'commonsMedia') return `https://commons.wikimedia.org/w/thumb.php?width=300&f=${encodeURIComponent(v.replace(/ /g, '_'))}`;
      if (snak.property === 'P214' && /^\d+$/.test(v)) return `https://viaf.org/viaf/${v}`;
      return v;
    }
    default:
      return typeof v === 'string' ? v : null;
  }
}
