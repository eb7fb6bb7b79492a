// Finds, in the source, every message the server can send to a reader: the English templates of errors
// and of schema messages. The translation test checks each has a translation in every language, and
// `npm run messages` lists the missing ones for translators.
import fs from 'node:fs';
import path from 'node:path';

// Harvest run reports (harvest/report.ts): ReportError and its subclasses, read back in the reader's language.
const HARVEST_ERRORS = 'ReportError|HarvestError|HarvestFetchError|OaiError|XmlError|SourceError';
const ERROR_CLASSES = `HttpError|Refusal|MessageError|AccountError|QuerySyntaxError|SpreadsheetError|UploadRefused|notFound|${HARVEST_ERRORS}`;
const PATTERNS = [
  // new HttpError(404, 'No such entry'), new Refusal('...'), notFound('...')
  new RegExp(`(?:new\\s+)?(?:${ERROR_CLASSES})\\(\\s*(?:\\d+\\s*,\\s*)?(?:[\\w.?: ]+\\s*\\?\\s*)?'((?:[^'\\\\]|\\\\.)+)'`, 'g'),
  // zod messages: .min(1, 'The name is required'), .refine(fn, 'Invalid ...'), { message: '...' }
  /\.(?:min|max|length|regex|refine|email|url|superRefine)\([^()'`]*(?:\([^()]*\)[^()'`]*)*,\s*'((?:[^'\\]|\\.)+)'/g,
  /\b(?:message|error):\s*'((?:[^'\\]|\\.)+)'/g,
  // messages translated where they are written: translateMessage(lang, 'Internal server error')
  /\btranslateMessage\(\s*\w+,\s*'((?:[^'\\]|\\.)+)'/g,
  // bad('Nothing to do'), and a field's refusal: fieldRefusal('isbn', 'at most {{max}}', ...)
  /\bbad\(\s*'((?:[^'\\]|\\.)+)'/g,
  /\bfieldRefusal\((?:'[^']*'|[^,()'`]+),\s*'((?:[^'\\]|\\.)+)'/g,
  // a harvest run's report: reportMessage('The record has no title')
  /\breportMessage\(\s*'((?:[^'\\]|\\.)+)'/g,
];
/** An error built from a template literal: its text cannot be looked up (use a template with values). */
const LITERAL_TEMPLATE = new RegExp(`(?:new\\s+(?:${ERROR_CLASSES})|\\bbad|\\bfieldRefusal|\\breportMessage)\\(\\s*(?:[^,()'\`]+,\\s*)?\`[^\`]*\\$\\{`, 'g');

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'test') continue;
    if (fs.statSync(full).isDirectory()) sourceFiles(full, out);
    else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) out.push(full);
  }
  return out;
}

/** The folders whose messages reach readers: the server and the shared schemas. */
export function messageSourceDirs(root: string): string[] {
  return [path.join(root, 'server/src'), path.join(root, 'packages/shared/src')];
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

export interface MessageScan {
  /** English templates, each with one file that uses it. */
  templates: Map<string, string>;
  /** Errors built from template literals (`file: line`). */
  literalTemplates: string[];
}

export function scanMessages(root: string): MessageScan {
  const templates = new Map<string, string>();
  const literalTemplates: string[] = [];
  for (const dir of messageSourceDirs(root)) {
    for (const file of sourceFiles(dir)) {
      const text = fs.readFileSync(file, 'utf8');
      const rel = path.relative(root, file);
      // CLI and log texts are for operators, not readers.
      if (/\/(cli|main|config|message-sources)\.ts$/.test(rel) || rel.includes('/publish/oai')) continue;
      for (const re of PATTERNS) {
        for (const m of text.matchAll(re)) {
          for (const found of m.slice(1)) if (found && !templates.has(unescape(found))) templates.set(unescape(found), rel);
        }
      }
      for (const m of text.matchAll(LITERAL_TEMPLATE)) {
        literalTemplates.push(`${rel}:${text.slice(0, m.index).split('\n').length}`);
      }
    }
  }
  return { templates, literalTemplates };
}
