import { Entity } from '@backstage/catalog-model';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  errorResponse,
  RecordedRequest,
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { MetricsContent } from './MetricsContent';

// ResponsiveContainer measures its parent, which has no size in jsdom, and then draws nothing:
// a fixed size lets the charts draw their lines.
jest.mock('recharts', () => {
  const actual = jest.requireActual('recharts');
  const React = jest.requireActual('react');
  return {
    ...actual,
    ResponsiveContainer: ({ children }: { children: any }) =>
      React.createElement(
        'div',
        { style: { width: 600, height: 240 } },
        React.cloneElement(children, { width: 600, height: 240 }),
      ),
  };
});

function serviceEntity(annotations: Record<string, string>): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'payments', annotations },
    spec: { type: 'service', owner: 'team-a', lifecycle: 'production' },
  };
}

const annotated = serviceEntity({
  'infra-delivery.io/cloud-account': 'acct-1',
  'infra-delivery.io/region': 'eu-west-1',
  'infra-delivery.io/ecs-service': 'prod-cluster/payments-api',
  'infra-delivery.io/metrics':
    'AWS/ApplicationELB|RequestCount|Sum|LoadBalancer=app/payments/abc;TargetGroup=tg/payments/def',
});

const MINUTE = 60_000;
const DAY = 86_400;

describe('MetricsContent', () => {
  const { server, requests, requestsTo } = setupInfraDeliveryServer();

  const metricRequests = () => requestsTo('GET', '/cloud/metrics/metric');
  const requestsFor = (metricName: string) =>
    metricRequests().filter(r => r.query.get('metricName') === metricName);

  /**
   * Serves a rising series for every metric, in percent for the ECS ones, and from the source
   * `sourceOf` names for the namespace, where it names one.
   */
  function serveMetrics(
    sourceOf: (namespace: string) => string | undefined = () => undefined,
  ) {
    server.use(
      http.get(`${baseUrl}/cloud/metrics/metric`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        const percent = query.get('namespace') === 'AWS/ECS';
        return HttpResponse.json({
          datapoints: [
            {
              timestamp: '2026-01-15T09:00:00.000Z',
              value: 20,
              max: 30,
              min: 10,
            },
            {
              timestamp: '2026-01-15T09:01:00.000Z',
              value: 40,
              max: 50,
              min: 30,
            },
            {
              timestamp: '2026-01-15T09:02:00.000Z',
              value: 60,
              max: 70,
              min: 50,
            },
          ],
          unit: percent ? 'Percent' : 'Count',
          source: sourceOf(query.get('namespace') ?? ''),
        });
      }),
    );
  }

  /** The card of a chart, found by its title. */
  async function cardOf(title: string) {
    const heading = await screen.findByText(title);
    return heading.closest('.MuiCard-root') as HTMLElement;
  }

  /** Picks an option of one of the MUI selects above the charts. */
  async function choose(label: string, option: string) {
    await userEvent.click(screen.getByLabelText(label));
    const listbox = await screen.findByRole('listbox');
    await userEvent.click(
      within(listbox).getByRole('option', { name: option }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument(),
    );
  }

  async function optionsOf(label: string) {
    await userEvent.click(screen.getByLabelText(label));
    const listbox = await screen.findByRole('listbox');
    const names = within(listbox)
      .getAllByRole('option')
      .map(option => option.textContent);
    await userEvent.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument(),
    );
    return names;
  }

  /** The window of a request: whole minutes, as long as the range, ending no later than now. */
  function expectWindow(
    request: RecordedRequest,
    rangeSeconds: number,
    between: { from: number; to: number },
  ) {
    const start = Date.parse(request.query.get('startTime')!);
    const end = Date.parse(request.query.get('endTime')!);
    expect(end % MINUTE).toBe(0);
    expect(end).toBeGreaterThanOrEqual(
      Math.floor(between.from / MINUTE) * MINUTE,
    );
    expect(end).toBeLessThanOrEqual(between.to);
    expect(end - start).toBe(rangeSeconds * 1000);
  }

  it('asks for the cloud-account annotation and requests nothing without it', async () => {
    renderEntityContent(
      <MetricsContent />,
      serviceEntity({
        'infra-delivery.io/region': 'eu-west-1',
        'infra-delivery.io/ecs-service': 'prod-cluster/payments-api',
      }),
    );

    expect(await screen.findByText('Missing Annotation')).toBeInTheDocument();
    expect(
      screen.getAllByText(/infra-delivery\.io\/cloud-account/).length,
    ).toBeGreaterThan(0);
    expect(screen.queryByText('CPU utilization (%)')).not.toBeInTheDocument();
    expect(requests()).toEqual([]);
  });

  it('shows progress in each chart until its datapoints arrive', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    server.use(
      http.get(`${baseUrl}/cloud/metrics/metric`, async () => {
        await answered;
        return HttpResponse.json({ datapoints: [] });
      }),
    );
    await renderEntityContent(<MetricsContent />, annotated);
    expect(await screen.findByText('CPU utilization (%)')).toBeInTheDocument();
    expect((await screen.findAllByRole('progressbar')).length).toBeGreaterThan(
      0,
    );
    answer();
    await waitFor(() =>
      expect(screen.queryByRole('progressbar')).not.toBeInTheDocument(),
    );
  });

  it('charts CPU and memory of the ECS service and the annotated metric', async () => {
    serveMetrics();
    const before = Date.now();

    const { container } = await renderEntityContent(
      <MetricsContent />,
      annotated,
    );

    const cpu = await cardOf('CPU utilization (%)');
    const memory = await cardOf('Memory utilization (%)');
    const requestCount = await cardOf('Request count (sum)');
    expect(
      within(cpu).getByText('AWS/ECS · CPUUtilization'),
    ).toBeInTheDocument();
    expect(
      within(memory).getByText('AWS/ECS · MemoryUtilization'),
    ).toBeInTheDocument();
    expect(
      within(requestCount).getByText('AWS/ApplicationELB · RequestCount'),
    ).toBeInTheDocument();

    // Each card draws its series once the datapoints have arrived.
    for (const card of [cpu, memory, requestCount]) {
      await waitFor(() =>
        expect(card.querySelector('.recharts-line-curve')).not.toBeNull(),
      );
      expect(
        within(card).queryByText('No datapoints in this window.'),
      ).not.toBeInTheDocument();
    }
    // Percent metrics read as percentages on their axis.
    expect(within(cpu).getAllByText(/^\d+%$/).length).toBeGreaterThan(0);
    expect(within(requestCount).queryAllByText(/%$/)).toEqual([]);
    expect(container.querySelectorAll('.recharts-line-curve')).toHaveLength(3);
    const after = Date.now();

    // One request per chart, for the default range (a day) at the finest period.
    expect(metricRequests()).toHaveLength(3);
    const [cpuRequest] = requestsFor('CPUUtilization');
    expect(cpuRequest.query.get('namespace')).toBe('AWS/ECS');
    expect(cpuRequest.query.get('statistic')).toBe('Average');
    expect(cpuRequest.query.getAll('dimension')).toEqual([
      'ClusterName=prod-cluster',
      'ServiceName=payments-api',
    ]);
    expect(cpuRequest.query.get('cloudAccountId')).toBe('acct-1');
    expect(cpuRequest.query.get('region')).toBe('eu-west-1');
    expect(cpuRequest.query.get('period')).toBe('60');
    expectWindow(cpuRequest, DAY, { from: before, to: after });

    const [memoryRequest] = requestsFor('MemoryUtilization');
    expect(memoryRequest.query.get('namespace')).toBe('AWS/ECS');
    expect(memoryRequest.query.get('statistic')).toBe('Average');
    expect(memoryRequest.query.getAll('dimension')).toEqual([
      'ClusterName=prod-cluster',
      'ServiceName=payments-api',
    ]);
    expect(memoryRequest.query.get('cloudAccountId')).toBe('acct-1');
    expect(memoryRequest.query.get('region')).toBe('eu-west-1');
    expect(memoryRequest.query.get('period')).toBe('60');

    const [extraRequest] = requestsFor('RequestCount');
    expect(extraRequest.query.get('namespace')).toBe('AWS/ApplicationELB');
    expect(extraRequest.query.get('statistic')).toBe('Sum');
    expect(extraRequest.query.getAll('dimension')).toEqual([
      'LoadBalancer=app/payments/abc',
      'TargetGroup=tg/payments/def',
    ]);
    expect(extraRequest.query.get('cloudAccountId')).toBe('acct-1');
    expect(extraRequest.query.get('region')).toBe('eu-west-1');
    expect(extraRequest.query.get('period')).toBe('60');

    // The three charts share one window.
    for (const request of [memoryRequest, extraRequest]) {
      expect(request.query.get('startTime')).toBe(
        cpuRequest.query.get('startTime'),
      );
      expect(request.query.get('endTime')).toBe(
        cpuRequest.query.get('endTime'),
      );
    }
  });

  it('gives each chart a text alternative: what the series did, in words', async () => {
    serveMetrics();
    await renderEntityContent(<MetricsContent />, annotated);

    // A screen reader read the chart by its tick labels ("06:00 AM 12:00 PM … 0% 15% 30%").
    const cpu = await cardOf('CPU utilization (%)');
    const chart = await within(cpu).findByRole('img', {
      name: /^CPU utilization \(%\), average per 1 min: 3 datapoints from .+ to .+\. Lowest 20% at .+, highest 60% at .+, latest 60%\.$/,
    });
    // The picture it names is the chart, whose drawing assistive technology skips.
    expect(
      chart.querySelector('[aria-hidden="true"] .recharts-line-curve'),
    ).not.toBeNull();
    const requestCount = await cardOf('Request count (sum)');
    expect(
      await within(requestCount).findByRole('img', {
        name: /^Request count \(sum\), sum per 1 min: 3 datapoints .+ Lowest 20 at .+, highest 60 at .+, latest 60\.$/,
      }),
    ).toBeInTheDocument();
  });

  it('offers only the periods the service keeps for a range of 30 days', async () => {
    serveMetrics();
    await renderEntityContent(<MetricsContent />, annotated);
    await cardOf('CPU utilization (%)');
    await waitFor(() => expect(metricRequests()).toHaveLength(3));

    expect(await optionsOf('Period')).toEqual([
      '1 min',
      '5 min',
      '15 min',
      '1 h',
      '6 h',
      '1 d',
    ]);

    const before = Date.now();
    await choose('Time range', 'Last 30 days');

    // A minute is finer than what CloudWatch keeps for 30 days: the period moves to an hour.
    await waitFor(() => expect(metricRequests()).toHaveLength(6));
    const after = Date.now();
    expect(screen.getByLabelText('Time range')).toHaveTextContent(
      'Last 30 days',
    );
    expect(screen.getByLabelText('Period')).toHaveTextContent('1 h');
    expect(await optionsOf('Period')).toEqual(['1 h', '6 h', '1 d']);

    const latest = metricRequests().slice(3);
    expect(latest.map(r => r.query.get('metricName')).sort()).toEqual([
      'CPUUtilization',
      'MemoryUtilization',
      'RequestCount',
    ]);
    for (const request of latest) {
      expect(request.query.get('period')).toBe('3600');
      expectWindow(request, 30 * DAY, { from: before, to: after });
    }

    // A coarser period of the same range is asked for as chosen.
    await choose('Period', '1 d');
    await waitFor(() => expect(metricRequests()).toHaveLength(9));
    for (const request of metricRequests().slice(6)) {
      expect(request.query.get('period')).toBe('86400');
      expectWindow(request, 30 * DAY, { from: before, to: Date.now() });
    }
  });

  it('asks up to now when the range or period changes, not up to when the tab opened', async () => {
    serveMetrics();
    await renderEntityContent(<MetricsContent />, annotated);
    await cardOf('CPU utilization (%)');
    await waitFor(() => expect(metricRequests()).toHaveLength(3));

    // The person comes back to the tab twenty minutes later.
    const later = Date.now() + 20 * MINUTE;
    const clock = jest.spyOn(Date, 'now').mockReturnValue(later);
    try {
      await choose('Time range', 'Last 30 days');
      await waitFor(() => expect(metricRequests()).toHaveLength(6));
      clock.mockReturnValue(later + 5 * MINUTE);
      await choose('Period', '1 d');
      await waitFor(() => expect(metricRequests()).toHaveLength(9));
    } finally {
      clock.mockRestore();
    }

    for (const request of metricRequests().slice(3, 6)) {
      expectWindow(request, 30 * DAY, { from: later, to: later });
    }
    for (const request of metricRequests().slice(6)) {
      expectWindow(request, 30 * DAY, {
        from: later + 5 * MINUTE,
        to: later + 5 * MINUTE,
      });
    }
  });

  it('requests every chart again on Refresh', async () => {
    serveMetrics();
    await renderEntityContent(<MetricsContent />, annotated);
    const cpu = await cardOf('CPU utilization (%)');
    await waitFor(() =>
      expect(cpu.querySelector('.recharts-line-curve')).not.toBeNull(),
    );
    expect(metricRequests()).toHaveLength(3);

    const before = Date.now();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));

    await waitFor(() => expect(metricRequests()).toHaveLength(6));
    const refreshed = metricRequests().slice(3);
    expect(refreshed.map(r => r.query.get('metricName')).sort()).toEqual([
      'CPUUtilization',
      'MemoryUtilization',
      'RequestCount',
    ]);
    for (const request of refreshed) {
      expect(request.query.get('period')).toBe('60');
      expectWindow(request, DAY, { from: before, to: Date.now() });
    }
    await waitFor(() =>
      expect(cpu.querySelector('.recharts-line-curve')).not.toBeNull(),
    );
    // Nothing else is asked for.
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(metricRequests()).toHaveLength(6);
  });

  it('keeps a chart in place under a progress bar while another range loads', async () => {
    serveMetrics();
    await renderEntityContent(<MetricsContent />, annotated);
    const cpu = await cardOf('CPU utilization (%)');
    await waitFor(() =>
      expect(cpu.querySelector('.recharts-line-curve')).not.toBeNull(),
    );
    let answer: () => void = () => {};
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    server.use(
      http.get(`${baseUrl}/cloud/metrics/metric`, async () => {
        await answered;
        return HttpResponse.json({ datapoints: [] });
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));

    // The chart stays, busy, under a named bar laid over it: nothing is added above it.
    expect(
      await within(cpu).findByRole('progressbar', {
        name: 'Loading CPU utilization (%)',
      }),
    ).toBeInTheDocument();
    expect(cpu.querySelector('.recharts-line-curve')).not.toBeNull();
    expect(
      cpu.querySelector('.recharts-line-curve')!.closest('[aria-busy="true"]'),
    ).not.toBeNull();

    answer();

    expect(
      await within(cpu).findByText('No datapoints in this window.'),
    ).toBeInTheDocument();
    expect(within(cpu).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the ErrorBody of a refused metric in its card', async () => {
    serveMetrics();
    server.use(
      http.get(`${baseUrl}/cloud/metrics/metric`, ({ request }) =>
        new URL(request.url).searchParams.get('metricName') === 'RequestCount'
          ? errorResponse(400, {
              code: 'InfraDelivery:Request:VALIDATION',
              message: 'The period must be at least 60 s for this window',
              requestId: 'req-metric-400',
            })
          : undefined,
      ),
    );

    await renderEntityContent(<MetricsContent />, annotated);

    const card = await cardOf('Request count (sum)');
    expect(
      await within(card).findByText(
        'The period must be at least 60 s for this window',
      ),
    ).toBeInTheDocument();
    expect(
      within(card).getByText('Error: The metric could not be read'),
    ).toBeInTheDocument();
    expect(
      within(card).getByText(
        'InfraDelivery:Request:VALIDATION · Request id: req-metric-400',
      ),
    ).toBeInTheDocument();
    expect(card.querySelector('.recharts-line-curve')).toBeNull();

    // The other charts are not affected.
    const cpu = await cardOf('CPU utilization (%)');
    await waitFor(() =>
      expect(cpu.querySelector('.recharts-line-curve')).not.toBeNull(),
    );
    expect(
      within(cpu).queryByText(/The metric could not be read/),
    ).not.toBeInTheDocument();
  });

  it('says which series the local driver simulated', async () => {
    serveMetrics(namespace =>
      namespace === 'AWS/ECS' ? 'local' : 'cloudwatch',
    );

    await renderEntityContent(<MetricsContent />, annotated);

    // Said once for the page, above the charts.
    expect(await screen.findByRole('note')).toHaveTextContent(
      "Simulated: the portal's local cloud driver draws these series; no CloudWatch was asked.",
    );
    const cpu = await cardOf('CPU utilization (%)');
    expect(
      within(cpu).getByText('AWS/ECS · CPUUtilization'),
    ).toBeInTheDocument();
  });

  it('says nothing of simulation when CloudWatch answers', async () => {
    serveMetrics(() => 'cloudwatch');

    await renderEntityContent(<MetricsContent />, annotated);

    const requestCount = await cardOf('Request count (sum)');
    await waitFor(() =>
      expect(requestCount.querySelector('.recharts-wrapper')).not.toBeNull(),
    );
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('says so when a window has no datapoints', async () => {
    server.use(
      http.get(`${baseUrl}/cloud/metrics/metric`, () =>
        HttpResponse.json({ datapoints: [], unit: 'Percent' }),
      ),
    );

    await renderEntityContent(
      <MetricsContent />,
      serviceEntity({
        'infra-delivery.io/cloud-account': 'acct-1',
        'infra-delivery.io/region': 'eu-west-1',
        'infra-delivery.io/ecs-service': 'prod-cluster/payments-api',
      }),
    );

    const cpu = await cardOf('CPU utilization (%)');
    const memory = await cardOf('Memory utilization (%)');
    for (const card of [cpu, memory]) {
      expect(
        await within(card).findByText('No datapoints in this window.'),
      ).toBeInTheDocument();
      expect(card.querySelector('.recharts-wrapper')).toBeNull();
    }
    expect(metricRequests()).toHaveLength(2);
  });
});
