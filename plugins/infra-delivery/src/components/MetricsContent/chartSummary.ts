import { formatMetricValue } from './metricUnits';
import { periodLabel } from './timeRanges';

/** A datapoint as the chart draws it: its time in ms since the epoch, and its value. */
export interface ChartPoint {
  time: number;
  value: number;
}

/**
 * What a chart shows, in words: the text alternative a screen reader reads for it. The chart
 * is a picture (an SVG of lines and tick labels): without this its accessible name was its
 * tick labels run together ("06:00 AM 12:00 PM 06:00 PM 12:00 AM 0% 15% 30%"), which said
 * nothing of the series. `time` formats a datapoint's time as the tooltip does.
 */
export function chartSummary({
  title,
  statistic,
  period,
  unit,
  points,
  time,
}: {
  title: string;
  statistic: string;
  /** The period of a datapoint, in seconds. */
  period: number;
  unit: string;
  points: ChartPoint[];
  time: (ms: number) => string;
}): string {
  if (points.length === 0) return `${title}: no datapoints in this window.`;
  const value = (point: ChartPoint) => formatMetricValue(point.value, unit);
  let lowest = points[0];
  let highest = points[0];
  for (const point of points) {
    if (point.value < lowest.value) lowest = point;
    if (point.value > highest.value) highest = point;
  }
  const first = points[0];
  const last = points[points.length - 1];
  const count =
    points.length === 1 ? '1 datapoint' : `${points.length} datapoints`;
  return (
    `${title}, ${statistic.toLowerCase()} per ${periodLabel(period)}: ` +
    `${count} from ${time(first.time)} to ${time(last.time)}. ` +
    `Lowest ${value(lowest)} at ${time(lowest.time)}, ` +
    `highest ${value(highest)} at ${time(highest.time)}, ` +
    `latest ${value(last)}.`
  );
}
