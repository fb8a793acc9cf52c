import { DefaultValueDefinition } from '@infra-delivery/plugin-infra-delivery-common';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  errorResponse,
  list,
  now,
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { awsRegion } from '../../__testUtils__/moduleFixtures';
import { DefaultValuesCard } from './DefaultValuesCard';

// Each test types into a dialog over a table: on a busy 2-core machine, a render can take
// longer than the default second to settle.
jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 5_000 });

const instanceSize: DefaultValueDefinition = {
  ...awsRegion,
  id: 'dv-2',
  givenId: 'instance-size',
  name: 'Instance size',
  description: undefined,
  schema: {
    id: 'instance-size',
    label: 'Instance size',
    type: 'string',
    default: 'm5.large',
    // Set through the API: the form keeps what it does not show.
    patterns: [{ pattern: '^(m5|c5)\\.', message: 'An m5 or c5 type' }],
    values: [
      { value: 'm5.large', label: 'Large' },
      { value: 'm5.xlarge', label: 'Extra large' },
    ],
  },
};

/** The text said under a field, which names it as its description. */
const saidUnder = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby')!);

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('DefaultValuesCard', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  /** The service's definitions, changed by the requests the card sends. */
  const serve = (initial: DefaultValueDefinition[]) => {
    let definitions = initial;
    server.use(
      http.get(`${baseUrl}/default-value-definitions`, () =>
        HttpResponse.json(list(definitions)),
      ),
      http.post(`${baseUrl}/default-value-definitions`, async ({ request }) => {
        const { data } = (await request.json()) as {
          data: Pick<
            DefaultValueDefinition,
            'givenId' | 'name' | 'schema' | 'description'
          >;
        };
        const created = { ...awsRegion, ...data, id: 'dv-new' };
        definitions = [created, ...definitions];
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
      http.patch(
        `${baseUrl}/default-value-definitions/:id`,
        async ({ params, request }) => {
          const { data } = (await request.json()) as {
            data: Partial<DefaultValueDefinition>;
          };
          definitions = definitions.map(d =>
            d.id === params.id ? { ...d, ...data, updatedAt: now } : d,
          );
          return HttpResponse.json({
            data: definitions.find(d => d.id === params.id),
          });
        },
      ),
      http.delete(`${baseUrl}/default-value-definitions/:id`, ({ params }) => {
        definitions = definitions.filter(d => d.id !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
  };

  const openAddDialog = async () => {
    const add = () => screen.getByRole('button', { name: 'Add default value' });
    // Disabled until the caller's role is known.
    await waitFor(() => expect(add()).toBeEnabled());
    await userEvent.click(add());
    const dialog = await screen.findByRole('dialog', {
      name: 'Add a default value',
    });
    const field = (name: RegExp) =>
      within(dialog).getByRole('textbox', { name });
    return {
      dialog,
      name: field(/^Name/),
      givenId: field(/^Id/),
      value: field(/^Value/),
      allowedValues: field(/^Allowed values/),
      add: within(dialog).getByRole('button', {
        name: 'Add the default value',
      }),
    };
  };

  it('adds a default value, its id following its name, and lists it', async () => {
    serve([awsRegion]);
    renderWithService(<DefaultValuesCard />);
    const form = await openAddDialog();
    expect(form.add).toBeDisabled();

    await userEvent.type(form.name, 'Log retention');
    expect(form.givenId).toHaveValue('log-retention');
    await userEvent.click(form.value);
    await userEvent.paste('30');
    await userEvent.click(form.allowedValues);
    await userEvent.paste('7\n30\n\n90\n30');
    await userEvent.click(form.add);

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Log retention is added.',
    );
    expect(requestsTo('POST', '/default-value-definitions')[0].body).toEqual({
      data: {
        givenId: 'log-retention',
        name: 'Log retention',
        schema: {
          id: 'log-retention',
          label: 'Log retention',
          type: 'string',
          default: '30',
          values: [{ value: '7' }, { value: '30' }, { value: '90' }],
        },
      },
    });
    const row = rowOf('Log retention');
    expect(within(row).getByText('log-retention')).toBeInTheDocument();
    // Each allowed value a chip of its own.
    expect(
      within(
        within(row).getByRole('list', {
          name: 'Allowed values of Log retention',
        }),
      )
        .getAllByRole('listitem')
        .map(item => item.textContent),
    ).toEqual(['7', '30', '90']);
  });

  it('says a value its allowed values refuse while typing, and the service’s refusals beside their fields', async () => {
    serve([awsRegion]);
    server.use(
      http.post(`${baseUrl}/default-value-definitions`, () =>
        errorResponse(400, {
          code: 'InfraDelivery:Request:VALIDATION_FAILED',
          message: 'The request is not valid',
          requestId: 'r1',
          details: [
            {
              title: 'Problems',
              render: 'list',
              items: [
                'body.data.name: Too big: expected string to have <=255 characters',
                'body.data.schema.default: "eu-north-1" is not one of the allowed values ("eu-west-1")',
              ],
            },
          ],
        }),
      ),
    );
    renderWithService(<DefaultValuesCard />);
    const form = await openAddDialog();

    await userEvent.type(form.name, 'Region');
    await userEvent.click(form.allowedValues);
    await userEvent.paste('eu-west-1');
    await userEvent.click(form.value);
    await userEvent.paste('us-east-1');
    expect(saidUnder(form.value)).toHaveTextContent(
      '"us-east-1" is not one of the allowed values ("eu-west-1")',
    );
    expect(form.add).toBeDisabled();

    // The form agrees; the service, with rules of its own, does not.
    await userEvent.clear(form.allowedValues);
    await userEvent.click(form.add);
    await waitFor(() =>
      expect(saidUnder(form.name)).toHaveTextContent('At most 255 characters'),
    );
    expect(saidUnder(form.value)).toHaveTextContent(
      '"eu-north-1" is not one of the allowed values ("eu-west-1")',
    );
    // Said beside the fields, not again in a panel; nothing typed is lost.
    expect(
      within(form.dialog).queryByText('The default value could not be added'),
    ).not.toBeInTheDocument();
    expect(form.name).toHaveValue('Region');
  });

  it('says beside the id that another default value has it', async () => {
    serve([awsRegion]);
    server.use(
      http.post(`${baseUrl}/default-value-definitions`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:DefaultValueDefinition:GIVEN_ID_TAKEN',
          message: 'A default value definition aws-region exists already',
          requestId: 'r1',
        }),
      ),
    );
    renderWithService(<DefaultValuesCard />);
    const form = await openAddDialog();
    await userEvent.click(form.name);
    await userEvent.paste('AWS region');
    await userEvent.click(form.add);

    await waitFor(() =>
      expect(saidUnder(form.givenId)).toHaveTextContent(
        'A default value definition aws-region exists already',
      ),
    );
  });

  it('changes the value, keeping what the form does not show, its id fixed', async () => {
    serve([awsRegion, instanceSize]);
    renderWithService(<DefaultValuesCard />);

    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit Instance size' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Edit Instance size',
    });
    const save = within(dialog).getByRole('button', {
      name: 'Save the changes',
    });
    expect(within(dialog).getByRole('textbox', { name: /^Id/ })).toBeDisabled();
    expect(save).toBeDisabled();

    const value = within(dialog).getByRole('textbox', { name: /^Value/ });
    await userEvent.clear(value);
    await userEvent.paste('m5.xlarge');
    await userEvent.click(save);

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Instance size is changed.',
    );
    expect(
      requestsTo('PATCH', '/default-value-definitions/dv-2')[0].body,
    ).toEqual({
      data: { schema: { ...instanceSize.schema, default: 'm5.xlarge' } },
    });
    expect(
      // The Value cell (the allowed values' chips name it too).
      within(rowOf('Instance size')).getByText('m5.xlarge', { selector: 'td' }),
    ).toBeInTheDocument();
  });

  it('deletes a default value only after confirmation', async () => {
    serve([awsRegion, instanceSize]);
    renderWithService(<DefaultValuesCard />);

    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete Instance size' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete Instance size?',
    });
    expect(dialog).toHaveTextContent(
      'Module inputs can no longer take their default from instance-size',
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(
      requestsTo('DELETE', '/default-value-definitions/dv-2'),
    ).toHaveLength(0);

    await userEvent.click(
      screen.getByRole('button', { name: 'Delete Instance size' }),
    );
    await userEvent.click(
      within(
        await screen.findByRole('dialog', { name: 'Delete Instance size?' }),
      ).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Instance size is deleted.',
    );
    expect(
      requestsTo('DELETE', '/default-value-definitions/dv-2'),
    ).toHaveLength(1);
    await waitFor(() =>
      expect(screen.queryByText('Instance size')).not.toBeInTheDocument(),
    );
  });

  it('shows which module versions keep a default value the service refused to delete', async () => {
    serve([awsRegion]);
    server.use(
      http.delete(`${baseUrl}/default-value-definitions/dv-1`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:DefaultValueDefinition:IN_USE',
          message:
            'Module versions take their default from aws-region; it can be deleted once no module version names it',
          requestId: 'r2',
          details: [
            {
              title: 'Module versions naming aws-region',
              render: 'list',
              items: ['VPC 1.0.0', 'VPC 1.1.0'],
            },
          ],
        }),
      ),
    );
    renderWithService(<DefaultValuesCard />);

    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete AWS region' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Delete' }),
    );
    expect(
      await within(dialog).findByText(/Module versions take their default/),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('VPC 1.1.0')).toBeInTheDocument();
    expect(screen.getByText('AWS region')).toBeInTheDocument();
  });

  it('says how many there are when not all fit on the page', async () => {
    server.use(
      http.get(`${baseUrl}/default-value-definitions`, () =>
        HttpResponse.json(list([awsRegion], 501)),
      ),
    );
    renderWithService(<DefaultValuesCard />);
    expect(
      await screen.findByText('The newest 1 of 501 default values.'),
    ).toBeInTheDocument();
    expect(
      requestsTo('GET', '/default-value-definitions')[0].query.get('limit'),
    ).toBe('500');
  });
});
