// EPUBCheck (Debian's epubcheck package: its command is the jar itself) on many files in one JVM, for
// tests: a JVM start costs seconds. Tests skip with a notice naming the package when it is missing.
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

export const EPUBCHECK_JAR = '/usr/share/java/epubcheck.jar';
export const HAVE_EPUBCHECK = existsSync(EPUBCHECK_JAR) && spawnSync('java', ['-version']).status === 0;
export const EPUBCHECK_MISSING = `EPUBCheck tests skipped: install the Debian package epubcheck (${EPUBCHECK_JAR} and a Java runtime)`;

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), '../../scripts/EpubCheckMany.java');

/** Runs EPUBCheck on the files; `problems` lists each file with its errors and warnings (empty: all clean). */
export function epubCheck(files: string[]): { reports: number; problems: string[]; output: string } {
  const r = spawnSync('java', ['-cp', EPUBCHECK_JAR, RUNNER, ...files], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const output = r.stdout + r.stderr;
  const parts = output.split(/^== (?=\/)/m).slice(1);
  const problems: string[] = [];
  for (const part of parts) {
    const file = part.slice(0, part.indexOf('\n'));
    const m = /Messages: (\d+) fatals? \/ (\d+) errors? \/ (\d+) warnings?/.exec(part);
    if (!m || m[1] !== '0' || m[2] !== '0' || m[3] !== '0') problems.push(part.split('\n').filter((l) => /^(ERROR|WARNING|FATAL)/.test(l) || l === file).join('\n'));
  }
  return { reports: parts.length, problems, output };
}
