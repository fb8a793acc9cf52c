import {
  CloudMetricQuery,
  errorBodySchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { InfraDeliveryError } from '../errors';
import {
  CLOCK_SKEW_SECONDS,
  granularityFloor,
  MAX_METRIC_DIMENSIONS,
  normaliseMetricQuery,
  parseDimensions,
} from './metricQuery';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;

function at(offsetMs: number): string {
  return new Date(NOW.getTime() + offsetMs).toISOString();
}

function query(overrides: Partial<CloudMetricQuery> = {}): CloudMetricQuery {
  return {
    cloudAccountId: 'acct-1',
    region: 'eu-west-1',
    namespace: 'AWS/ECS',
    metricName: 'CPUUtilization',
    statistic: 'Average',
    period: 60,
    startTime: at(-DAY),
    endTime: at(0),
    ...overrides,
  };
}

/** The rule an input breaks: the error's status and code. */
function violation(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InfraDeliveryError);
    // Every rule's answer is a valid ErrorBody.
    errorBodySchema.parse((error as InfraDeliveryError).toBody());
    const { status, code, message } = error as InfraDeliveryError;
    return { status, code, message };
  }
  throw new Error('expected a rule violation');
}

function rule(reason: string) {
  return expect.objectContaining({
    status: 400,
    code: `InfraDelivery:MetricQuery:${reason}`,
  });
}

describe('the metric rules of §4.5', () => {
  describe('granularity floors', () => {
    it('allows 60 s for a window of exactly 15 days', () => {
      const normal = normaliseMetricQuery(
        query({ startTime: at(-15 * DAY), period: 60 }),
        NOW,
      );
      expect(normal.period).toBe(60);
      expect(normal.endTime.getTime() - normal.startTime.getTime()).toBe(
        15 * DAY,
      );
    });

    it('needs 300 s one second beyond 15 days', () => {
      const window = { startTime: at(-15 * DAY - SECOND) };
      expect(
        violation(() =>
          normaliseMetricQuery(query({ ...window, period: 60 }), NOW),
        ),
      ).toEqual(rule('PERIOD_BELOW_GRANULARITY_FLOOR'));
      expect(
        violation(() =>
          normaliseMetricQuery(query({ ...window, period: 240 }), NOW),
        ),
      ).toEqual(rule('PERIOD_BELOW_GRANULARITY_FLOOR'));
      expect(
        normaliseMetricQuery(query({ ...window, period: 300 }), NOW).period,
      ).toBe(300);
    });

    it('allows 300 s for exactly 63 days and needs 3600 s beyond', () => {
      expect(
        normaliseMetricQuery(
          query({ startTime: at(-63 * DAY), period: 300 }),
          NOW,
        ).period,
      ).toBe(300);
      const beyond = { startTime: at(-63 * DAY - SECOND) };
      expect(
        violation(() =>
          normaliseMetricQuery(query({ ...beyond, period: 300 }), NOW),
        ),
      ).toEqual(rule('PERIOD_BELOW_GRANULARITY_FLOOR'));
      expect(
        violation(() =>
          normaliseMetricQuery(query({ ...beyond, period: 3540 }), NOW),
        ),
      ).toEqual(rule('PERIOD_BELOW_GRANULARITY_FLOOR'));
      expect(
        normaliseMetricQuery(query({ ...beyond, period: 3600 }), NOW).period,
      ).toBe(3600);
    });

    it('names the window and the floor in the error', () => {
      const error = violation(() =>
        normaliseMetricQuery(
          query({ startTime: at(-20 * DAY), period: 60 }),
          NOW,
        ),
      );
      expect(error.message).toContain('at least 300 s');
    });

    it('maps windows to floors at the boundaries', () => {
      expect(granularityFloor(15 * 86400)).toBe(60);
      expect(granularityFloor(15 * 86400 + 1)).toBe(300);
      expect(granularityFloor(63 * 86400)).toBe(300);
      expect(granularityFloor(63 * 86400 + 1)).toBe(3600);
      expect(granularityFloor(455 * 86400)).toBe(3600);
    });
  });

  describe('retention', () => {
    it('allows a start exactly 455 days back', () => {
      const normal = normaliseMetricQuery(
        query({ startTime: at(-455 * DAY), period: 3600 }),
        NOW,
      );
      expect(normal.startTime.toISOString()).toBe(at(-455 * DAY));
    });

    it('refuses a start one second beyond 455 days', () => {
      expect(
        violation(() =>
          normaliseMetricQuery(
            query({ startTime: at(-455 * DAY - SECOND), period: 3600 }),
            NOW,
          ),
        ),
      ).toEqual(rule('START_BEYOND_RETENTION'));
    });
  });

  describe('start before end', () => {
    it('refuses start == end', () => {
      expect(
        violation(() =>
          normaliseMetricQuery(
            query({ startTime: at(-DAY), endTime: at(-DAY) }),
            NOW,
          ),
        ),
      ).toEqual(rule('START_NOT_BEFORE_END'));
    });

    it('refuses a start after the end', () => {
      expect(
        violation(() =>
          normaliseMetricQuery(
            query({ startTime: at(-DAY + SECOND), endTime: at(-DAY) }),
            NOW,
          ),
        ),
      ).toEqual(rule('START_NOT_BEFORE_END'));
    });

    it('compares instants, not strings in different offsets', () => {
      // 13:00+01:00 is 12:00Z: one second before 12:00:01Z.
      const normal = normaliseMetricQuery(
        query({
          startTime: '2026-06-01T11:00:00+01:00',
          endTime: '2026-06-01T10:00:01Z',
          period: 60,
        }),
        NOW,
      );
      expect(normal.startTime.toISOString()).toBe('2026-06-01T10:00:00.000Z');
    });
  });

  describe('no future end', () => {
    it(`tolerates ${CLOCK_SKEW_SECONDS} s of clock skew`, () => {
      expect(
        normaliseMetricQuery(
          query({ endTime: at(CLOCK_SKEW_SECONDS * SECOND) }),
          NOW,
        ).endTime.toISOString(),
      ).toBe(at(CLOCK_SKEW_SECONDS * SECOND));
    });

    it('refuses an end beyond the skew', () => {
      expect(
        violation(() =>
          normaliseMetricQuery(
            query({ endTime: at((CLOCK_SKEW_SECONDS + 1) * SECOND) }),
            NOW,
          ),
        ),
      ).toEqual(rule('END_IN_FUTURE'));
    });
  });

  describe('period', () => {
    it('refuses a period that is not a multiple of 60', () => {
      expect(
        violation(() => normaliseMetricQuery(query({ period: 90 }), NOW)),
      ).toEqual(rule('PERIOD_NOT_WHOLE_MINUTES'));
      expect(
        violation(() => normaliseMetricQuery(query({ period: 30 }), NOW)),
      ).toEqual(rule('PERIOD_NOT_WHOLE_MINUTES'));
    });

    it('allows any multiple of 60 at or above the floor', () => {
      expect(normaliseMetricQuery(query({ period: 120 }), NOW).period).toBe(
        120,
      );
      expect(normaliseMetricQuery(query({ period: 86400 }), NOW).period).toBe(
        86400,
      );
    });
  });

  describe('statistic', () => {
    it.each([
      ['average', 'Average'],
      ['SUM', 'Sum'],
      ['maximum', 'Maximum'],
      ['Minimum', 'Minimum'],
      ['samplecount', 'SampleCount'],
      ['P99', 'p99'],
      ['p99.9', 'p99.9'],
    ])('spells %s as CloudWatch does (%s)', (given, canonical) => {
      expect(
        normaliseMetricQuery(query({ statistic: given }), NOW).statistic,
      ).toBe(canonical);
    });

    it('refuses an unknown statistic', () => {
      expect(
        violation(() =>
          normaliseMetricQuery(query({ statistic: 'median' }), NOW),
        ),
      ).toEqual(rule('UNKNOWN_STATISTIC'));
    });
  });

  describe('dimensions', () => {
    it('parses Name=Value pairs, keeps = inside values and sorts by name', () => {
      expect(
        parseDimensions(['ServiceName=web', 'ClusterName=prod', 'Filter=a=b']),
      ).toEqual([
        { name: 'ClusterName', value: 'prod' },
        { name: 'Filter', value: 'a=b' },
        { name: 'ServiceName', value: 'web' },
      ]);
    });

    it.each(['ClusterName', '=prod', 'ClusterName=', ' = '])(
      'refuses %j',
      pair => {
        expect(violation(() => parseDimensions([pair]))).toEqual(
          rule('INVALID_DIMENSION'),
        );
      },
    );

    it('refuses a dimension given twice', () => {
      expect(violation(() => parseDimensions(['A=1', 'A=2']))).toEqual(
        rule('DUPLICATE_DIMENSION'),
      );
    });

    it(`allows ${MAX_METRIC_DIMENSIONS} dimensions and refuses one more`, () => {
      const pairs = Array.from(
        { length: MAX_METRIC_DIMENSIONS + 1 },
        (_, i) => `D${String(i).padStart(2, '0')}=v`,
      );
      expect(parseDimensions(pairs.slice(0, -1))).toHaveLength(
        MAX_METRIC_DIMENSIONS,
      );
      expect(violation(() => parseDimensions(pairs))).toEqual(
        rule('TOO_MANY_DIMENSIONS'),
      );
    });

    it('are part of the normal form', () => {
      const normal = normaliseMetricQuery(
        query({ dimension: ['ServiceName=web', 'ClusterName=prod'] }),
        NOW,
      );
      expect(normal.dimensions.map(d => d.name)).toEqual([
        'ClusterName',
        'ServiceName',
      ]);
    });
  });
});
