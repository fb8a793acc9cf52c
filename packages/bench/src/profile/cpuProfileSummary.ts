import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) this summary reads. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
  /** Microseconds of the monotonic clock (`process.hrtime`) when profiling began. */
  startTime: number;
}

const USAGE = `yarn bench:profile <file.cpuprofile>               how busy the process was, second by second
yarn bench:profile <file.cpuprofile> <from> <to> [n]  the n functions (default 40) with the most
                                                     self time between second <from> and <to>
yarn bench:profile <file.cpuprofile> --window <from µs> <to µs> [n]   the same for a window on the
                                                     monotonic clock (a stall the bench printed)
yarn bench:profile <file.cpuprofile> --stretches [n]  the n longest stretches (default 10) the
                                                     process spent on one stack without a break`;

/** Frames of a stretch's stack printed, innermost first. */
const STRETCH_FRAMES = 12;

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
  if (
    !file ||
    (from !== undefined && from !== '--stretches' && to === undefined)
  ) {
    throw new Error(USAGE);
  }
  // `yarn bench:profile` runs in this package's directory; a relative path is the caller's.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  if (from === '--stretches') {
    return longestStretches(profile, Number(to ?? 10));
  }
  if (from === '--window') {
    const second = (us: string) =>
      String((Number(us) - profile.startTime) / 1e6);
    return summariseCpuProfile([file, second(to), second(count), argv[4]]);
  }
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

/** Samples that belong to whatever the process was doing: they neither start nor end a stretch. */
const ALONG = new Set(['(program)', '(garbage collector)']);

/**
 * The longest stretches the process spent in one call without a break: a synchronous call that
 * holds the event loop (a SQLite statement under better-sqlite3, a large `JSON.parse`) is sampled
 * in it again and again (its own frame, or functions it calls, or the collector), where a busy
 * loop of short tasks moves from call to call. Each is printed with the second it began and the
 * stack of the innermost call every sample of it was in, innermost first.
 */
export function longestStretches(profile: CpuProfile, count: number): string {
  const nodes = new Map(profile.nodes.map(node => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parents.set(child, node.id);
    }
  }
  const name = (id: number) => nodes.get(id)!.callFrame.functionName;
  const ancestry = (id: number) => {
    const chain: number[] = [];
    for (
      let at: number | undefined = id;
      at !== undefined;
      at = parents.get(at)
    ) {
      chain.unshift(at);
    }
    return chain;
  };
  /**
   * The innermost call both are in, or undefined when they share no more than the root and the
   * outermost frame (the timers', the microtask queue's: two tasks in a row share that).
   */
  const common = (a: number[], b: number[]) => {
    let depth = 0;
    while (depth < a.length && depth < b.length && a[depth] === b[depth]) {
      depth++;
    }
    return depth > 2 ? a.slice(0, depth) : undefined;
  };

  const stretches: { chain: number[]; startUs: number; us: number }[] = [];
  let current: { chain: number[]; startUs: number; us: number } | undefined;
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    // A sample's delta is the time since the sample before: time spent where that one was.
    const delta = profile.timeDeltas[index] ?? 0;
    if (current) {
      current.us += delta;
    }
    elapsedUs += delta;
    if (ALONG.has(name(id))) {
      return;
    }
    const shared =
      current && name(id) !== '(idle)'
        ? common(current.chain, ancestry(id))
        : undefined;
    if (shared) {
      current!.chain = shared;
    } else if (name(id) === '(idle)') {
      current = undefined;
    } else {
      current = { chain: ancestry(id), startUs: elapsedUs, us: 0 };
      stretches.push(current);
    }
  });
  const stackOf = (chain: number[]) =>
    chain
      .slice(1)
      .reverse()
      .slice(0, STRETCH_FRAMES)
      .map(id => `    ${frameName(nodes.get(id)!.callFrame)}`);
  return stretches
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .flatMap(stretch => [
      `${(stretch.us / 1e3).toFixed(1)} ms from second ${(
        stretch.startUs / 1e6
      ).toFixed(2)}:`,
      ...stackOf(stretch.chain),
    ])
    .join('\n');
}
