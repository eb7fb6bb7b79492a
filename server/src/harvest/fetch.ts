// Outbound requests of harvests: http(s) only, a timeout on every request, a size cap read while the
// body streams in (a 2 GB answer is cut off, never buffered), and retries with backoff for network
// errors, 429 and 5xx (Retry-After honoured up to a cap). Addresses of private networks (loopback,
// LAN, link-local: a site URL typed by a library admin must not reach the server's own services) are
// refused at connection time, redirects and DNS answers included, unless HARVEST_ALLOW_PRIVATE is set.
// Every failure is a HarvestFetchError with a message meant for the run's report.
import dns from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, fetch } from 'undici';
import { logDetail, reasonOf, ReportError, type ReportValues } from './report.ts';

export interface FetchOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Attempts after the first one, for retryable failures. */
  retries: number;
  /** First backoff; doubled per attempt. */
  backoffMs: number;
  /** Longest wait a Retry-After may ask for. */
  maxRetryAfterMs: number;
  signal?: AbortSignal;
  userAgent?: string;
  /** Let harvests reach loopback and private-network addresses (a LAN repository; the tests). */
  allowPrivate?: boolean;
}

export const DEFAULT_FETCH: FetchOptions = {
  timeoutMs: 60_000,
  maxBytes: 100 * 1024 * 1024,
  retries: 3,
  backoffMs: 2_000,
  maxRetryAfterMs: 120_000,
  userAgent: 'UnionCatalogue-harvester/1.0',
};

export class HarvestFetchError extends ReportError {
  constructor(template: string, values?: ReportValues, readonly retryable = false, readonly retryAfterMs: number | null = null, detail?: string) {
    super(template, values, detail);
  }
}

export interface FetchedBody { status: number; contentType: string; body: Buffer; url: string }

/** Public internet addresses only ('unicast'); loopback, private, link-local, reserved... are not. */
export function isPublicAddress(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'unicast';
  } catch {
    return false;
  }
}

// The report names the host as typed, never what it resolved to: a library admin must not map the
// server's own network by typing names (the address goes to the server log).
const privateRefused = (host: string, address: string) =>
  new HarvestFetchError('The address {{host}} is not allowed: it is not on the public internet', { host }, false, null,
    `${host} is ${address}, a private network address; HARVEST_ALLOW_PRIVATE=1 allows those`);

/** Checks that a site or record URL may be fetched at all. */
export function assertHttpUrl(raw: string, allowPrivate = false): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HarvestFetchError('"{{url}}" is not a URL', { url: raw.slice(0, 200) });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HarvestFetchError('Only http and https addresses can be harvested, not "{{protocol}}"', { protocol: url.protocol });
  // An address written as such is never looked up, so it is checked here; names are checked as they resolve.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(literal) && !isPublicAddress(literal)) throw privateRefused(url.host, literal);
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** Connections whose name resolves only to public addresses (checked on every connection, so redirects too). */
const publicOnly = new Agent({
  connect: {
    lookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
      dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, []);
        const bad = addresses.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(privateRefused(hostname, bad.address) as NodeJS.ErrnoException, []);
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      });
    },
  },
});
const anyAddress = new Agent();

function retryAfter(header: string | null): number | null {
  if (!header) return null;
  const secs = Number(header);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

const mb = (n: number) => Math.round(n / 1024 / 1024);
const seconds = (ms: number) => Math.round(ms / 1000);

async function fetchOnce(url: URL, o: FetchOptions): Promise<FetchedBody> {
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  let res: Response;
  try {
    // Redirects are followed here, each target checked like the first (an address written as such
    // would skip the name lookup's check).
    for (let hops = 0; ; hops++) {
      res = await fetch(url, {
        signal, redirect: 'manual', dispatcher: o.allowPrivate ? anyAddress : publicOnly,
        headers: { 'user-agent': o.userAgent ?? DEFAULT_FETCH.userAgent!, accept: '*/*' },
      }) as unknown as Response;
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (!location) break;
      await res.body?.cancel().catch(() => undefined);
      if (hops >= 5) throw new HarvestFetchError('{{host}} redirects more than 5 times', { host: url.host });
      url = assertHttpUrl(new URL(location, url).href, o.allowPrivate);
    }
  } catch (e) {
    if (e instanceof HarvestFetchError) throw e;
    if (o.signal?.aborted) throw o.signal.reason ?? e;
    if (timeout.aborted) throw new HarvestFetchError('No answer from {{host}} within {{seconds}} s', { host: url.host, seconds: seconds(o.timeoutMs) }, true);
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    if (cause instanceof HarvestFetchError) throw cause;
    throw unreachable(url.host, cause?.code, cause?.message ?? cause?.code ?? (e as Error).message);
  }
  if (res.status === 429 || res.status >= 500) {
    await res.body?.cancel().catch(() => undefined);
    throw new HarvestFetchError('{{host}} is busy or has a fault of its own (HTTP {{status}}); the next harvest tries again', { host: url.host, status: res.status }, true, retryAfter(res.headers.get('retry-after')));
  }
  if (res.status === 404 || res.status === 410) {
    await res.body?.cancel().catch(() => undefined);
    throw new HarvestFetchError('{{host}} has no page at {{path}} (HTTP {{status}}): check the address', { host: url.host, status: res.status, path: url.pathname });
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel().catch(() => undefined);
    throw new HarvestFetchError('{{host}} does not let us read {{path}} (HTTP {{status}}): its administrators must allow harvesting', { host: url.host, status: res.status, path: url.pathname });
  }
  if (res.status >= 400) {
    await res.body?.cancel().catch(() => undefined);
    throw new HarvestFetchError('{{host}} answered HTTP {{status}} for {{path}}', { host: url.host, status: res.status, path: url.pathname });
  }
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > o.maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new HarvestFetchError('The answer is {{size}} MB, more than the {{max}} MB a harvest accepts', { size: mb(declared), max: mb(o.maxBytes) });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > o.maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw new HarvestFetchError('The answer is larger than the {{max}} MB a harvest accepts; it was cut off', { max: mb(o.maxBytes) });
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch (e) {
    if (e instanceof HarvestFetchError) throw e;
    if (o.signal?.aborted) throw o.signal.reason ?? e;
    if (timeout.aborted) throw new HarvestFetchError('The answer of {{host}} did not finish within {{seconds}} s', { host: url.host, seconds: seconds(o.timeoutMs) }, true);
    throw new HarvestFetchError('The answer of {{host}} broke off', { host: url.host }, true, null, (e as Error).message);
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.concat(chunks), url: res.url || url.href };
}

/**
 * Why a connection failed, said so that a librarian knows what to do; the system's reason (getaddrinfo,
 * ECONNREFUSED with an address, the TLS error) goes to the log only.
 */
function unreachable(host: string, code: string | undefined, detail: string): HarvestFetchError {
  if (code === 'ENOTFOUND') return new HarvestFetchError('There is no site at {{host}}: check the address for a typing mistake', { host }, false, null, detail);
  if (code === 'ECONNREFUSED') return new HarvestFetchError('{{host}} refused the connection: the site is down, or the address has a wrong port', { host }, true, null, detail);
  if (code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return new HarvestFetchError('The secure connection to {{host}} failed: its certificate is not valid, which its administrators must fix', { host }, false, null, detail);
  }
  return new HarvestFetchError('Cannot reach {{host}}: the site may be down; the next harvest tries again', { host }, true, null, detail);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });

/** GET with the harvest's limits and retries. `onRetry` tells the run what is happening. */
export async function fetchWithRetry(raw: string, opts: Partial<FetchOptions> = {}, onRetry?: (msg: string) => void): Promise<FetchedBody> {
  const o = { ...DEFAULT_FETCH, ...opts };
  const url = assertHttpUrl(raw, o.allowPrivate);
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(url, o);
    } catch (e) {
      if (!(e instanceof HarvestFetchError) || !e.retryable || attempt >= o.retries) {
        if (e instanceof HarvestFetchError && e.retryable && attempt > 0) throw new HarvestFetchError('{{reason}} (tried {{attempts}} times)', { reason: reasonOf(e), attempts: attempt + 1 }, false, null, e.detail);
        throw e;
      }
      const wait = Math.min(e.retryAfterMs ?? o.backoffMs * 2 ** attempt, o.maxRetryAfterMs);
      onRetry?.(`${logDetail(e)}; retrying in ${Math.ceil(wait / 1000)} s`);
      await sleep(wait, o.signal);
    }
  }
}
