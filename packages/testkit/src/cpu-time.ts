import { existsSync, readFileSync } from 'node:fs';

/** CPU time (user + system) a process has used, in milliseconds; 0 where /proc is missing. */
export function processCpuMs(pid: number | undefined): number {
  const stat = `/proc/${pid}/stat`;
  if (!pid || !existsSync(stat)) return 0;
  const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks are 1/100 s on Linux
}

/** CPU time in clock ticks, summed over the machine's CPUs. */
export interface MachineTicks {
  /** User, nice, system and interrupts. */
  busy: number;
  /** Given by a hypervisor to other machines. */
  stolen: number;
  /** Busy, idle, I/O wait and stolen. */
  total: number;
}

/** The machine's CPU time so far; zeros where /proc is missing. */
export function machineTicks(): MachineTicks {
  if (!existsSync('/proc/stat')) return { busy: 0, stolen: 0, total: 0 };
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user! + nice! + system! + irq! + softirq!;
  return { busy, stolen: steal!, total: busy + idle! + iowait! + steal! };
}

/** The shares of the machine's CPU time busy (by any process) and stolen between two readings. */
export function machineShares(before: MachineTicks, after: MachineTicks = machineTicks()): { busy: number; stolen: number } {
  const elapsed = Math.max(1, after.total - before.total);
  return { busy: (after.busy - before.busy) / elapsed, stolen: (after.stolen - before.stolen) / elapsed };
}
