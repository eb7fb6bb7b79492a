// A local HTTP server that plays Wikidata's action API (wbgetentities) with answers of the real shape.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

const label = (lang: string, value: string) => ({ [lang]: { language: lang, value } });
const snak = (property: string, datatype: string, datavalue: Json) => ({
  mainsnak: { snaktype: 'value', property, hash: 'x', datavalue, datatype },
  type: 'statement', id: `Q5752$${property}-${Math.random().toString(16).slice(2)}`, rank: 'normal',
});
const time = (t: string, precision: number) => ({
  value: { time: t, timezone: 0, before: 0, after: 0, precision, calendarmodel: 'http://www.wikidata.org/entity/Q1985727' }, type: 'time',
});
const item = (id: string) => ({ value: { 'entity-type': 'item', 'numeric-id': Number(id.slice(1)), id }, type: 'wikibase-entityid' });
const str = (value: string) => ({ value, type: 'string' });

/** Peter Kropotkin, abridged, plus the labels of what his statements refer to. */
export const WIKIDATA_ENTITIES: Record<string, Json> = {
  Q5752: {
    type: 'item', id: 'Q5752', pageid: 6473, ns: 0, title: 'Q5752', lastrevid: 1, modified: '2026-01-01T00:00:00Z',
    labels: { ...label('en', 'Peter Kropotkin'), ...label('it', 'Pëtr Kropotkin') },
    descriptions: { ...label('en', 'Russian anarchist, geographer and writer (1842–1921)') },
    claims: {
      P31: [snak('P31', 'wikibase-item', item('Q5'))],
      P18: [snak('P18', 'commonsMedia', str('Peter Kropotkin circa 1900.jpg'))],
      P569: [snak('P569', 'time', time('+1842-12-09T00:00:00Z', 11))],
      P19: [snak('P19', 'wikibase-item', item('Q649'))],
      P570: [snak('P570', 'time', time('+1921-02-08T00:00:00Z', 11))],
      P800: [
        snak('P800', 'wikibase-item', item('Q2712891')),
        { ...snak('P800', 'wikibase-item', item('Q1')), rank: 'deprecated' },
      ],
      P214: [snak('P214', 'external-id', str('66477850'))],
      P856: [
        snak('P856', 'url', str('https://kropotkin.example.org/')),
        snak('P856', 'url', str('https://bad.example.org/a b')),
        snak('P856', 'url', str('javascript:alert(1)')),
      ],
      P1412: [snak('P1412', 'wikibase-item', item('Q7737'))],
      P571: [snak('P571', 'time', time('-0500-00-00T00:00:00Z', 9))],
    },
    sitelinks: {
      enwiki: { site: 'enwiki', title: 'Peter Kropotkin', badges: [], url: 'https://en.wikipedia.org/wiki/Peter_Kropotkin' },
      itwiki: { site: 'itwiki', title: 'Pëtr Alekseevič Kropotkin', badges: [], url: 'https://it.wikipedia.org/wiki/P%C3%ABtr_Alekseevi%C4%8D_Kropotkin' },
    },
  },
  Q649: { type: 'item', id: 'Q649', labels: { ...label('en', 'Moscow'), ...label('it', 'Mosca') } },
  Q2712891: { type: 'item', id: 'Q2712891', labels: { ...label('en', 'Mutual Aid: A Factor of Evolution') } },
  Q7737: { type: 'item', id: 'Q7737', labels: { ...label('en', 'Russian'), ...label('it', 'russo') } },
  P18: { type: 'property', datatype: 'commonsMedia', id: 'P18', labels: { ...label('en', 'image'), ...label('it', 'immagine') } },
  P569: { type: 'property', datatype: 'time', id: 'P569', labels: { ...label('en', 'date of birth'), ...label('it', 'data di nascita') } },
  P19: { type: 'property', datatype: 'wikibase-item', id: 'P19', labels: { ...label('en', 'place of birth'), ...label('it', 'luogo di nascita') } },
  P570: { type: 'property', datatype: 'time', id: 'P570', labels: { ...label('en', 'date of death') } },
  P800: { type: 'property', datatype: 'wikibase-item', id: 'P800', labels: { ...label('en', 'notable work') } },
  P214: { type: 'property', datatype: 'external-id', id: 'P214', labels: { ...label('en', 'VIAF cluster ID') } },
  P856: { type: 'property', datatype: 'url', id: 'P856', labels: { ...label('en', 'official website') } },
  P1412: { type: 'property', datatype: 'wikibase-item', id: 'P1412', labels: { ...label('en', 'languages spoken, written or signed') } },
  P571: { type: 'property', datatype: 'time', id: 'P571', labels: { ...label('en', 'inception') } },
};

export interface FakeWikidata {
  url: string;
  /** Query strings of the requests received. */
  requests: URLSearchParams[];
  mode: 'ok' | 'fail' | 'hang';
  close(): Promise<void>;
}

export async function startFakeWikidata(): Promise<FakeWikidata> {
  const hanging = new Set<http.ServerResponse>();
  const state: FakeWikidata = { url: '', requests: [], mode: 'ok', close: async () => {} };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push(u.searchParams);
    if (state.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (state.mode === 'fail' || u.pathname !== '/w/api.php' || u.searchParams.get('action') !== 'wbgetentities') {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service unavailable</h1>');
      return;
    }
    const langs = (u.searchParams.get('languages') ?? '').split('|');
    const props = (u.searchParams.get('props') ?? '').split('|');
    const entities: Record<string, Json> = {};
    for (const id of (u.searchParams.get('ids') ?? '').split('|')) {
      const e = WIKIDATA_ENTITIES[id];
      if (!e) {
        entities[id] = { id, missing: '' };
        continue;
      }
      const out: Json = { type: e.type, id };
      for (const p of ['labels', 'descriptions']) {
        if (!props.includes(p) || !e[p]) continue;
        out[p] = Object.fromEntries(Object.entries(e[p] as Json).filter(([l]) => langs.includes(l)));
      }
      if (props.includes('claims') && e.claims) out.claims = e.claims;
      if (props.some((p) => p.startsWith('sitelinks')) && e.sitelinks) out.sitelinks = e.sitelinks;
      entities[id] = out;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ entities, success: 1 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/w/api.php`;
  state.close = () => new Promise<void>((resolve) => {
    for (const r of hanging) r.destroy();
    server.close(() => resolve());
  });
  return state;
}
