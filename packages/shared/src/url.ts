// Web addresses stored from forms, imports and harvests (a library's url, a record's uri, a site's
// address) and shown as links: http and https only, so no stored value can become a script link.
import { z } from 'zod';

// No white space or control character anywhere: a browser drops some of them, and "https://x y" is no address.
const HTTP_URL = /^https?:\/\/[^\s\u0000-\u001f\u007f-\u009f]+$/i;

/** Whether the value, as it is, is an absolute http(s) address with a host. */
export function isHttpUrl(value: string): boolean {
  if (!HTTP_URL.test(value)) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** The value (trimmed) when it is an http(s) address, else null: what a response may offer as a link, even from an old row. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v && isHttpUrl(v) ? v : null;
}

/** An optional http(s) address of a form: trimmed, empty and null become null. */
export const optHttpUrl = (max: number) =>
  z.string().trim().max(max).nullable().optional()
    .transform((s) => (s ? s : null))
    .refine((s) => s === null || isHttpUrl(s), 'Invalid URL (http or https)');
