// Full texts: Muse sources rendered to HTML by packages/muse (images served from the text's zip),
// plain-text files escaped. Rendered HTML is cached per data source and file size.
import fs from 'node:fs';
import { unzipSync } from 'fflate';
import { escapeHtml as escapeMuse, museToHtml, type TocEntry } from '@uc/muse';
import type { FileStore } from './files.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const IMAGE_NAME = /^[a-z0-9][a-z0-9._-]*\.(png|jpe?g|gif|webp)$/i;

export class FullTextService {
  private cache = new Map<string, string>();

  constructor(private files: FileStore) {}

  html(dataSourceId: number): string | null {
    const muse = this.files.get(dataSourceId, '.muse');
    if (muse) {
      const key = `${dataSourceId}:${muse.size}:${fs.statSync(muse.absPath).mtimeMs}`;
      const cached = this.cache.get(key);
      if (cached) return cached;
      const { html: body, header, toc } = museToHtml(fs.readFileSync(muse.absPath, 'utf8'), {
        imageUrl: (name) => `/collector/api/file/${dataSourceId}/${encodeURIComponent(name)}`,
      });
      const html = bareHtml(body, toc, header);
      if (this.cache.size > 200) this.cache.clear();
      this.cache.set(key, html);
      return html;
    }
    const txt = this.files.get(dataSourceId, '.txt');
    if (txt) return `<div id="thework" dir="ltr">\n<div class="plain-text">${escapeHtml(fs.readFileSync(txt.absPath, 'utf8')).replace(/\n/g, '<br>\n')}</div>\n</div>\n`;
    return null;
  }

  /** An image of a Muse text, read from its zip. */
  image(dataSourceId: number, name: string): { bytes: Uint8Array; contentType: string } | null {
    if (!IMAGE_NAME.test(name)) return null;
    const zip = this.files.get(dataSourceId, '.zip');
    if (!zip) return null;
    const entries = unzipSync(fs.readFileSync(zip.absPath), { filter: (f) => f.name.split('/').pop() === name });
    const found = Object.values(entries)[0];
    if (!found) return null;
    const ext = name.split('.').pop()!.toLowerCase();
    const contentType = ext === 'png' ? 'image/png' : ext === 'gif' ? 'image/gif' : ext === 'webp' ? 'image/webp' : 'image/jpeg';
    return { bytes: found, contentType };
  }
}

const RTL_LANGS = new Set(['ar', 'he', 'fa']);

/**
 * The layout of Text::Amuse's bare HTML (an Amusewiki site's `.bare.html`), which the spec's client lays
 * out in two columns: the table of contents in `div.table-of-contents` (hidden by `#notoc`), then the
 * text in `div#thework`.
 */
export function bareHtml(body: string, toc: TocEntry[], header: Record<string, string>): string {
  const dir = RTL_LANGS.has((header.lang ?? '').trim().toLowerCase()) ? 'rtl' : 'ltr';
  let out = '';
  const lines = toc.filter((t) => t.title !== '');
  if (lines.length > 0) {
    const hidden = header.notoc !== undefined ? ' style="display:none"' : '';
    out += `<div class="table-of-contents"${hidden} dir="${dir}">\n`;
    for (const t of lines) {
      out += `<p class="tableofcontentline toclevel${t.level}"><span class="tocprefix">${'&#160;&#160;'.repeat(t.level)}</span>`
        + `<a href="#${escapeMuse(t.anchor)}">${escapeMuse(t.title)}</a></p>\n`;
    }
    out += '</div>\n';
  }
  return `${out}<div id="thework" dir="${dir}">\n${body}</div>\n`;
}
