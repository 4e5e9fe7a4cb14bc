import { readdirSync, readFileSync } from 'node:fs';
import { testChildVariable } from './processes.ts';

interface Leftover {
  pid: number;
  group: number;
  command: string;
}

/** The process group of a process: the third field after its name in /proc, a name in parentheses that may hold any. */
function groupOf(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** The running processes whose environment carries `marker`: started by this run's tests, or by what they started. */
function findLeftovers(marker: string): Leftover[] {
  const found: Leftover[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker)) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid, group: groupOf(pid), command });
    } catch {
      // it ended meanwhile, or is another user's
    }
  }
  return found;
}

/**
 * Vitest's global setup, once per run: at the end, every process a test started must have stopped. Any left over
 * is killed with its process group, and the run fails naming each. Tests mark their processes (`spawnGroup`) with
 * the run's id, so that a leftover of another run or a process of the developer's is never taken for one.
 */
export function teardown(): void {
  const run = process.env.SVC_TEST_RUN;
  if (!run || process.platform !== 'linux') return;
  const leftovers = findLeftovers(`${testChildVariable}=${run}`);
  if (leftovers.length === 0) return;
  const ownGroup = groupOf('self');
  for (const { pid, group } of leftovers) {
    for (const target of group === ownGroup ? [pid] : [-group, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  const list = leftovers.map(({ pid, command }) => `  pid ${pid}: ${command}`).join('\n');
  // Vitest prints an error thrown here ("error during close") but exits 0 all the same: the exit code says it.
  process.exitCode = 1;
  throw new Error(`${leftovers.length} process(es) the tests started were still running at the end (now killed):\n${list}`);
}
