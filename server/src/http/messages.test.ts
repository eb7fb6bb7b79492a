import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_LANGUAGES } from '@uc/shared';
import { CSRF_HEADERS, testApp, type TestApp } from '../test/fixture.ts';
import { ANSWERED_REFUSALS } from './errors.ts';
import { messageCatalogue, messageLanguage, translateMessage } from './messages.ts';
import { scanMessages } from './message-sources.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const placeholders = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort();

describe('the language of server messages', () => {
  it('follows Accept-Language among the interface languages, English otherwise', () => {
    expect(messageLanguage(undefined)).toBe('en');
    expect(messageLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(messageLanguage('fr;q=0.5, it')).toBe('it');
    expect(messageLanguage('el')).toBe('el');
    expect(messageLanguage('pt-BR,pt;q=0.9')).toBe('en');
    expect(messageLanguage('*')).toBe('en');
  });

  it('every message a reader can get is translated in every language, with the same placeholders', () => {
    const { templates, literalTemplates } = scanMessages(ROOT);
    expect(templates.size).toBeGreaterThan(100);
    // An error built from a template literal cannot be looked up: it must be a template with values.
    expect(literalTemplates, 'errors built from template literals').toEqual([]);
    for (const lang of UI_LANGUAGES.filter((l) => l !== 'en')) {
      const catalogue = messageCatalogue(lang);
      const missing = [...templates].filter(([t]) => !catalogue[t]).map(([t, file]) => `${file}: ${t}`);
      expect(missing, `${lang}: untranslated messages`).toEqual([]);
      for (const t of templates.keys()) expect(placeholders(catalogue[t]), `${lang}: ${t}`).toEqual(placeholders(t));
      // Translated for real (a few short words may be the same).
      const same = [...templates.keys()].filter((t) => catalogue[t] === t);
      expect(same.length, `${lang}: copied instead of translated: ${same.join(' | ')}`).toBeLessThan(templates.size / 10);
    }
  });
});

describe('quotation marks of server messages', () => {
  it("are the language's, also where a translation kept the English ones", () => {
    const key = '“{{translation}}” is a translation of “{{original}}”: remove the translation before merging';
    const values = { translation: 'A', original: 'B' };
    expect(translateMessage('de', key, values)).toMatch(/„A“ .* „B“/);
    expect(translateMessage('el', key, values)).toMatch(/«A» .* «B»/);
    expect(translateMessage('en', key, values)).toMatch(/^“A” .* “B”/);
    for (const lang of ['de', 'el', 'fr', 'it'] as const) {
      expect(Object.values(messageCatalogue(lang)).filter((m) => /“[^“”]*”/.test(m)), `${lang}: English quotation marks`).toEqual([]);
    }
  });
});

describe('refusals and messages through HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, lang?: string) =>
    t.app.inject({
      method: 'POST', url: `/collector/api${url}`, payload: payload as object,
      headers: { ...CSRF_HEADERS, ...(lang ? { 'accept-language': lang } : {}) },
    });

  it('every call listed as answering refusals is a real route', () => {
    for (const call of ANSWERED_REFUSALS) {
      const [method, url] = call.split(' ');
      expect(t.app.hasRoute({ method: method as 'POST', url }), call).toBe(true);
    }
  });

  it('a wrong password is answered 200 with logged_in null and the reason, in the reader\'s language', async () => {
    const en = await post('/auth/login', { username: 'nobody', password: 'wrong password' });
    expect(en.statusCode).toBe(200);
    expect(en.json()).toEqual({ logged_in: null, error: 'Invalid login' });
    const it_ = await post('/auth/login', { username: 'nobody', password: 'wrong password' }, 'it-IT,it;q=0.9');
    expect(it_.json()).toEqual({ logged_in: null, error: messageCatalogue('it')['Invalid login'] });
    expect(it_.json().error).not.toBe('Invalid login');
  });

  it('a form\'s validation message is answered 200; a malformed request keeps its 400', async () => {
    const empty = await post('/report/bug', { message: '   ', email_from: 'reader@example.net' });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().error).toBe('Please write a message');
    const missing = await post('/report/bug', { message: 'text' });
    expect(missing.statusCode).toBe(400);
    // The same refusal on a call that does not answer refusals the spec's way keeps its 4xx.
    const notOnTheList = await post('/report/data-source-error/1', { message: '   ' });
    expect(notOnTheList.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('query syntax errors and zod\'s own validation messages come in the reader\'s language', async () => {
    const en = await t.app.inject({ url: '/collector/api/search?query=%22open' });
    const de = await t.app.inject({ url: '/collector/api/search?query=%22open', headers: { 'accept-language': 'de' } });
    expect(en.statusCode).toBe(400);
    expect(en.json().error).toBe('Invalid query: Unterminated quoted phrase');
    expect(de.statusCode).toBe(400);
    expect(de.json().error).toBe(translateMessage('de', 'Invalid query: {{reason}}', { reason: translateMessage('de', 'Unterminated quoted phrase') }));
    expect(de.json().error).not.toMatch(/Unterminated/);

    const long = { message: 'x'.repeat(10001), email_from: 'reader@example.net' };
    const enLong = (await post('/report/bug', long)).json().error as string;
    const frLong = (await post('/report/bug', long, 'fr')).json().error as string;
    expect(enLong).toMatch(/^Invalid request \(message: Too big/);
    expect(frLong.startsWith(translateMessage('fr', 'Invalid request ({{detail}})', { detail: '' }).replace(/\)$/, ''))).toBe(true);
    expect(frLong).not.toMatch(/Too big/);
  });
});
