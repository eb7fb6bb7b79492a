// What an attack scenario of `npm run attack` (scripts/attack.ts) is given and must do. Each scenario is
// a file `scripts/attacks/<name>.attack.ts` exporting `attack: Attack`; the runner finds them by name,
// runs them one after another against one real `serve` (demo catalogue, TRUST_PROXY=1, 127.0.0.1) and
// prints one JSON line with every scenario's checks and figures.
import type { Client } from '../../bench/lib/child-server.ts';

export interface Account {
  id: number;
  username: string;
  password: string;
  email: string;
}

export interface AttackContext {
  /** http://127.0.0.1:PORT of the server under attack. */
  base: string;
  dataDir: string;
  /** Progress on standard error. */
  log(message: string): void;
  /** A new account made with the admin CLI (unique username and e-mail). */
  account(opts?: { superuser?: boolean; libraryAdmin?: number; canMerge?: boolean }): Promise<Account>;
  /** An anonymous client with its own cookie jar (sends X-CSRFToken like the web app). */
  client(): Client;
  /** A client logged in as this account. */
  login(account: Account): Promise<Client>;
  /** Starts sampling the server process's resident memory every 50 ms; stop() gives the peak in MB. */
  watchMemory(): { stop(): Promise<number> };
  /** Starts asking GET /healthz back to back; stop() gives the longest wait for an answer in ms. */
  watchHealth(): { stop(): Promise<number> };
  /** Records one check; a false one fails the run (the message says what an attacker got). */
  check(ok: boolean, what: string): void;
  /** A figure printed in the JSON line (peak RSS, longest wait…). */
  figure(name: string, value: number | string): void;
  /** Whether the server process is still alive (an attack must not end it). */
  alive(): boolean;
}

export interface Attack {
  /** Short name, e.g. "image-bomb". */
  name: string;
  run(ctx: AttackContext): Promise<void>;
}
