import { useApi } from '@backstage/frontend-plugin-api';
import { useSignal } from '@backstage/plugin-signals-react';
import {
  InfraDeliveryClient,
  STEP_LOG_SIGNAL_CHANNEL,
  StepLogLine,
  StepLogSignal,
  StepStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { LIVE_POLL_MS } from '../common/livePolling';
import { useLivePolling } from '../common/useLivePolling';

/** Log lines per request: the most the service answers with. */
export const STEP_LOGS_PAGE_SIZE = 500;
/** How often an active step's logs are read again, should a signal not arrive. */
export const STEP_LOGS_POLL_MS = LIVE_POLL_MS;

/** A step's log lines as read so far, page by page. */
interface ReadLogs {
  /** The lines of every page before the last one: full pages, they do not change any more. */
  settled: StepLogLine[];
  /** The lines of the last page, which grows while the step runs. */
  tail: StepLogLine[];
  /** The cursor that fetched the last page; undefined when it is the first page. */
  tailCursor?: string;
}

/** Reads every page from `cursor` (from the first line without one) to the last page. */
async function readFrom(
  client: InfraDeliveryClient,
  stepId: string,
  cursor: string | undefined,
): Promise<ReadLogs> {
  const settled: StepLogLine[] = [];
  let current = cursor;
  for (;;) {
    const page = await client.call('listStepExecutionLogs', {
      params: { id: stepId },
      query: {
        limit: STEP_LOGS_PAGE_SIZE,
        ...(current ? { cursor: current } : {}),
      },
    });
    if (!page.meta.nextCursor) {
      return { settled, tail: page.data, tailCursor: current };
    }
    settled.push(...page.data);
    current = page.meta.nextCursor;
  }
}

/**
 * Every log line of a step, kept current: when the backend announces new lines of the step,
 * when its status changes, and every few seconds while it runs, the last page is read again
 * from the cursor that fetched it (and any page after it), and replaces that page's lines.
 * Lines already shown stay: nothing is read twice but the last page, and nothing flickers.
 *
 * Mount it once per step (e.g. with the step's id as key).
 */
export function useStepLogs(stepId: string, status: StepStatus) {
  const client = useApi(infraDeliveryApiRef);
  const [logs, setLogs] = useState<ReadLogs>();
  const [error, setError] = useState<Error>();
  const known = useRef<ReadLogs>();
  // One read at a time; a reload asked for during a read runs once after it.
  const reading = useRef({ busy: false, again: false });

  const reload = useCallback(async () => {
    if (reading.current.busy) {
      reading.current.again = true;
      return;
    }
    reading.current.busy = true;
    do {
      reading.current.again = false;
      const before = known.current;
      try {
        const read = await readFrom(client, stepId, before?.tailCursor);
        const next = {
          ...read,
          settled: [...(before?.settled ?? []), ...read.settled],
        };
        known.current = next;
        setLogs(next);
        setError(undefined);
      } catch (e) {
        setError(e as Error);
      }
    } while (reading.current.again);
    reading.current.busy = false;
  }, [client, stepId]);

  // The first read, and another whenever the step's status changes (e.g. it ended).
  useEffect(() => {
    reload();
  }, [reload, status]);

  const { lastSignal } = useSignal<StepLogSignal>(STEP_LOG_SIGNAL_CHANNEL);
  const latestReload = useRef(reload);
  latestReload.current = reload;
  useEffect(() => {
    if (lastSignal?.stepExecutionId === stepId) {
      latestReload.current();
    }
  }, [lastSignal, stepId]);

  // A queued step is read too: its runner's first lines may come before the view learns of
  // the claim. Not while the page is out of sight; at once when it is back.
  useLivePolling(
    reload,
    status === 'RUNNING' || status === 'QUEUED' ? STEP_LOGS_POLL_MS : null,
  );

  const lines = useMemo(
    () => (logs ? [...logs.settled, ...logs.tail] : []),
    [logs],
  );
  return { lines, loading: !logs && !error, error };
}
