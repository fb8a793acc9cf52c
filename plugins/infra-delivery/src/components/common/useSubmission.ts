import { alertApiRef, useApiHolder } from '@backstage/frontend-plugin-api';
import { useEffect, useRef, useState } from 'react';
import { useSilentFor } from './useSilentFor';

/**
 * One request a form sends: `submit` runs `send` (which sends it and says what came of it);
 * while it is under way `busy` is true, and a refusal is kept in `error` for the form to show.
 * Once the service has not answered for long, `silentFor` counts the seconds: the form says so
 * and lets the person close it. The request goes on; if it fails after the form was closed
 * (unmounted, or `shown` says it is not), the refusal is posted as an alert instead, so that
 * no outcome is lost (a success says itself through `send`).
 */
export function useSubmission(
  send: () => Promise<void>,
  {
    what = 'The request',
    shown,
  }: {
    /** What failed, in an alert: "Approve". */
    what?: string;
    /** Whether the form is open, where it stays mounted when closed. */
    shown?: () => boolean;
  } = {},
) {
  const [since, setSince] = useState<number>();
  const [error, setError] = useState<Error>();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const alertApi = useApiHolder().get(alertApiRef);
  const silentFor = useSilentFor(since);
  const submit = async () => {
    setSince(Date.now());
    setError(undefined);
    try {
      await send();
    } catch (e) {
      if (mounted.current && (shown?.() ?? true)) {
        setError(e as Error);
      } else {
        alertApi?.post({
          message: `${what} failed: ${(e as Error).message}`,
          severity: 'error',
        });
      }
    } finally {
      setSince(undefined);
    }
  };
  return { busy: since !== undefined, error, submit, silentFor };
}
