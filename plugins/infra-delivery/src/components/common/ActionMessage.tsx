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
  /**
   * The id of the run or deployment the message speaks of while it is under way ("the apply
   * runs next", "a rollback started"): the message goes once the view says it has ended.
   */
  whileUnderWay?: string;
}

/**
 * The outcome of the last action a person took on a view, said until the next one, until they
 * close it, or, for one that speaks of work under way, until `hasEnded` says that work ended:
 * "Approved: the apply runs next." stood above the run's Succeeded. `say` is stable, so it can
 * be passed to callbacks freely.
 */
export function useActionMessage(hasEnded?: (id: string) => boolean): {
  message: ReactNode;
  say: (outcome: Outcome) => void;
} {
  const [said, setOutcome] = useState<Outcome>();
  const say = useCallback((next: Outcome) => setOutcome(next), []);
  const outcome =
    said?.whileUnderWay && hasEnded?.(said.whileUnderWay) ? undefined : said;
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
