import { StackGitTrigger } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * A glob relative to the repository root as a regular expression over whole paths: `**`
 * matches any number of segments (`a/**` also matches `a` itself), `*` and `?` stay within a
 * segment. Everything else is literal.
 */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === '*' && glob[i + 1] === '*') {
      const atSegmentStart = i === 0 || glob[i - 1] === '/';
      const followedBySlash = glob[i + 2] === '/';
      if (atSegmentStart && followedBySlash) {
        pattern += '(?:.*/)?';
        i += 2;
      } else if (atSegmentStart && i + 2 === glob.length && i > 0) {
        // `dir/**`: the directory itself or anything under it.
        pattern = `${pattern.slice(0, -1)}(?:/.*)?`;
        i += 1;
      } else {
        pattern += '.*';
        i += 1;
      }
    } else if (char === '*') {
      pattern += '[^/]*';
    } else if (char === '?') {
      pattern += '[^/]';
    } else {
      pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${pattern}$`);
}

/** `infra/network/` → `infra/network`; `''`, `.` and `/` → the repository root. */
function normalisedDirectory(path: string | undefined): string {
  return (path ?? '').replace(/^\.?\/+|\/+$/g, '').replace(/^\.$/, '');
}

/**
 * Whether changed files touch a stack: a file matching one of the trigger's path filters, or
 * without filters any file under the stack's path (any file at all when the stack has none).
 */
export function touchesStack(
  trigger: Pick<StackGitTrigger, 'pathFilters'>,
  stackPath: string | undefined,
  changedPaths: readonly string[],
): boolean {
  if (trigger.pathFilters && trigger.pathFilters.length > 0) {
    const filters = trigger.pathFilters.map(globToRegExp);
    return changedPaths.some(path => filters.some(filter => filter.test(path)));
  }
  const directory = normalisedDirectory(stackPath);
  if (!directory) {
    return changedPaths.length > 0;
  }
  return changedPaths.some(
    path => path === directory || path.startsWith(`${directory}/`),
  );
}
