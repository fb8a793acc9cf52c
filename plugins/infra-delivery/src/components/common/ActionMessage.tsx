import { Link } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Alert from '@material-ui/lab/Alert';
import {
  createContext,
  ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';

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

/** The actions people started in an `ActionMessageScope`, counted. */
const ActionScopeContext = createContext<
  | {
      /** How many actions have started, as last rendered. */
      actions: number;
      /** How many have started by now, also before the next render. */
      latest: () => number;
      started: () => void;
    }
  | undefined
>(undefined);

/**
 * A view whose parts each say the outcome of their own actions (the Organization tab's cards):
 * within it, the outcome of an action goes once another one starts anywhere in the view.
 * "CI bot is deleted." stood in one card above the error of a later invitation in another.
 */
export const ActionMessageScope = ({ children }: { children: ReactNode }) => {
  const count = useRef(0);
  const [actions, setActions] = useState(0);
  const latest = useCallback(() => count.current, []);
  const started = useCallback(() => {
    count.current += 1;
    setActions(count.current);
  }, []);
  const value = useMemo(
    () => ({ actions, latest, started }),
    [actions, latest, started],
  );
  return (
    <ActionScopeContext.Provider value={value}>
      {children}
    </ActionScopeContext.Provider>
  );
};

const nothingToTell = () => {};

/** To call when a person starts an action: in an `ActionMessageScope`, older outcomes go. */
export function useActionStarted(): () => void {
  return useContext(ActionScopeContext)?.started ?? nothingToTell;
}

/**
 * The outcome of an action (what it did, or its error), kept until it is set again; in an
 * `ActionMessageScope`, also until another action starts there. The setter is stable.
 */
export function useActionOutcome<T>(): [
  T | undefined,
  (next: T | undefined) => void,
] {
  const scope = useContext(ActionScopeContext);
  const latest = scope?.latest;
  const [kept, setKept] = useState<{ value: T; after?: number }>();
  const set = useCallback(
    (next: T | undefined) =>
      setKept(
        next === undefined ? undefined : { value: next, after: latest?.() },
      ),
    [latest],
  );
  const current =
    kept && (scope === undefined || kept.after === scope.actions)
      ? kept.value
      : undefined;
  return [current, set];
}

/**
 * How long a message about work under way stands at least: a local runner plans in a second,
 * and "A plan of Network has started. Follow the run" went before anyone could follow it.
 */
export const UNDER_WAY_MESSAGE_MIN_MS = 10_000;

/**
 * The outcome of the last action a person took on a view, said until the next one (in an
 * `ActionMessageScope`, the next one anywhere in it), until they close it, or, for one that
 * speaks of work under way, until `hasEnded` says that work ended (and it has stood
 * `UNDER_WAY_MESSAGE_MIN_MS`; until then it says its `onceEnded` instead): "Approved: the apply
 * runs next." stood above the run's Succeeded. `say` is stable, so it can be passed to
 * callbacks freely.
 */
export function useActionMessage(
  hasEnded?: (id: string) => boolean,
  /**
   * What to say of the work under way as it stands now, where it can change what the message
   * says: "A plan of Network has started." read wrong above the plan's "Waiting for approval".
   */
  asItStands?: (id: string) => Outcome | undefined,
): {
  message: ReactNode;
  say: (outcome: Outcome) => void;
} {
  const [said, setSaid] = useActionOutcome<{ outcome: Outcome; at: number }>();
  const say = useCallback(
    (next: Outcome) => setSaid({ outcome: next, at: Date.now() }),
    [setSaid],
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
  const current = underWay === undefined ? undefined : asItStands?.(underWay);
  const outcome = gone ? undefined : current ?? said?.outcome;
  const text = ended ? outcome?.onceEnded ?? outcome?.text : outcome?.text;
  const message = outcome && (
    <Box marginBottom={2}>
      <Alert
        severity="success"
        role="status"
        // Focus lands here when the action's own button is gone (ConfirmActionButton).
        tabIndex={-1}
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
