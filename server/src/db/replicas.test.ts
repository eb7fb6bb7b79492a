// The routing rule of read replicas (db/replicas.ts): which reads a standby may take. The whole thing
// with a real primary, a streaming standby and two app nodes is e2e/replica.e2e.ts.
import { describe, expect, it } from 'vitest';
import { chooseStandby, connectionLost, covers, formatLsn, lagFrom, parseLsn, withTimeouts, type StandbyState } from './replicas.ts';

const lsn = (s: string) => parseLsn(s)!;
const standby = (replayed: string | null, lagSeconds = 0, up = true): StandbyState => ({ up, replayed: replayed === null ? null : lsn(replayed), lagSeconds });
const rule = { floor: lsn('0/3000000'), maxLagSeconds: 5, inTransaction: false };

describe('read replica routing', () => {
  it('reads PostgreSQL positions as they are written and back', () => {
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(formatLsn(lsn('16/B374D848'))).toBe('16/B374D848');
    expect(formatLsn(lsn('0/3001178'))).toBe('0/3001178');
    for (const bad of ['', '1', '1/', '/1', 'x/1', '123456789/1', '1/2; x', null, undefined]) expect(parseLsn(bad)).toBeNull();
  });

  it('sends a read to a standby that is up, close enough and past the floor', () => {
    expect(chooseStandby([standby('0/3000000')], rule)).toBe(0);
    expect(chooseStandby([standby('0/4000000', 4.9)], rule)).toBe(0);
  });

  it('keeps on the primary every read inside a transaction (it may have written)', () => {
    expect(chooseStandby([standby('0/4000000')], { ...rule, inTransaction: true })).toBe(-1);
  });

  it('keeps on the primary what a standby has not replayed yet: this node\'s or this user\'s last write', () => {
    expect(chooseStandby([standby('0/2FFFFFF')], rule)).toBe(-1);
    // The one behind is passed over for one that has it.
    expect(chooseStandby([standby('0/2FFFFFF'), standby('0/3000001')], rule)).toBe(1);
  });

  it('skips a standby that is down, not yet probed, or further behind than the largest lag allowed', () => {
    expect(chooseStandby([standby('0/4000000', 0, false)], rule)).toBe(-1);
    expect(chooseStandby([standby(null)], rule)).toBe(-1);
    expect(chooseStandby([standby('0/4000000', 5.1)], rule)).toBe(-1);
    expect(chooseStandby([standby('0/4000000', Infinity)], rule)).toBe(-1);
    expect(chooseStandby([], rule)).toBe(-1);
  });

  it('shares the reads among the usable standbys in turn', () => {
    const three = [standby('0/4000000'), standby('0/1000000'), standby('0/4000000')];
    expect([0, 1, 2, 3].map((turn) => chooseStandby(three, { ...rule, turn }))).toEqual([0, 2, 2, 0]);
  });

  it('counts a position just after a WAL page header as replayed by a standby that ends where the page begins', () => {
    expect(covers(lsn('0/3002000'), lsn('0/3002018'))).toBe(true);
    expect(covers(lsn('0/3001FFF'), lsn('0/3002018'))).toBe(false);
    expect(covers(lsn('0/3001000'), lsn('0/3001018'))).toBe(false);
  });

  it('measures lag on the primary\'s positions over time: none while the primary is idle, growing when the standby stops', () => {
    const now = 100_000;
    const idle = [{ at: now - 2000, lsn: lsn('0/5000000') }, { at: now - 1000, lsn: lsn('0/5000000') }, { at: now, lsn: lsn('0/5000000') }];
    expect(lagFrom(idle, lsn('0/5000000'), now)).toBe(0);
    const moving = [{ at: now - 3000, lsn: lsn('0/5000000') }, { at: now - 2000, lsn: lsn('0/6000000') }, { at: now - 1000, lsn: lsn('0/7000000') }, { at: now, lsn: lsn('0/8000000') }];
    // It holds what the primary had 2 s ago and lacks what it wrote by 1 s ago.
    expect(lagFrom(moving, lsn('0/6000000'), now)).toBe(1);
    expect(lagFrom(moving, lsn('0/8000000'), now)).toBe(0);
    // Behind every sample: at least as old as the oldest.
    expect(lagFrom(moving, lsn('0/1000000'), now)).toBe(3);
    expect(lagFrom([], lsn('0/1000000'), now)).toBe(Infinity);
  });

  it('takes a closed connection or a shutdown for a lost standby, a refused statement for a statement to run on the primary', () => {
    for (const code of [undefined, 'PG_ERROR', '08006', '08001', '57P01', '57P02', '57P03']) expect(connectionLost(code)).toBe(true);
    // Refused write (read-only transaction), a query cancelled by a replication conflict, an SQL error.
    for (const code of ['25006', '40001', '42P01']) expect(connectionLost(code)).toBe(false);
  });

  it('bounds libpq\'s waits for a dead standby unless its URL says otherwise', () => {
    const u = new URL(withTimeouts('postgres://app:secret@db2.example:5433/uc?connect_timeout=10'));
    expect(u.searchParams.get('connect_timeout')).toBe('10');
    expect(u.searchParams.get('tcp_user_timeout')).toBe('5000');
    expect(u.host).toBe('db2.example:5433');
    expect(u.password).toBe('secret');
  });
});
