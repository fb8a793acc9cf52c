import { TaskDefinitionSnapshot } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';

/**
 * The key of an array item in a path: its `name` when every item of the array has one
 * (containers, environment variables, secrets), so that reordering does not read as a change
 * of every item; otherwise its position.
 */
function itemKeys(items: unknown[]): string[] {
  const names = items.map(item =>
    item && typeof item === 'object'
      ? (item as Record<string, unknown>).name
      : undefined,
  );
  return names.every(name => typeof name === 'string') &&
    new Set(names).size === names.length
    ? (names as string[])
    : items.map((_, i) => String(i));
}

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (value && typeof value === 'object') {
    const entries: [string, unknown][] = Array.isArray(value)
      ? itemKeys(value).map((key, i) => [key, value[i]])
      : Object.entries(value as Record<string, unknown>);
    for (const [key, item] of entries) {
      const path = prefix ? `${prefix}.${key}` : key;
      for (const [k, v] of flatten(item, path)) out.set(k, v);
    }
  } else if (prefix) {
    out.set(prefix, JSON.stringify(value));
  }
  return out;
}

/** What changes between two task definitions, one line per changed field. */
export function taskDefinitionChanges(
  from: unknown,
  to: unknown,
): { path: string; before?: string; after?: string }[] {
  const before = flatten(from);
  const after = flatten(to);
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths
    .filter(path => before.get(path) !== after.get(path))
    .map(path => ({ path, before: before.get(path), after: after.get(path) }));
}

/**
 * The fields (image, cpu and memory, environment variables, ports, …) that differ between
 * two registered task definitions.
 */
export const TaskDefinitionDiff = ({
  from,
  to,
}: {
  from?: TaskDefinitionSnapshot;
  to?: TaskDefinitionSnapshot;
}) => {
  const changes = taskDefinitionChanges(from?.definition, to?.definition);
  if (changes.length === 0) {
    return <Typography>The task definitions are identical.</Typography>;
  }
  return (
    <Box
      component="pre"
      fontSize={12}
      margin={0}
      overflow="auto"
      maxHeight={320}
    >
      {changes
        .map(
          c =>
            `${c.path}\n  - ${c.before ?? '(absent)'}\n  + ${
              c.after ?? '(absent)'
            }`,
        )
        .join('\n')}
    </Box>
  );
};
