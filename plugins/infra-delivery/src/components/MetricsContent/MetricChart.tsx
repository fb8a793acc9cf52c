import { InfoCard, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import Typography from '@material-ui/core/Typography';
import { useTheme } from '@material-ui/core/styles';
import { useEffect, useMemo } from 'react';
import {
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { MetricSpec } from './metricSpecs';
import { tickLabel, timeTicks } from './timeTicks';
import { axisUnit, formatMetricValue } from './metricUnits';
import { chartSummary } from './chartSummary';
import { CARD_HEADING } from '../common/cardHeading';
import { Reloading } from '../common/Reloading';

export interface MetricWindow {
  startTime: string;
  endTime: string;
  period: number;
}

const time = (ms: number) =>
  new Date(ms).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/** One CloudWatch metric over the chosen window (#15). */
export const MetricChart = ({
  cloudAccountId,
  region,
  metric,
  window,
  onSimulated,
}: {
  cloudAccountId: string;
  region: string;
  metric: MetricSpec;
  window: MetricWindow;
  /** Called when the local cloud driver drew the series, not CloudWatch. */
  onSimulated?: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  // The theme's colors, not the chart library's (grey ticks on a dark card were unreadable).
  const { palette } = useTheme();
  const ticks = { fill: palette.text.secondary, fontSize: 12 };
  const { value, loading, error } = useAsync(
    () =>
      client.call('getCloudMetric', {
        query: {
          cloudAccountId,
          region,
          namespace: metric.namespace,
          metricName: metric.metricName,
          statistic: metric.statistic,
          dimension: metric.dimensions,
          ...window,
        },
      }),
    [client, cloudAccountId, region, metric, window],
  );

  const simulated = value?.source === 'local';
  useEffect(() => {
    if (simulated) onSimulated?.();
  }, [simulated, onSimulated]);

  // A time axis over the whole window, not one slot per datapoint: a stretch without
  // datapoints keeps its width, and the ticks are evenly spaced on round local times.
  const start = Date.parse(window.startTime);
  const end = Date.parse(window.endTime);
  const points = useMemo(
    () =>
      value?.datapoints.map(point => ({
        time: Date.parse(point.timestamp),
        value: point.value,
      })) ?? [],
    [value],
  );

  return (
    <InfoCard
      titleTypographyProps={CARD_HEADING}
      title={metric.title}
      subheader={`${metric.namespace} · ${metric.metricName}`}
    >
      {loading && !value && <Progress />}
      {error && (
        <ErrorPanel error={error} title="The metric could not be read" />
      )}
      {/* Another range's or period's series: the chart shown stays in place, under a progress
          bar; one above it pushed the chart down while it loaded. */}
      <Reloading
        reloading={loading && value !== undefined}
        label={`Loading ${metric.title}`}
      >
        {value && value.datapoints.length === 0 && (
          <Typography>No datapoints in this window.</Typography>
        )}
        {value && value.datapoints.length > 0 && (
          // A picture to assistive technology, named by what it shows: the lowest, highest
          // and latest values and when (the SVG alone was named by its tick labels). Its
          // drawing is hidden from it: Chromium kept the SVG's parts under the picture.
          <div
            role="img"
            aria-label={chartSummary({
              title: metric.title,
              statistic: metric.statistic,
              period: window.period,
              unit: value.unit,
              points,
              time,
            })}
          >
            <div aria-hidden="true">
              <ResponsiveContainer width="100%" height={240}>
                <LineChart data={points}>
                  <CartesianGrid
                    strokeDasharray="3 3"
                    stroke={palette.divider}
                  />
                  <XAxis
                    dataKey="time"
                    type="number"
                    scale="time"
                    domain={[start, end]}
                    ticks={timeTicks(start, end)}
                    tickFormatter={tickLabel(end - start)}
                    tick={ticks}
                    stroke={palette.text.secondary}
                  />
                  <YAxis
                    unit={axisUnit(value.unit)}
                    // Byte counts in KiB, MiB…, others with thousands separated ("225,000"), as
                    // the tooltip gives them.
                    tickFormatter={tick =>
                      value.unit.startsWith('Bytes')
                        ? formatMetricValue(Number(tick), value.unit)
                        : Number(tick).toLocaleString()
                    }
                    tick={ticks}
                    stroke={palette.text.secondary}
                  />
                  <Tooltip
                    labelFormatter={label => time(Number(label))}
                    separator=": "
                    formatter={point => [
                      formatMetricValue(Number(point), value.unit),
                      metric.statistic,
                    ]}
                    contentStyle={{
                      background: palette.background.paper,
                      color: palette.text.primary,
                      borderColor: palette.divider,
                    }}
                  />
                  <Line
                    type="monotone"
                    dataKey="value"
                    dot={false}
                    isAnimationActive={false}
                    stroke={palette.primary.main}
                    strokeWidth={2}
                  />
                </LineChart>
              </ResponsiveContainer>
            </div>
          </div>
        )}
      </Reloading>
    </InfoCard>
  );
};
