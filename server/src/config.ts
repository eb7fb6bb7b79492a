// Every setting in one typed place, read from the environment with defaults (documented in README).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Load the demo catalogue into an empty database on start. */
  demo: boolean;
  demoDir: string;
  webDist: string;
  logLevel: string;
  /** Trust X-Forwarded-* headers (behind a reverse proxy). */
  trustProxy: boolean;
}

function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function envBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(raw.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: envInt(env, 'PORT', 8080),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || path.join(repoRoot, 'data')),
    demo: envBool(env, 'DEMO', true),
    demoDir: path.resolve(env.DEMO_DIR || path.join(repoRoot, 'demo')),
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'web', 'dist')),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: envBool(env, 'TRUST_PROXY', false),
  };
}

export { repoRoot };
