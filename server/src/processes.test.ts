// processAlive: what a killed process left is cleaned up once it has ended, also while it is a zombie
// (its exit not yet collected, as in a container whose first process reaps late).
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processAlive } from './processes.ts';

const linux = fs.existsSync('/proc/self/stat');

describe('processAlive', () => {
  it('answers for this process and for one that has ended and been collected', async () => {
    expect(processAlive(process.pid)).toBe(true);
    const child = spawn('true');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(processAlive(child.pid!)).toBe(false);
  });

  it.skipIf(!linux)('takes a zombie for ended', async () => {
    // The shell starts a short job, then becomes a `sleep` that never collects it: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (b: Buffer) => resolve(b.toString()))));
      const state = () => { const s = fs.readFileSync(`/proc/${zombie}/stat`, 'utf8'); return s[s.lastIndexOf(')') + 2]; };
      for (let i = 0; i < 200 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(state()).toBe('Z');
      expect(processAlive(zombie)).toBe(false);
      expect(processAlive(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
