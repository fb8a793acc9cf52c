import {
  Attributes,
  Counter,
  Histogram,
  Meter,
  metrics,
} from '@opentelemetry/api';
import {
  RunKind,
  RunStatus,
  StepStatus,
  StepType,
} from '@infra-delivery/plugin-infra-delivery-common';
import { RunEndListener } from '../database/PipelineRunStore';

/**
 * What the work queue holds, across organizations: read by the observable gauges, at most once
 * per {@link QUEUE_READ_INTERVAL_MS}.
 */
export interface QueueFigures {
  /** Runs waiting for admission (QUEUED). */
  queuedRuns: number;
  /** Runner steps (IaC) of running runs waiting for a runner's claim. */
  stepsWaitingForRunner: number;
  /** Runners seen within the online window, not signed off or taken offline. */
  onlineRunners: number;
}

/**
 * How long the queue's figures are reused: a scrape every few seconds, or several readers,
 * cost three index counts at most this often.
 */
export const QUEUE_READ_INTERVAL_MS = 10_000;

/** How a webhook delivery from a forge ended for the service. */
export type WebhookDeliveryOutcome =
  /** Authentic and recorded; processed in the background. */
  | 'accepted'
  /** Its delivery id was recorded before: nothing done again. */
  | 'duplicate'
  /** Refused at the endpoint: no such App endpoint, a missing or wrong signature, a bad body. */
  | 'rejected'
  /** Authentic or not, it could not be recorded (5xx: the database away); GitHub shows it failed. */
  | 'unrecorded'
  /** Processed: runs triggered or the delivery ignored, per organization. */
  | 'processed'
  /** Failed for a while (the forge or the database away); tried again later. */
  | 'retried'
  /** Failed for good: an operator looks at the delivery's reason. */
  | 'failed';

/** Seconds as OpenTelemetry's `s` unit wants them, from milliseconds. */
function seconds(ms: number): number {
  return Math.max(0, ms) / 1000;
}

/** Bucket bounds, in seconds, for waits and step durations: 1 s to 1 h. */
const DURATION_BUCKETS = [
  0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600,
];

/**
 * The service's OpenTelemetry metrics, named `infra_delivery.*`. Attributes are few and bounded
 * (a run's status and kind, a step's type, a delivery's outcome): never a run, stack or
 * organization id.
 *
 * Recorded through `@opentelemetry/api` rather than Backstage's alpha MetricsService, as the
 * catalog and scaffolder backends do: the plugin then starts in any backend, one that provides
 * no MetricsService included, and costs a no-op call until the portal registers an
 * OpenTelemetry SDK (docs: "Metrics" in the plugin's README).
 */
export class DeliveryMetrics implements RunEndListener {
  private readonly runsTriggered: Counter;
  private readonly runsFinished: Counter;
  private readonly stepWait: Histogram;
  private readonly stepDuration: Histogram;
  private readonly databaseUnavailableAnswers: Counter;
  private readonly webhookDeliveries: Counter;

  constructor(
    private readonly meter: Meter = metrics.getMeter(
      '@infra-delivery/plugin-infra-delivery-backend',
    ),
  ) {
    this.runsTriggered = meter.createCounter('infra_delivery.runs.triggered', {
      description: 'Pipeline runs created (queued), by kind',
      unit: '{run}',
    });
    this.runsFinished = meter.createCounter('infra_delivery.runs.finished', {
      description:
        'Pipeline runs that ended, by status (SUCCEEDED, FAILED, CANCELLED)',
      unit: '{run}',
    });
    this.stepWait = meter.createHistogram(
      'infra_delivery.step.runner_wait.duration',
      {
        description:
          'How long a runner step waited, queued, until a runner claimed it',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      },
    );
    this.stepDuration = meter.createHistogram('infra_delivery.step.duration', {
      description:
        'How long a runner step ran, from its claim to its runner’s report, by type and status',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.databaseUnavailableAnswers = meter.createCounter(
      'infra_delivery.http.database_unavailable',
      {
        description:
          'Requests answered 503 because the database could not be reached',
        unit: '{request}',
      },
    );
    this.webhookDeliveries = meter.createCounter(
      'infra_delivery.webhook.deliveries',
      {
        description: 'Forge (GitHub) webhook deliveries, by outcome',
        unit: '{delivery}',
      },
    );
  }

  /** A run was created; a run that names no kind is a STANDARD one. */
  runTriggered(kind: RunKind = 'STANDARD'): void {
    this.runsTriggered.add(1, { 'infra_delivery.run.kind': kind });
  }

  /** A committed write ended a run (the stores' {@link RunEndListener}). */
  runEnded(status: RunStatus): void {
    this.runsFinished.add(1, { 'infra_delivery.run.status': status });
  }

  /** A runner claimed a step queued since `queuedAt`. */
  stepClaimed(type: StepType, queuedAt: string, claimedAt: Date): void {
    this.stepWait.record(seconds(claimedAt.getTime() - Date.parse(queuedAt)), {
      'infra_delivery.step.type': type,
    });
  }

  /** A runner reported a step (its result, or that it stopped the cancelled step). */
  stepReported(
    step: { type: StepType; status: StepStatus; startedAt?: string },
    reportedAt: Date,
  ): void {
    if (!step.startedAt) {
      return;
    }
    const attributes: Attributes = {
      'infra_delivery.step.type': step.type,
      'infra_delivery.step.status': step.status,
    };
    this.stepDuration.record(
      seconds(reportedAt.getTime() - Date.parse(step.startedAt)),
      attributes,
    );
  }

  databaseUnavailable(): void {
    this.databaseUnavailableAnswers.add(1);
  }

  webhookDelivery(outcome: WebhookDeliveryOutcome): void {
    this.webhookDeliveries.add(1, {
      'infra_delivery.webhook.outcome': outcome,
    });
  }

  /**
   * Observes the queue through `read`, reused for {@link QUEUE_READ_INTERVAL_MS}: a read that
   * fails (the database away) observes nothing, so the gauges keep their last values rather
   * than a zero that would say the queue emptied; the next collection reads again.
   */
  observeQueue(
    read: () => Promise<QueueFigures>,
    options: { intervalMs?: number; now?: () => number } = {},
  ): () => void {
    const intervalMs = options.intervalMs ?? QUEUE_READ_INTERVAL_MS;
    const now = options.now ?? Date.now;
    let latest: { at: number; figures: Promise<QueueFigures> } | undefined;
    const figures = (): Promise<QueueFigures> => {
      const at = now();
      if (!latest || at - latest.at >= intervalMs) {
        const reading = read();
        latest = { at, figures: reading };
        // A failed read is not reused: the next collection asks again.
        reading.catch(() => {
          if (latest?.figures === reading) {
            latest = undefined;
          }
        });
      }
      return latest.figures;
    };
    const queuedRuns = this.meter.createObservableGauge(
      'infra_delivery.queue.runs',
      {
        description: 'Pipeline runs waiting for admission (QUEUED)',
        unit: '{run}',
      },
    );
    const waitingSteps = this.meter.createObservableGauge(
      'infra_delivery.queue.steps_waiting_for_runner',
      {
        description:
          'Runner steps of running runs queued until a runner claims them',
        unit: '{step}',
      },
    );
    const onlineRunners = this.meter.createObservableGauge(
      'infra_delivery.runners.online',
      {
        description: 'Runners seen within the online window',
        unit: '{runner}',
      },
    );
    const observables = [queuedRuns, waitingSteps, onlineRunners];
    const callback = async (result: {
      observe(observable: (typeof observables)[number], value: number): void;
    }) => {
      let queue: QueueFigures;
      try {
        queue = await figures();
      } catch {
        return;
      }
      result.observe(queuedRuns, queue.queuedRuns);
      result.observe(waitingSteps, queue.stepsWaitingForRunner);
      result.observe(onlineRunners, queue.onlineRunners);
    };
    this.meter.addBatchObservableCallback(callback, observables);
    return () =>
      this.meter.removeBatchObservableCallback(callback, observables);
  }
}
