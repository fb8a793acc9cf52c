import ansiRegex from 'ansi-regex';
import { find } from 'linkifyjs';

/**
 * A control sequence Backstage's LogViewer shows nothing for and styles nothing with (SGR 10,
 * "primary font", which changes nothing in a terminal either), but which ends a run of text.
 */
export const RUN_BREAK = '\u001b[10m';

/**
 * A run with a break wherever linkify would take part of it for a host name: a link it
 * completes with a scheme (`main.tf` to http://main.tf), not one written whole (`https://…`).
 */
function breakRun(run: string): string {
  const bare = find(run).find(link => link.href !== link.value);
  if (!bare) return run;
  // Before its first dot ("main" | ".tf"), or after its first letter when it has none
  // ("localhost"); then the pieces, which linkify reads one by one, are looked at again.
  const cut = bare.start + Math.max(bare.value.indexOf('.', 1), 1);
  return breakRun(run.slice(0, cut)) + RUN_BREAK + breakRun(run.slice(cut));
}

/**
 * A log line as LogViewer should get it for only what is written as a URL (`https://…`) to be
 * a link. LogViewer links whatever linkify takes for a host name: Terraform's `main.tf`
 * became a link to http://main.tf, `module.network.aws_subnet` one to http://module.network.aws.
 * The viewer linkifies each run of text between ANSI control sequences on its own, so a
 * sequence it ignores, put where such a name would be read, leaves no run that looks like a
 * host; the text shown, searched, selected and copied stays the same.
 */
export function linksAsWritten(line: string): string {
  let result = '';
  let at = 0;
  // The runs as LogViewer splits them (with the same ansi-regex), never inside a sequence.
  for (const sequence of line.matchAll(ansiRegex())) {
    result += breakRun(line.slice(at, sequence.index)) + sequence[0];
    at = sequence.index! + sequence[0].length;
  }
  return result + breakRun(line.slice(at));
}
