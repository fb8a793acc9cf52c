import { Link } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Alert from '@material-ui/lab/Alert';
import { ReactNode, useCallback, useState } from 'react';

/** What an action did, and where to follow it: a link, or a button that opens it in place. */
export interface Outcome {
  text: string;
  link?: { to: string; label: string };
  open?: { label: string; onClick: () => void };
}

/**
 * The outcome of the last action a person took on a view, said until the next one or until
 * they close it. `say` is stable, so it can be passed to callbacks freely.
 */
export function useActionMessage(): {
  message: ReactNode;
  say: (outcome: Outcome) => void;
} {
  const [outcome, setOutcome] = useState<Outcome>();
  const say = useCallback((next: Outcome) => setOutcome(next), []);
  const message = outcome && (
    <Box marginBottom={2}>
      <Alert
        severity="success"
        role="status"
        onClose={() => setOutcome(undefined)}
        action={
          outcome.open && (
            <Button color="inherit" size="small" onClick={outcome.open.onClick}>
              {outcome.open.label}
            </Button>
          )
        }
      >
        {outcome.text}
        {outcome.link && (
          <>
            {' '}
            <Link to={outcome.link.to} underline="always">
              {outcome.link.label}
            </Link>
          </>
        )}
      </Alert>
    </Box>
  );
  return { message, say };
}
