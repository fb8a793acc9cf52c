import { InfoCard, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import Typography from '@material-ui/core/Typography';
import { useTheme } from '@material-ui/core/styles';
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

export interface MetricWindow {
  startTime: string;
  endTime: string;
  period: number;
}

const time = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
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
}: {
  cloudAccountId: string;
  region: string;
  metric: MetricSpec;
  window: MetricWindow;
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

  return (
    <InfoCard
      title={metric.title}
      subheader={`${metric.namespace} · ${metric.metricName}`}
    >
      {loading && <Progress />}
      {error && (
        <ErrorPanel error={error} title="The metric could not be read" />
      )}
      {value && value.datapoints.length === 0 && (
        <Typography>No datapoints in this window.</Typography>
      )}
      {value && value.datapoints.length > 0 && (
        <ResponsiveContainer width="100%" height={240}>
          <LineChart data={value.datapoints}>
            <CartesianGrid strokeDasharray="3 3" stroke={palette.divider} />
            <XAxis
              dataKey="timestamp"
              tickFormatter={time}
              minTickGap={40}
              tick={ticks}
              stroke={palette.text.secondary}
            />
            <YAxis
              unit={value.unit === 'Percent' ? '%' : undefined}
              tick={ticks}
              stroke={palette.text.secondary}
            />
            <Tooltip
              labelFormatter={label => time(String(label))}
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
      )}
    </InfoCard>
  );
};
