import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  now,
  renderWithService,
  setupInfraDeliveryServer,
  stepExecution,
} from '../../__testUtils__/infraDeliveryTestKit';
import { StepLogs } from './StepLogs';

const step = stepExecution({
  id: 'step-plan',
  pipelineRunId: 'run-1',
  position: 0,
  name: 'Plan',
  type: 'iac.plan',
  status: 'SUCCEEDED',
});

/** 100 lines, every tenth a resource: more than the viewer renders at once. */
const texts = Array.from({ length: 100 }, (_, i) =>
  i % 10 === 0 ? `aws_subnet.private[${i}] will be created` : `line ${i + 1}`,
);

/** axe-core's violations in the log viewer; colours are not measured in jsdom. */
async function axeViolations(container: Element) {
  const result = await axe.run(container, {
    rules: { 'color-contrast': { enabled: false } },
    resultTypes: ['violations'],
  });
  return result.violations.map(v => `${v.id}: ${v.nodes[0]?.html}`);
}

/** The viewer's line number links, by their names. */
const lineNumbers = () =>
  screen
    .getAllByRole('link', { name: /^Line \d+$/ })
    .map(link => link.getAttribute('aria-label'));

describe("a step's log viewer, for assistive technology", () => {
  const { server } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/pipeline-step-executions/${step.id}/logs`, () =>
        HttpResponse.json({
          data: texts.map((text, i) => ({
            id: `log-${i}`,
            attemptEpoch: 1,
            timestamp: now,
            text,
          })),
          meta: { limit: 500, totalCount: texts.length },
        }),
      ),
    );
  });

  it('names its line number links and its buttons, and has no axe-core violations', async () => {
    const { container } = await renderWithService(<StepLogs step={step} />);
    // It opens at the log's end.
    await screen.findByRole('link', { name: 'Line 100' });
    // Backstage's viewer gives each line number role="row", outside any grid.
    expect(container.querySelector('[role="row"]')).toBeNull();
    expect(screen.getByRole('link', { name: 'Line 99' })).toHaveAttribute(
      'href',
      '#line-99',
    );
    expect(
      screen.getByRole('button', { name: 'Show only the lines that match' }),
    ).toHaveAttribute('aria-pressed', 'false');
    expect(
      screen.getByRole('textbox', { name: 'Search the log' }),
    ).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('names the controls a search shows, and says when the filter is on', async () => {
    const { container } = await renderWithService(<StepLogs step={step} />);
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'Search the log' }),
      'aws_subnet',
    );
    expect(
      await screen.findByRole('button', { name: 'Previous match' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Next match' }),
    ).toBeInTheDocument();

    const filter = screen.getByRole('button', {
      name: 'Show only the lines that match',
    });
    await userEvent.click(filter);
    await waitFor(() => expect(filter).toHaveAttribute('aria-pressed', 'true'));
    // Only the ten matching lines are left, each still a link without a row role.
    await waitFor(() =>
      expect(lineNumbers()).toEqual(
        Array.from({ length: 10 }, (_, i) => `Line ${i * 10 + 1}`),
      ),
    );
    expect(container.querySelector('[role="row"]')).toBeNull();
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(filter);
    await waitFor(() =>
      expect(filter).toHaveAttribute('aria-pressed', 'false'),
    );
  });

  it('mends the rows the viewer renders as its list scrolls', async () => {
    const { container } = await renderWithService(<StepLogs step={step} />);
    await screen.findByRole('link', { name: 'Line 100' });
    expect(screen.queryByRole('link', { name: 'Line 1' })).toBeNull();
    const list = container.querySelector<HTMLElement>(
      '[style*="overflow: auto"]',
    )!;
    list.scrollTop = 0;
    fireEvent.scroll(list);
    expect(
      await screen.findByRole('link', { name: 'Line 1' }),
    ).toBeInTheDocument();
    expect(container.querySelector('[role="row"]')).toBeNull();
  });
});
