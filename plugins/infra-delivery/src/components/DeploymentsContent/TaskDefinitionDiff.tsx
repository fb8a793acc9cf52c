import { Deployment } from '@internal/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(
      value as Record<string, unknown>,
    )) {
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

export const TaskDefinitionDiff = ({
  from,
  to,
}: {
  from?: Deployment;
  to: Deployment;
}) => {
  const changes = taskDefinitionChanges(
    from?.data.deployedTaskDefinition?.definition,
    to.data.deployedTaskDefinition?.definition,
  );
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
