import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';

/**
 * A project's or an environment's name, its id under it (what stacks and templates name) and
 * what it is for; `name` replaces the plain name (a button that opens the project, say).
 */
export const NamedResourceName = ({
  resource,
  name,
}: {
  resource: { name: string; givenId: string; description?: string };
  name?: ReactNode;
}) => (
  <Box minWidth="10em">
    {name ?? <Typography variant="body2">{resource.name}</Typography>}
    <Typography variant="caption" component="p">
      <code style={{ whiteSpace: 'nowrap' }}>{resource.givenId}</code>
    </Typography>
    {resource.description && (
      <Typography variant="caption" component="p" color="textSecondary">
        {resource.description}
      </Typography>
    )}
  </Box>
);
