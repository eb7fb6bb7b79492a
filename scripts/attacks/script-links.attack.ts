// Issue 27 item 5: script links. A Muse text's [[javascript:alert(1)][x]] (and data:, vbscript:, the
// obfuscated spellings) came out of /full-text as live links, and a library's url could hold one for any
// API consumer to render. Now: a library admin cannot store a non-http(s) url, a Muse text's script links
// come out as their text, and the public answers never carry one.
// A library admin cannot put a Muse text on the server through the API (texts come from imports and
// harvests, and harvests of this server's own network are refused), so the scenario plays the harvested
// text by writing it over a demo text's stored Muse source in the server's data folder, then restores it.
import fs from 'node:fs';
import path from 'node:path';
import { urlsOf } from '../../packages/muse/src/testing/html-urls.ts';
import type { Attack } from './types.ts';


const LIBRARY = 2; // holds the demo Muse text "Keeping Paper Alive"
const TITLE = 'Keeping Paper Alive';
const SCRIPT_URLS = [
  'javascript:alert(document.cookie)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', '\u0001javascript:alert(1)',
  'java\tscript:alert(1)', '&#106;avascript:alert(1)', 'javascript&colon;alert(1)', 'vbscript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', '//evil.example/steal',
];

/** Whether a browser would follow the URL somewhere other than http(s), mailto, the page itself, or another host by "//". */
function isScriptLink(url: string): boolean {
  const t = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (/^[/\\]{2}/.test(t)) return true;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(t)?.[1].toLowerCase();
  return scheme !== undefined && !['http', 'https', 'mailto'].includes(scheme);
}

export const attack: Attack = {
  name: 'script-links',
  async run(ctx) {
    const api = '/collector/api';
    const admin = await ctx.account({ libraryAdmin: LIBRARY });
    const c = await ctx.login(admin);

    // 1. The library's url as a script link, in every spelling: refused, nothing stored.
    const details = await c.call('GET', `${api}/library/details/${LIBRARY}`);
    const lib = details.json?.library;
    ctx.check(!!lib, `the library admin reads the library's details (got ${details.status})`);
    const body = { name: lib.name, email_internal: lib.email_internal || 'staff@prostor.example.org' };
    for (const url of [...SCRIPT_URLS, 'prostor.example.org']) {
      const r = await c.call('POST', `${api}/library/details/${LIBRARY}`, { ...body, url });
      ctx.check(!r.json?.success && /url/i.test(String(r.json?.error)), `library url ${JSON.stringify(url)} is refused (got ${r.status} ${JSON.stringify(r.json)})`);
    }
    const pub = await ctx.client().call('GET', `${api}/libraries/${LIBRARY}`);
    const shown = JSON.stringify(pub.json);
    ctx.check(pub.status === 200 && !/javascript|vbscript|data:/i.test(shown), `the public library answer holds no script link (url ${JSON.stringify(pub.json?.url ?? pub.json?.library?.url)})`);

    // 2. A harvested Muse text with script links: /full-text serves them as text.
    const anonymous = ctx.client();
    const found = await anonymous.call('GET', `${api}/search?exact=1&query=${encodeURIComponent(`"${TITLE}"`)}`);
    const match = (found.json?.matches ?? []).find((m: { title: { value: string }[] }) => m.title?.[0]?.value === TITLE);
    ctx.check(!!match, `the demo text "${TITLE}" is found`);
    if (!match) return;
    const entry = await anonymous.call('GET', `${api}/entry/${match.entry_id ?? match.id}`);
    const ds = (entry.json?.data_sources ?? []).find((d: { library_id: number; has_full_text: boolean }) => d.library_id === LIBRARY && d.has_full_text);
    ctx.check(!!ds, 'the demo text has a full text in the library');
    if (!ds) return;
    const file = path.join(ctx.dataDir, 'files', String(ds.data_source_id), 'text.muse');
    ctx.check(fs.existsSync(file), `the stored Muse source is at ${path.relative(ctx.dataDir, file)}`);
    if (!fs.existsSync(file)) return;
    const original = fs.readFileSync(file);
    const stat = fs.statSync(file);
    const muse = `#title ${TITLE}\n\n${SCRIPT_URLS.map((u, i) => `Link ${i}: [[${u}][click ${i}]] or [[${u}]].`).join('\n\n')}\n\nA fine one: [[https://example.org/][fine]].\n`;
    try {
      fs.writeFileSync(file, muse);
      const text = await anonymous.call('GET', `${api}/full-text/${ds.data_source_id}`);
      const html = String(text.json?.html ?? '');
      const bad = urlsOf(html).filter(isScriptLink);
      ctx.check(text.status === 200 && html.includes('click 0'), `/full-text serves the planted text (got ${text.status})`);
      ctx.check(bad.length === 0, `no script link comes out of /full-text (got ${JSON.stringify(bad)})`);
      ctx.check(urlsOf(html).includes('https://example.org/'), 'its http(s) link stays a link');
      ctx.figure('script_links_planted', SCRIPT_URLS.length * 2);
    } finally {
      fs.writeFileSync(file, original);
      fs.utimesSync(file, stat.atime, stat.mtime);
    }
  },
};
