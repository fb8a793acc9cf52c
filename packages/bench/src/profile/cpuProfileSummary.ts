import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) this summary reads. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
}

const USAGE = `yarn bench:profile <file.cpuprofile>               how busy the process was, second by second
yarn bench:profile <file.cpuprofile> <from> <to> [n]  the n functions (default 40) with the most
                                                     self time between second <from> and <to>`;

/** `node_modules/…/x.js` and this repository's paths, shortened. */
function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const where = frame.url
    .replace(/.*node_modules\//, '')
    .replace(/.*\/(plugins|packages)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${where}:${
    frame.lineNumber + 1
  }`;
}

/**
 * Summarises a CPU profile of the bench backend (`BENCH_BACKEND_NODE_ARGS="--cpu-prof …"`,
 * docs/benchmarks.md). The backend serves one load after another, so the seconds of a profile
 * tell the loads apart: without a window it prints the share of each second the process was
 * busy (the loads are the busy stretches, each followed by its middleware floor's); with one,
 * the functions with the most self time in it.
 */
export function summariseCpuProfile(argv: string[]): string {
  const [file, from, to, count] = argv;
  if (!file || (from !== undefined && to === undefined)) {
    throw new Error(USAGE);
  }
  // `yarn bench:profile` runs in this package's directory; a relative path is the caller's.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map(node => [node.id, node]));
  const busyPerSecond: { busy: number; idle: number }[] = [];
  const selfTime = new Map<string, number>();
  let elapsedUs = 0;
  let windowUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    elapsedUs += delta;
    const second = Math.floor(elapsedUs / 1e6);
    const frame = nodes.get(id)!.callFrame;
    const slot = (busyPerSecond[second] ??= { busy: 0, idle: 0 });
    slot[frame.functionName === '(idle)' ? 'idle' : 'busy'] += delta;
    const at = elapsedUs / 1e6;
    if (from !== undefined && at >= Number(from) && at < Number(to)) {
      windowUs += delta;
      const name = frameName(frame);
      selfTime.set(name, (selfTime.get(name) ?? 0) + delta);
    }
  });
  if (from === undefined) {
    return Array.from(busyPerSecond, (slot, second) =>
      slot
        ? `${second}:${Math.round(
            (100 * slot.busy) / (slot.busy + slot.idle || 1),
          )}%`
        : `${second}:-`,
    ).join(' ');
  }
  const lines = [...selfTime]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(count ?? 40))
    .map(
      ([name, us]) =>
        `${((100 * us) / (windowUs || 1)).toFixed(1).padStart(5)} %  ${name}`,
    );
  return [
    `seconds ${from}–${to}: ${(windowUs / 1e3).toFixed(0)} ms of samples`,
    ...lines,
  ].join('\n');
}
