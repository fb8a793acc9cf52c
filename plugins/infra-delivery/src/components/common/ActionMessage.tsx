import { Link } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Alert from '@material-ui/lab/Alert';
import { ReactNode, useCallback, useEffect, useReducer, useState } from 'react';

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
  /**
   * What the message says instead once that work has ended, while it still stands: "Approved:
   * the apply runs next." read wrong above the run's Succeeded.
   */
  onceEnded?: string;
}

/**
 * How long a message about work under way stands at least: a local runner plans in a second,
 * and "A plan of Network has started. Follow the run" went before anyone could follow it.
 */
export const UNDER_WAY_MESSAGE_MIN_MS = 10_000;

/**
 * The outcome of the last action a person took on a view, said until the next one, until they
 * close it, or, for one that speaks of work under way, until `hasEnded` says that work ended
 * (and it has stood `UNDER_WAY_MESSAGE_MIN_MS`; until then it says its `onceEnded` instead):
 * "Approved: the apply runs next." stood above the run's Succeeded. `say` is stable, so it can
 * be passed to callbacks freely.
 */
export function useActionMessage(hasEnded?: (id: string) => boolean): {
  message: ReactNode;
  say: (outcome: Outcome) => void;
} {
  const [said, setSaid] = useState<{ outcome: Outcome; at: number }>();
  const say = useCallback(
    (next: Outcome) => setSaid({ outcome: next, at: Date.now() }),
    [],
  );
  // Looks again once the message has stood long enough, whether or not the view changes then.
  const [, lookAgain] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!said?.outcome.whileUnderWay) return undefined;
    const timer = setTimeout(lookAgain, UNDER_WAY_MESSAGE_MIN_MS);
    return () => clearTimeout(timer);
  }, [said]);
  const underWay = said?.outcome.whileUnderWay;
  const ended = underWay !== undefined && Boolean(hasEnded?.(underWay));
  const gone =
    ended &&
    said !== undefined &&
    Date.now() - said.at >= UNDER_WAY_MESSAGE_MIN_MS;
  const outcome = gone ? undefined : said?.outcome;
  const text = ended ? outcome?.onceEnded ?? outcome?.text : outcome?.text;
  const message = outcome && (
    <Box marginBottom={2}>
      <Alert
        severity="success"
        role="status"
        onClose={() => setSaid(undefined)}
        action={
          outcome.open && (
            <Button color="inherit" size="small" onClick={outcome.open.onClick}>
              {outcome.open.label}
            </Button>
          )
        }
      >
        {text}
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
