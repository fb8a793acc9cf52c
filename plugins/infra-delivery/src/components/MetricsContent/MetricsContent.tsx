import { Content } from '@backstage/core-components';
import {
  MissingAnnotationEmptyState,
  useEntity,
} from '@backstage/plugin-catalog-react';
import {
  ANNOTATION_CLOUD_ACCOUNT,
  ANNOTATION_ECS_SERVICE,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Paper from '@material-ui/core/Paper';
import Button from '@material-ui/core/Button';
import Grid from '@material-ui/core/Grid';
import MenuItem from '@material-ui/core/MenuItem';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useCallback, useMemo, useState } from 'react';
import { MetricChart } from './MetricChart';
import { entityMetrics } from './metricSpecs';
import { allowedPeriods, periodLabel, TIME_RANGES } from './timeRanges';

/** CloudWatch charts of the entity's service: CPU, memory and any metric it names. */
/** A control of the toolbar at its own width: it wraps to a new line before it shrinks. */
const KEPT_WHOLE = { flexShrink: 0 } as const;

export const MetricsContent = () => {
  const { entity } = useEntity();
  const config = useMemo(() => entityMetrics(entity), [entity]);
  const [rangeSeconds, setRangeSeconds] = useState(TIME_RANGES[2].seconds);
  const [period, setPeriod] = useState(
    allowedPeriods(TIME_RANGES[2].seconds)[0],
  );
  const [refreshedAt, setRefreshedAt] = useState(() => Date.now());
  // Development data says so, once for the page: the local driver's wave is not the load.
  const [simulated, setSimulated] = useState(false);
  const markSimulated = useCallback(() => setSimulated(true), []);

  const window = useMemo(() => {
    // Whole minutes, so that repeated views share the service's cache.
    const end = Math.floor(refreshedAt / 60_000) * 60_000;
    return {
      startTime: new Date(end - rangeSeconds * 1000).toISOString(),
      endTime: new Date(end).toISOString(),
      period,
    };
  }, [refreshedAt, rangeSeconds, period]);

  if (!config) {
    return (
      <MissingAnnotationEmptyState annotation={ANNOTATION_CLOUD_ACCOUNT} />
    );
  }
  if (config.metrics.length === 0) {
    return <MissingAnnotationEmptyState annotation={ANNOTATION_ECS_SERVICE} />;
  }

  // A range "ends now": a new choice asks up to now, not up to when the tab was opened.
  const changeRange = (seconds: number) => {
    setRangeSeconds(seconds);
    const periods = allowedPeriods(seconds);
    if (!periods.includes(period)) setPeriod(periods[0]);
    setRefreshedAt(Date.now());
  };
  const changePeriod = (seconds: number) => {
    setPeriod(seconds);
    setRefreshedAt(Date.now());
  };

  return (
    <Content noPadding>
      {/* On the card colour, where the fields' grey labels keep their contrast. The fields
          keep their width and the note wraps under them: squeezed into one line at 900 px,
          the selects showed "La…" and "1…" under a label broken over two lines. */}
      <Box
        component={Paper}
        display="flex"
        flexWrap="wrap"
        alignItems="flex-end"
        style={{ gap: 16 }}
        mb={2}
        p={2}
      >
        <TextField
          id="metrics-range"
          select
          label="Time range"
          style={KEPT_WHOLE}
          value={rangeSeconds}
          onChange={event => changeRange(Number(event.target.value))}
        >
          {TIME_RANGES.map(range => (
            <MenuItem key={range.seconds} value={range.seconds}>
              {range.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          id="metrics-period"
          select
          label="Period"
          style={KEPT_WHOLE}
          value={period}
          onChange={event => changePeriod(Number(event.target.value))}
        >
          {allowedPeriods(rangeSeconds).map(p => (
            <MenuItem key={p} value={p}>
              {periodLabel(p)}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="outlined"
          style={KEPT_WHOLE}
          onClick={() => setRefreshedAt(Date.now())}
        >
          Refresh
        </Button>
        {simulated && (
          <Typography
            variant="body2"
            role="note"
            style={{ alignSelf: 'center', flex: '1 1 240px' }}
          >
            Simulated: the portal's local cloud driver draws these series; no
            CloudWatch was asked.
          </Typography>
        )}
      </Box>
      <Grid container spacing={3}>
        {config.metrics.map(metric => (
          <Grid
            item
            xs={12}
            md={6}
            key={`${metric.namespace}/${metric.metricName}/${metric.statistic}`}
          >
            <MetricChart
              cloudAccountId={config.cloudAccountId}
              region={config.region}
              metric={metric}
              window={window}
              onSimulated={markSimulated}
            />
          </Grid>
        ))}
      </Grid>
    </Content>
  );
};
