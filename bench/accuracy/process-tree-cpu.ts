// CPU time of this process and every process it started (the vision engine reads in forked workers,
// whose CPU `process.cpuUsage()` does not see). Linux reads /proc; elsewhere only this process counts,
// and `covers` says so.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on every mainstream Linux). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks (children that ended count in their parent's c-times). */
  ticks: number;
}

function readStat(pid: string): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const number = (at: number) => Number(fields[at - 3]);
    return { pid: Number(pid), ppid: number(4), ticks: number(14) + number(15) + number(16) + number(17) };
  } catch {
    return null; // the process ended meanwhile
  }
}

/**
 * A reading of the CPU milliseconds used so far by this process and its descendants; subtract two
 * readings to time a piece of work.
 *
 * @example
 * const before = processTreeCpuMs(); await work(); const ms = processTreeCpuMs().ms - before.ms;
 */
export function processTreeCpuMs(): { ms: number; covers: 'process_tree' | 'this_process' } {
  const own = process.cpuUsage();
  const ownMs = (own.user + own.system) / 1000;
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return { ms: ownMs, covers: 'this_process' };
  }
  const stats = entries.map(readStat).filter((stat): stat is ProcStat => stat !== null);
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  let ticks = 0;
  const queue = [...(children.get(process.pid) ?? [])];
  while (queue.length) {
    const stat = queue.pop()!;
    ticks += stat.ticks;
    queue.push(...(children.get(stat.pid) ?? []));
  }
  return { ms: ownMs + (ticks * 1000) / TICKS_PER_SECOND, covers: 'process_tree' };
}
