import { MetricReader } from '@opentelemetry/sdk-metrics';

/**
 * An OpenTelemetry reader that collects when a test asks (`collect()`), as a Prometheus scrape
 * does: what the portal's SDK would export, with cumulative counters.
 */
export class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}
