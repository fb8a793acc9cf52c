import { axisUnit, formatMetricValue, readableMetricName } from './metricUnits';

describe('formatMetricValue', () => {
  it('writes each CloudWatch unit as people read it', () => {
    expect(formatMetricValue(41.4567, 'Percent')).toBe('41.46%');
    expect(formatMetricValue(120, 'Milliseconds')).toBe('120 ms');
    expect(formatMetricValue(1.5, 'Seconds')).toBe('1.5 s');
    expect(formatMetricValue(3.2 * 1024 * 1024, 'Bytes')).toBe('3.2 MiB');
    expect(formatMetricValue(512, 'Bytes')).toBe('512 B');
    expect(formatMetricValue(812, 'Count')).toBe('812');
    expect(formatMetricValue(7, 'None')).toBe('7');
    expect(formatMetricValue(12, 'Count/Second')).toBe('12 Count/Second');
    expect(formatMetricValue(2048, 'Bytes/Second')).toBe('2 KiB/s');
    expect(formatMetricValue(0.004, 'Seconds')).toBe('0.004 s');
    expect(formatMetricValue(Number.NaN, 'Percent')).toBe('—');
  });
});

describe('axisUnit', () => {
  it('puts short units after the ticks and leaves counts bare', () => {
    expect(axisUnit('Percent')).toBe('%');
    expect(axisUnit('Milliseconds')).toBe(' ms');
    expect(axisUnit('Count')).toBeUndefined();
  });
});

describe('readableMetricName', () => {
  it('splits CloudWatch names into words, keeping acronyms', () => {
    expect(readableMetricName('RequestCount')).toBe('Request count');
    expect(readableMetricName('CPUUtilization')).toBe('CPU utilization');
    expect(readableMetricName('TargetResponseTime')).toBe(
      'Target response time',
    );
    expect(readableMetricName('HTTPCode_Target_5XX_Count')).toBe(
      'HTTP code target 5XX count',
    );
  });
});
