import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import {
  baseUrl,
  cloudAccount,
  errorResponse,
  list,
  now,
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { serviceEntity } from '../../__testUtils__/deploymentFixtures';
import {
  deployDisabledReason,
  deployFromReview,
  deploymentsOf,
  placedDeployment,
} from '../../__testUtils__/deployButton';
import { DeploymentsContent } from './DeploymentsContent';

/** payments-api, annotated with where it runs as the catalog module writes it (given ids). */
const annotations = {
  'infra-delivery.io/ecs-service': 'payments/payments-api',
  'infra-delivery.io/project': 'payments',
  'infra-delivery.io/environment': 'production',
  'infra-delivery.io/cloud-account': 'ca1',
  'infra-delivery.io/region': 'eu-west-1',
};

const organization = { organizationId: 'o1', createdAt: now, updatedAt: now };

const release = {
  family: 'payments-api',
  containerDefinitions: [
    {
      name: 'app',
      image: 'registry.example.com/payments-api:1.0.0',
      essential: true,
    },
  ],
};

describe('DeploymentsContent: the first deployment of a service', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  /** The tab of a service with no deployment; a POST /deployments answers `answer`. */
  const renderTab = async (
    entityAnnotations: Record<string, string>,
    answer: () => Response | Deployment = () => ({
      ...placedDeployment(
        'd1',
        'IN_PROGRESS',
        'registry.example.com/payments-api:1.0.0',
      ),
      description: 'Deploy payments-api to payments-api',
    }),
  ) => {
    const history: Deployment[] = [];
    server.use(
      deploymentsOf(history),
      http.get(`${baseUrl}/projects`, () =>
        HttpResponse.json(
          list([
            { ...organization, id: 'p0', givenId: 'search', name: 'Search' },
            {
              ...organization,
              id: 'p1',
              givenId: 'payments',
              name: 'Payments',
            },
          ]),
        ),
      ),
      http.get(`${baseUrl}/projects/p1/environments`, () =>
        HttpResponse.json(
          list([
            {
              ...organization,
              id: 'e1',
              projectId: 'p1',
              givenId: 'production',
              name: 'Production',
            },
          ]),
        ),
      ),
      http.get(`${baseUrl}/cloud-accounts/ca1`, () =>
        HttpResponse.json({
          data: cloudAccount({ id: 'ca1', name: 'Payments prod' }),
        }),
      ),
      http.post(`${baseUrl}/deployments`, () => {
        const answered = answer();
        if (answered instanceof Response) return answered;
        history.unshift(answered);
        return HttpResponse.json({ data: answered }, { status: 201 });
      }),
    );
    await renderEntityContent(
      <DeploymentsContent />,
      serviceEntity(entityAnnotations),
    );
  };

  const openDialog = async () => {
    const deploy = await screen.findByRole('button', {
      name: 'Deploy to payments-api',
    });
    await waitFor(() => expect(deploy).toBeEnabled());
    await userEvent.click(deploy);
    return screen.findByRole('dialog', { name: 'Deploy to payments-api' });
  };

  /** Replaces the Task definition field's text with `text`. */
  const typeDefinition = async (dialog: HTMLElement, text: string) => {
    const field = within(dialog).getByRole('textbox', {
      name: /Task definition/,
    });
    await userEvent.clear(field);
    await userEvent.click(field);
    await userEvent.paste(text);
  };

  const reviewProblem = async (dialog: HTMLElement) => {
    const review = within(dialog).getByRole('button', { name: 'Review' });
    expect(review).toBeDisabled();
    await userEvent.hover(review.parentElement!);
    const tooltip = await screen.findByRole('tooltip');
    const text = tooltip.textContent;
    await userEvent.unhover(review.parentElement!);
    return text;
  };

  it('asks for a whole task definition, says where it goes, and checks it as typed', async () => {
    await renderTab(annotations);
    const dialog = await openDialog();
    // Why a task definition, and not an image.
    expect(dialog).toHaveTextContent(
      'payments-api has no deployment here yet: the first one registers a whole task definition. A new image alone cannot be deployed until a release has run here to put it into',
    );
    // Where it goes: the annotated project, environment and account, found by their given ids.
    expect(
      await within(dialog).findByText('Payments · Production'),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'Cloud accountPayments prod (123456789012), eu-west-1',
    );
    expect(dialog).toHaveTextContent('Servicepayments-api in cluster payments');

    // The field starts from the least ECS registers, its image left to give; Review says so.
    const field = within(dialog).getByRole('textbox', {
      name: /Task definition/,
    });
    expect(JSON.parse((field as HTMLTextAreaElement).value)).toEqual({
      family: 'payments-api',
      containerDefinitions: [
        { name: 'payments-api', image: '', essential: true },
      ],
    });
    expect(await reviewProblem(dialog)).toBe(
      'containerDefinitions: at least one container, each with a name and an image (an image reference without spaces)',
    );
    // Checked as typed: JSON first, then the service's own rules.
    await typeDefinition(dialog, '{"family": "payments api"');
    expect(dialog).toHaveTextContent('Not JSON');
    await typeDefinition(dialog, '[]');
    expect(dialog).toHaveTextContent(
      'A JSON object with the task definition’s family and containerDefinitions',
    );
    await typeDefinition(
      dialog,
      JSON.stringify({ ...release, family: 'payments api' }),
    );
    expect(dialog).toHaveTextContent(
      'family: letters, digits, - and _, at most 255',
    );
  });

  it('deploys a whole task definition where the annotations say, after review', async () => {
    await renderTab(annotations);
    const dialog = await openDialog();
    await within(dialog).findByText('Payments · Production');
    await typeDefinition(dialog, JSON.stringify(release, null, 2));
    await userEvent.click(
      within(dialog).getByRole('textbox', { name: 'Description' }),
    );
    await userEvent.paste('First release');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Review' }),
    );

    const confirm = await screen.findByRole('dialog', {
      name: 'Deploy payments-api to payments-api?',
    });
    expect(confirm).toHaveTextContent(
      'The first deployment of payments-api in cluster payments registers task definition payments-api and rolls the service onto it, in Payments · Production with cloud account Payments prod (123456789012), eu-west-1. Its containers:',
    );
    expect(
      within(confirm).getByText('app: registry.example.com/payments-api:1.0.0'),
    ).toBeInTheDocument();
    expect(confirm).toHaveTextContent('It is named “First release”.');
    const post = await deployFromReview(confirm, requestsTo);
    // By id, as the service takes them: the annotations named the given ids.
    expect(post.body).toEqual({
      data: {
        cloudAccountId: 'ca1',
        region: 'eu-west-1',
        environmentId: 'e1',
        clusterRef: 'payments',
        serviceRef: 'payments-api',
        taskDefinition: release,
        description: 'First release',
      },
    });
    expect(post.headers.get('idempotency-key')).toBeTruthy();
    expect(await screen.findByRole('status')).toHaveTextContent(
      '“Deploy payments-api to payments-api” started.',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says what the service refused of the task definition beside it, back in the form', async () => {
    await renderTab(annotations, () =>
      errorResponse(400, {
        code: 'InfraDelivery:Request:VALIDATION_FAILED',
        message: 'The request is not valid',
        details: [
          {
            title: 'Issues',
            render: 'list',
            items: ['body.data.taskDefinition: at most 64 kB of JSON'],
          },
        ],
        requestId: 'req-400',
      }),
    );
    const dialog = await openDialog();
    await within(dialog).findByText('Payments · Production');
    await typeDefinition(dialog, JSON.stringify(release));
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Review' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: 'Deploy payments-api to payments-api?',
    });
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Deploy' }),
    );
    const form = await screen.findByRole('dialog', {
      name: 'Deploy to payments-api',
    });
    expect(
      await within(form).findByText('at most 64 kB of JSON'),
    ).toBeInTheDocument();
    expect(await reviewProblem(form)).toBe('Change what the service refused');
  });

  it('is disabled, naming the annotations missing or wrong', async () => {
    await renderTab({
      'infra-delivery.io/ecs-service': 'payments/payments-api',
      'infra-delivery.io/environment': 'production',
      'infra-delivery.io/region': 'Ireland',
    });
    expect(await deployDisabledReason()).toBe(
      'No deployment of payments-api yet: the first one takes where it goes from the entity\'s annotations. Its catalog entity lacks infra-delivery.io/project and infra-delivery.io/cloud-account. infra-delivery.io/region "Ireland" is not an AWS region such as eu-west-1.',
    );
    expect(requestsTo('GET', '/projects')).toHaveLength(0);
  });

  it('says which annotation names nothing in the organization, and offers no Review', async () => {
    await renderTab({
      ...annotations,
      'infra-delivery.io/environment': 'staging',
    });
    const dialog = await openDialog();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Project Payments has no environment “staging” (infra-delivery.io/environment).',
    );
    await typeDefinition(dialog, JSON.stringify(release));
    expect(await reviewProblem(dialog)).toBe(
      'Project Payments has no environment “staging” (infra-delivery.io/environment).',
    );
  });
});
