import { CloudMetricQuery } from '@infra-delivery/plugin-infra-delivery-common';
import { InfraDeliveryError } from '../errors';
import { MetricDimension, MetricQuery } from '../providers/CloudProvider';

/**
 * The metric rules of the specification (§4.5), checked before any provider is called, and
 * the normal form of a query (canonical statistic, sorted dimensions) that caching keys on.
 */

const DAY_SECONDS = 24 * 3600;
export const RETENTION_DAYS = 455;
export const MAX_METRIC_DIMENSIONS = 30;
/**
 * A caller's clock may run a little ahead of ours: an end up to this far in the future still
 * counts as "now" rather than as a future end.
 */
export const CLOCK_SKEW_SECONDS = 60;

/** CloudWatch keeps finer data only for shorter windows: the smallest period per window. */
const GRANULARITY_FLOORS = [
  { maxWindowSeconds: 15 * DAY_SECONDS, minPeriodSeconds: 60 },
  { maxWindowSeconds: 63 * DAY_SECONDS, minPeriodSeconds: 300 },
  { maxWindowSeconds: RETENTION_DAYS * DAY_SECONDS, minPeriodSeconds: 3600 },
];

const STATISTICS = ['Average', 'Sum', 'Minimum', 'Maximum', 'SampleCount'];
const PERCENTILE = /^p(\d{1,2}(\.\d{1,2})?|100)$/i;

function ruleViolation(
  reason: string,
  message: string,
  metadata?: Record<string, unknown>,
) {
  return new InfraDeliveryError({
    status: 400,
    entity: 'MetricQuery',
    reason,
    message,
    ...(metadata ? { metadata } : {}),
  });
}

/** The smallest period a window of `windowSeconds` allows. */
export function granularityFloor(windowSeconds: number): number {
  const floor = GRANULARITY_FLOORS.find(
    f => windowSeconds <= f.maxWindowSeconds,
  );
  return (floor ?? GRANULARITY_FLOORS[GRANULARITY_FLOORS.length - 1])
    .minPeriodSeconds;
}

export function normaliseStatistic(statistic: string): string {
  const named = STATISTICS.find(
    s => s.toLowerCase() === statistic.toLowerCase(),
  );
  if (named) {
    return named;
  }
  if (PERCENTILE.test(statistic)) {
    return statistic.toLowerCase();
  }
  throw ruleViolation(
    'UNKNOWN_STATISTIC',
    `Unknown statistic ${statistic}: use ${STATISTICS.join(
      ', ',
    )} or a percentile such as p99`,
  );
}

export function parseDimensions(pairs: string[]): MetricDimension[] {
  if (pairs.length > MAX_METRIC_DIMENSIONS) {
    throw ruleViolation(
      'TOO_MANY_DIMENSIONS',
      `A metric has at most ${MAX_METRIC_DIMENSIONS} dimensions; ${pairs.length} were given`,
    );
  }
  const dimensions = pairs.map(pair => {
    const separator = pair.indexOf('=');
    const name = separator > 0 ? pair.slice(0, separator).trim() : '';
    const value = separator > 0 ? pair.slice(separator + 1).trim() : '';
    if (!name || !value) {
      throw ruleViolation(
        'INVALID_DIMENSION',
        `Dimension ${JSON.stringify(pair)} is not of the form Name=Value`,
      );
    }
    return { name, value };
  });
  const names = new Set<string>();
  for (const { name } of dimensions) {
    if (names.has(name)) {
      throw ruleViolation(
        'DUPLICATE_DIMENSION',
        `Dimension ${name} is given more than once`,
      );
    }
    names.add(name);
  }
  return dimensions.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Checks every rule of §4.5 against `now`, and returns the query in its normal form. */
export function normaliseMetricQuery(
  input: CloudMetricQuery,
  now: Date = new Date(),
): MetricQuery {
  const startTime = new Date(input.startTime);
  const endTime = new Date(input.endTime);
  if (startTime >= endTime) {
    throw ruleViolation(
      'START_NOT_BEFORE_END',
      'startTime must be earlier than endTime',
    );
  }
  if (endTime.getTime() > now.getTime() + CLOCK_SKEW_SECONDS * 1000) {
    throw ruleViolation('END_IN_FUTURE', 'endTime must not be in the future');
  }
  if (
    startTime.getTime() <
    now.getTime() - RETENTION_DAYS * DAY_SECONDS * 1000
  ) {
    throw ruleViolation(
      'START_BEYOND_RETENTION',
      `startTime must be within the ${RETENTION_DAYS}-day retention`,
      { retentionDays: RETENTION_DAYS },
    );
  }
  if (input.period % 60 !== 0) {
    throw ruleViolation(
      'PERIOD_NOT_WHOLE_MINUTES',
      `period must be a multiple of 60 seconds; ${input.period} is not`,
    );
  }
  const windowSeconds = (endTime.getTime() - startTime.getTime()) / 1000;
  const floor = granularityFloor(windowSeconds);
  if (input.period < floor) {
    throw ruleViolation(
      'PERIOD_BELOW_GRANULARITY_FLOOR',
      `A window of ${windowSeconds} s needs a period of at least ${floor} s (60 s up to 15 days, 300 s up to 63 days, 3600 s up to ${RETENTION_DAYS} days)`,
      { windowSeconds, minimumPeriodSeconds: floor },
    );
  }
  return {
    cloudAccountId: input.cloudAccountId,
    region: input.region,
    namespace: input.namespace,
    metricName: input.metricName,
    statistic: normaliseStatistic(input.statistic),
    period: input.period,
    startTime,
    endTime,
    dimensions: parseDimensions(input.dimension ?? []),
  };
}
