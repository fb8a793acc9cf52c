const BYTE_STEPS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** Two decimals, or three significant digits below 1 (0.004 s is not 0 s). */
function decimals(value: number): string {
  return Math.abs(value) < 1 && value !== 0
    ? value.toLocaleString(undefined, { maximumSignificantDigits: 3 })
    : value.toLocaleString(undefined, { maximumFractionDigits: 2 });
}

/** Bytes in binary steps: "3.2 MiB". */
function bytes(value: number): string {
  let step = 0;
  let scaled = value;
  while (Math.abs(scaled) >= 1024 && step < BYTE_STEPS.length - 1) {
    scaled /= 1024;
    step += 1;
  }
  return `${decimals(scaled)} ${BYTE_STEPS[step]}`;
}

/**
 * A datapoint as people read it, in CloudWatch's unit: "41.5%", "120 ms", "3.2 MiB", "812".
 * Units without a short form follow the number ("12 Count/Second").
 */
export function formatMetricValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '—';
  switch (unit) {
    case 'Percent':
      return `${decimals(value)}%`;
    case 'Milliseconds':
      return `${decimals(value)} ms`;
    case 'Seconds':
      return `${decimals(value)} s`;
    case 'Microseconds':
      return `${decimals(value)} µs`;
    case 'Bytes':
      return bytes(value);
    case 'Bytes/Second':
      return `${bytes(value)}/s`;
    case 'Count':
    case 'None':
    case '':
      return decimals(value);
    default:
      return `${decimals(value)} ${unit}`;
  }
}

/** The unit the value axis shows after its ticks, where it is short enough to. */
export function axisUnit(unit: string): string | undefined {
  switch (unit) {
    case 'Percent':
      return '%';
    case 'Milliseconds':
      return ' ms';
    case 'Seconds':
      return ' s';
    default:
      return undefined;
  }
}

/**
 * A CloudWatch metric name in words: "RequestCount" → "Request count", "CPUUtilization" →
 * "CPU utilization", "HTTPCode_Target_5XX_Count" → "HTTP code target 5XX count".
 */
export function readableMetricName(metricName: string): string {
  const words = metricName
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/\s+/)
    .filter(Boolean);
  return words
    .map((word, index) =>
      index > 0 && /^[A-Z][a-z]+$/.test(word) ? word.toLowerCase() : word,
    )
    .join(' ');
}
