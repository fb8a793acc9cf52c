import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

const DOCS = 'https://registry.terraform.io/providers/hashicorp/aws/latest';
/** The viewer's line numbers: links to each line ("Line 3"). */
const lineNumberLinks = () =>
  screen.getAllByRole('link', { name: /^Line \d+$/ });

/** A link's name: its text, and that it opens in a new window. */
const docsLink = { name: (name: string) => name.startsWith(DOCS) };

/** What Terraform writes, as the runner stores it. */
const texts = [
  'Terraform read main.tf and variables.tf',
  '- Reusing previous version of hashicorp/aws from the dependency lock file .terraform.lock.hcl',
  '  # module.network.aws_subnet.private[0] will be created',
  'State: terraform.tfstate, see localhost:5432',
  `Docs: ${DOCS} (main.tf)`,
  '\u001b[1m\u001b[31mError:\u001b[0m\u001b[0m in main.tf line 3',
];

describe('StepLogs', () => {
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

  /** The text each line shows, in order. */
  const shownLines = () =>
    lineNumberLinks().map(
      lineNumber => lineNumber.nextElementSibling!.textContent,
    );

  it('links what the log writes as a URL, not the file and resource names Terraform writes', async () => {
    await renderWithService(<StepLogs step={step} />);
    const docs = await screen.findByRole('link', docsLink);
    expect(docs).toHaveAttribute('href', DOCS);

    // main.tf linked to http://main.tf, module.network.aws to http://module.network.aws.
    expect(
      screen
        .getAllByRole('link')
        .filter(link => !lineNumberLinks().includes(link))
        .map(link => link.getAttribute('href')),
    ).toEqual([DOCS]);
    // The lines read as Terraform wrote them, colours aside.
    expect(shownLines()).toEqual([
      texts[0],
      texts[1],
      texts[2],
      texts[3],
      // Backstage's link says to screen readers that it opens a new window.
      `Docs: ${DOCS}, Opens in a new window (main.tf)`,
      'Error: in main.tf line 3',
    ]);
    // Its colours stay where Terraform put them.
    expect(screen.getByText('Error:').className).toMatch(
      /modifierBold.*modifierForegroundRed/,
    );
  });

  it('still finds a file name the log names', async () => {
    await renderWithService(<StepLogs step={step} />);
    await screen.findByRole('link', docsLink);
    await userEvent.type(screen.getByPlaceholderText(/search/i), 'main.tf');
    // Three times: in the first line, beside the docs and in the error.
    expect(await screen.findByText('1/3')).toBeInTheDocument();
  });
});
