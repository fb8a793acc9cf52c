import { screen, waitFor, within } from '@testing-library/react';
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
import { instance, moduleHandlers } from '../../__testUtils__/moduleFixtures';
import { inputText } from './ModuleDrawer';
import { ModulesPage } from './ModulesPage';
import { fakeContainerWidth } from '../../__testUtils__/containerWidth';

describe('ModulesPage', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(...moduleHandlers());
  });

  const rowOf = (name: string) =>
    screen.getByRole('button', { name: `Details of ${name}` }).closest('tr')!;

  it('lists the modules with their repository directory and how many instances each has', async () => {
    renderWithService(<ModulesPage />);

    await screen.findByRole('button', { name: 'Details of VPC' });
    const vpcRow = rowOf('VPC');
    expect(
      within(vpcRow).getByText('A network with public and private subnets'),
    ).toBeInTheDocument();
    expect(
      within(vpcRow).getByRole('link', { name: 'acme/modules/network/vpc' }),
    ).toHaveAttribute(
      'href',
      'https://github.com/acme/modules/tree/main/network/vpc',
    );
    expect(within(vpcRow).getByText('1')).toBeInTheDocument();

    // Its repository no longer connected: said so, and nothing to link to.
    const queueRow = rowOf('Queue');
    expect(
      within(queueRow).getByText('A repository no longer connected'),
    ).toBeInTheDocument();
    expect(within(queueRow).queryByRole('link')).not.toBeInTheDocument();
    expect(within(queueRow).getByText('None')).toBeInTheDocument();
    // One request per list, not one per module.
    expect(requestsTo('GET', '/module-instances')).toHaveLength(1);
  });

  // In an 800 px window four columns ran past the card's edge, Updated cut off.
  it('folds the instances and the update time under the name where the table is under 700 px', async () => {
    const restore = fakeContainerWidth(560);
    try {
      renderWithService(<ModulesPage />);
      await screen.findByRole('button', { name: 'Details of VPC' });
      const modulesTable = rowOf('VPC').closest('table')!;
      expect(
        within(modulesTable)
          .getAllByRole('columnheader')
          .map(header => header.textContent),
      ).toEqual(['Module', 'Repository']);
      expect(
        within(rowOf('VPC')).getByText(/^1 instance · updated/),
      ).toBeInTheDocument();
      expect(
        within(rowOf('Queue')).getByText(/^No instance · updated/),
      ).toBeInTheDocument();
    } finally {
      restore();
    }
  });

  it('lists the default values module inputs may take, by the id they name', async () => {
    renderWithService(<ModulesPage />);

    const row = (await screen.findByText('AWS region')).closest('tr')!;
    expect(within(row).getByText('aws-region')).toBeInTheDocument();
    // Its value, and the values it may take, each a chip kept on one line.
    expect(
      within(row).getByText('eu-west-1', { selector: 'td' }),
    ).toBeInTheDocument();
    const allowed = within(row).getByRole('list', {
      name: 'Allowed values of AWS region',
    });
    expect(
      within(allowed)
        .getAllByRole('listitem')
        .map(item => item.textContent),
    ).toEqual(['eu-west-1', 'eu-central-1']);
    for (const chip of within(allowed).getAllByText(/^eu-/)) {
      expect(chip.closest('.MuiChip-root')).toHaveStyle({
        whiteSpace: 'nowrap',
      });
    }
    expect(
      within(row).getByText('Where the organization deploys'),
    ).toBeInTheDocument();
  });

  it('opens a module beside the list with its versions and its instances in environments', async () => {
    renderWithService(<ModulesPage />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of VPC' }),
    );

    const drawer = screen.getByRole('dialog', { name: 'VPC' });
    const versionsTable = within(drawer)
      .getByRole('heading', { name: 'Versions' })
      .closest('section')!;
    const newest = (await within(versionsTable).findByText('1.1.0')).closest(
      'tr',
    )!;
    expect(within(newest).getByText('v1.1.0')).toBeInTheDocument();
    expect(
      within(newest).getByRole('link', { name: 'a1b2c3d' }),
    ).toHaveAttribute(
      'href',
      'https://github.com/acme/modules/commit/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    );
    expect(
      await within(newest).findByText(
        'Region (default eu-west-1, from AWS region)',
      ),
    ).toBeInTheDocument();
    expect(
      within(newest).getByText('CIDR block (required, fixed once set)'),
    ).toBeInTheDocument();
    expect(
      within(within(versionsTable).getByText('1.0.0').closest('tr')!).getByText(
        'None',
      ),
    ).toBeInTheDocument();

    const deployed = within(drawer)
      .getByRole('heading', { name: 'Instances' })
      .closest('section')!;
    const row = within(deployed).getByText('payments-network').closest('tr')!;
    expect(
      await within(row).findByText('Payments · Production'),
    ).toBeInTheDocument();
    expect(within(row).getByText('1.1.0')).toBeInTheDocument();
    expect(within(row).getByText('cidr = 10.20.0.0/16')).toBeInTheDocument();
    expect(within(row).getByText('region = eu-west-1')).toBeInTheDocument();

    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Close' }),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  /** Opens the VPC's drawer and its New instance dialog. */
  async function openNewInstanceDialog() {
    renderWithService(<ModulesPage />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of VPC' }),
    );
    const drawer = screen.getByRole('dialog', { name: 'VPC' });
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'New instance' }),
    );
    return {
      drawer,
      dialog: await screen.findByRole('dialog', {
        name: 'New instance of VPC',
      }),
    };
  }

  /** Picks an option of one of the dialog's selects. */
  async function choose(dialog: HTMLElement, label: RegExp, option: string) {
    await userEvent.click(within(dialog).getByLabelText(label));
    const listbox = await screen.findByRole('listbox');
    await userEvent.click(
      within(listbox).getByRole('option', { name: option }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument(),
    );
  }

  it("creates an instance of a version in an environment, checking the inputs' rules as they are typed", async () => {
    const created = {
      ...instance,
      id: 'mi-2',
      name: 'payments-network-staging',
      environmentId: 'e-staging',
    };
    server.use(
      http.post(`${baseUrl}/module-instances`, () =>
        HttpResponse.json({ data: created }, { status: 201 }),
      ),
    );
    const { drawer, dialog } = await openNewInstanceDialog();
    const create = within(dialog).getByRole('button', {
      name: 'Create the instance',
    });
    expect(create).toBeDisabled();
    // The newest version is offered, with a field per input and what an empty one takes.
    expect(within(dialog).getByText('Values of version 1.1.0')).toBeVisible();
    expect(
      within(dialog).getByText(
        'Empty takes the default: eu-west-1, from AWS region',
      ),
    ).toBeInTheDocument();

    await userEvent.type(
      within(dialog).getByLabelText(/^Name/),
      'payments-network-staging',
    );
    await choose(dialog, /^Environment/, 'Payments · Staging');
    const cidr = within(dialog).getByLabelText(/^CIDR block/);
    await userEvent.type(cidr, '10.30.0.0');
    expect(
      within(dialog).getByText('A CIDR block such as 10.0.0.0/16'),
    ).toBeInTheDocument();
    expect(create).toBeDisabled();
    await userEvent.type(cidr, '/16');
    expect(create).toBeEnabled();
    const listed = requestsTo('GET', '/module-instances').length;

    await userEvent.click(create);

    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'New instance of VPC' }),
      ).not.toBeInTheDocument(),
    );
    const [post] = requestsTo('POST', '/module-instances');
    // An empty field is not sent: the service fills its default.
    expect(post.body).toEqual({
      data: {
        name: 'payments-network-staging',
        environmentId: 'e-staging',
        moduleVersionId: 'mv-2',
        values: { cidr: '10.30.0.0/16' },
      },
    });
    expect(
      within(drawer).getByText('Instance payments-network-staging created.'),
    ).toBeInTheDocument();
    // The catalog reads the instances again.
    await waitFor(() =>
      expect(requestsTo('GET', '/module-instances').length).toBeGreaterThan(
        listed,
      ),
    );
  });

  it('says beside a field what the service refused in it, and keeps the dialog open', async () => {
    server.use(
      http.post(`${baseUrl}/module-instances`, () =>
        errorResponse(400, {
          code: 'InfraDelivery:ModuleInstance:INVALID_VALUES',
          message: 'The values do not fit the module version',
          requestId: 'req-values',
          details: [
            {
              title: 'Invalid values',
              render: 'list',
              items: ['values.cidr: overlaps the network of payments-network'],
            },
          ],
        }),
      ),
    );
    const { dialog } = await openNewInstanceDialog();
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'second');
    await choose(dialog, /^Environment/, 'Payments · Production');
    await userEvent.type(
      within(dialog).getByLabelText(/^CIDR block/),
      '10.20.0.0/16',
    );

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Create the instance' }),
    );

    expect(
      await within(dialog).findByText(
        'Overlaps the network of payments-network',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^CIDR block/)).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  /** Opens the VPC's drawer and returns the row of its instance `name`. */
  async function instanceRow(name: string) {
    renderWithService(<ModulesPage />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of VPC' }),
    );
    const drawer = screen.getByRole('dialog', { name: 'VPC' });
    const row = (await within(drawer).findByText(name)).closest('tr')!;
    return { drawer, row };
  }

  it('changes a value of an instance, leaving the one fixed once set as it is', async () => {
    server.use(
      http.patch(`${baseUrl}/module-instances/:id`, () =>
        HttpResponse.json({
          data: {
            ...instance,
            values: { ...instance.values, region: 'eu-central-1' },
          },
        }),
      ),
    );
    const { drawer, row } = await instanceRow('payments-network');
    await userEvent.click(
      await within(row).findByRole('button', {
        name: 'Change payments-network',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Change payments-network',
    });
    const save = within(dialog).getByRole('button', {
      name: 'Save the changes',
    });
    // Nothing changed yet; the CIDR block is fixed once set, the environment for good.
    expect(save).toBeDisabled();
    expect(within(dialog).getByLabelText(/^CIDR block/)).toBeDisabled();
    expect(within(dialog).getByLabelText(/^CIDR block/)).toHaveValue(
      '10.20.0.0/16',
    );
    expect(
      within(dialog).getByText('An instance stays in its environment'),
    ).toBeInTheDocument();
    const region = within(dialog).getByLabelText(/^Region/);
    expect(region).toHaveValue('eu-west-1');

    await userEvent.clear(region);
    await userEvent.type(region, 'eu-central-1');
    await userEvent.click(save);

    await waitFor(() =>
      expect(requestsTo('PATCH', '/module-instances/mi-1')).toHaveLength(1),
    );
    expect(requestsTo('PATCH', '/module-instances/mi-1')[0].body).toEqual({
      data: { values: { region: 'eu-central-1' } },
    });
    expect(
      await within(drawer).findByText('Instance payments-network changed.'),
    ).toBeInTheDocument();
  });

  it('moves an instance to a newer version, asking for the inputs that version adds', async () => {
    const older = {
      ...instance,
      moduleVersionId: 'mv-1',
      values: { region: 'eu-west-1' },
    };
    server.use(
      http.get(`${baseUrl}/module-instances`, () =>
        HttpResponse.json(list([older])),
      ),
      http.patch(`${baseUrl}/module-instances/:id`, () =>
        HttpResponse.json({ data: instance }),
      ),
    );
    const { row } = await instanceRow('payments-network');
    expect(within(row).getByText('1.0.0')).toBeInTheDocument();
    expect(within(row).getByText('1.1.0 available')).toBeInTheDocument();
    await userEvent.click(
      within(row).getByRole('button', { name: 'Change payments-network' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Change payments-network',
    });
    expect(within(dialog).queryByLabelText(/^CIDR block/)).toBeNull();

    await choose(dialog, /^Version/, '1.1.0 (v1.1.0) · newest');
    const save = within(dialog).getByRole('button', {
      name: 'Save the changes',
    });
    // 1.1.0 adds a required input without a default.
    expect(save).toBeDisabled();
    await userEvent.type(
      within(dialog).getByLabelText(/^CIDR block/),
      '10.40.0.0/16',
    );
    await userEvent.click(save);

    await waitFor(() =>
      expect(requestsTo('PATCH', '/module-instances/mi-1')).toHaveLength(1),
    );
    expect(requestsTo('PATCH', '/module-instances/mi-1')[0].body).toEqual({
      data: { moduleVersionId: 'mv-2', values: { cidr: '10.40.0.0/16' } },
    });
  });

  it('keeps an instance from a version that would forget a value fixed once set', async () => {
    const { row } = await instanceRow('payments-network');
    await userEvent.click(
      await within(row).findByRole('button', {
        name: 'Change payments-network',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Change payments-network',
    });
    expect(within(dialog).queryByText(/does not take/)).toBeNull();

    // 1.0.0 takes no input at all.
    await choose(dialog, /^Version/, '1.0.0 (v1.0.0)');

    // Moved there and back, cidr was empty and took any value (the VPC replaced).
    expect(
      within(dialog).getByText(
        'Version 1.0.0 does not take cidr (10.20.0.0/16), fixed once set: the instance cannot move to it.',
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Save the changes' }),
    ).toBeDisabled();
  });

  it('deletes an instance once the person confirms', async () => {
    server.use(
      http.delete(
        `${baseUrl}/module-instances/:id`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    const { drawer, row } = await instanceRow('payments-network');
    await userEvent.click(
      await within(row).findByRole('button', {
        name: 'Delete payments-network',
      }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: 'Delete payments-network?',
    });
    expect(requestsTo('DELETE', '/module-instances/mi-1')).toHaveLength(0);
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Delete' }),
    );

    await waitFor(() =>
      expect(requestsTo('DELETE', '/module-instances/mi-1')).toHaveLength(1),
    );
    expect(
      await within(drawer).findByText('Instance payments-network deleted.'),
    ).toBeInTheDocument();
  });

  it('opens the module a link names (?module=<id>), one without versions or instances saying so', async () => {
    renderWithService(<ModulesPage />, {
      initialRouteEntries: ['/?module=md-queue'],
    });

    const drawer = await screen.findByRole('dialog', { name: 'Queue' });
    expect(
      await within(drawer).findByText('No version released yet.'),
    ).toBeInTheDocument();
    expect(within(drawer).getByText(/^No instance yet/)).toBeInTheDocument();
  });

  it('shows what the service answered when the list cannot be read', async () => {
    server.use(
      http.get(`${baseUrl}/module-definitions`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          message: 'Not allowed',
          requestId: 'req-1',
        }),
      ),
    );
    renderWithService(<ModulesPage />);

    expect(await screen.findByText(/Not allowed/)).toBeInTheDocument();
  });
});

describe('inputText', () => {
  it("says an input's own default, and a default value it names but the portal does not know", () => {
    const none = new Map();
    expect(
      inputText(
        { id: 'threshold', label: 'Threshold', type: 'number', default: '80' },
        none,
      ),
    ).toBe('Threshold (default 80)');
    expect(
      inputText(
        { id: 'zone', label: 'Zone', type: 'string', default_from: 'dns-zone' },
        none,
      ),
    ).toBe('Zone (default from dns-zone)');
    expect(inputText({ id: 'name', label: 'Name', type: 'string' }, none)).toBe(
      'Name',
    );
    // A definition without a default: the input's own applies, as the service resolves it.
    const withoutDefault = new Map([
      [
        'dns-zone',
        {
          id: 'dv-2',
          organizationId: 'org-1',
          givenId: 'dns-zone',
          name: 'DNS zone',
          createdByType: 'USER' as const,
          schema: { id: 'zone', label: 'Zone', type: 'string' },
          createdAt: now,
          updatedAt: now,
        },
      ],
    ]);
    expect(
      inputText(
        {
          id: 'zone',
          label: 'Zone',
          type: 'string',
          default_from: 'dns-zone',
          default: 'example.com',
        },
        withoutDefault,
      ),
    ).toBe('Zone (default example.com)');
  });
});
