import {
  ANNOTATION_PROJECT,
  Environment,
  Project,
} from '@infra-delivery/plugin-infra-delivery-common';
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
import { createStackRouteRef } from '../../routes';
import { ProjectsPage } from './ProjectsPage';

const payments: Project = {
  id: 'p-1',
  organizationId: 'org-1',
  givenId: 'payments',
  name: 'Payments',
  description: 'Card processing',
  createdAt: now,
  updatedAt: now,
};

const environment = (
  id: string,
  name: string,
  projectId = payments.id,
): Environment => ({
  id,
  organizationId: 'org-1',
  projectId,
  givenId: name.toLowerCase(),
  name,
  createdAt: now,
  updatedAt: now,
});

describe('ProjectsPage', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  /** The service's projects and environments, changed by the requests the page sends. */
  const serve = (
    initialProjects: Project[],
    initialEnvironments: Environment[],
  ) => {
    let projects = initialProjects;
    let environments = initialEnvironments;
    server.use(
      http.get(`${baseUrl}/projects`, () => HttpResponse.json(list(projects))),
      http.get(`${baseUrl}/projects/:projectId/environments`, ({ params }) =>
        HttpResponse.json(
          list(environments.filter(e => e.projectId === params.projectId)),
        ),
      ),
      http.post(`${baseUrl}/projects`, async ({ request }) => {
        const { data } = (await request.json()) as { data: Partial<Project> };
        if (projects.some(p => p.givenId === data.givenId)) {
          return errorResponse(409, {
            code: 'InfraDelivery:Project:GIVEN_ID_TAKEN',
            message: `Project ${data.givenId} exists already`,
            requestId: 'req-1',
          });
        }
        const created = { ...payments, ...data, id: 'p-new' } as Project;
        projects = [created, ...projects];
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
      http.post(
        `${baseUrl}/projects/:projectId/environments`,
        async ({ params, request }) => {
          const { data } = (await request.json()) as {
            data: Partial<Environment>;
          };
          const created = {
            ...environment('e-new', data.name!, String(params.projectId)),
            ...data,
          };
          environments = [...environments, created];
          return HttpResponse.json({ data: created }, { status: 201 });
        },
      ),
      http.delete(
        `${baseUrl}/projects/:projectId/environments/:id`,
        ({ params }) => {
          environments = environments.filter(e => e.id !== params.id);
          return new HttpResponse(null, { status: 204 });
        },
      ),
      http.delete(`${baseUrl}/projects/:id`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:Project:IN_USE',
          message:
            'The project still has environments, stacks or pipelines; delete them first',
          requestId: 'req-2',
        }),
      ),
    );
  };

  const openCreateDialog = async () => {
    const create = () => screen.getByRole('button', { name: 'Create project' });
    await waitFor(() => expect(create()).toBeEnabled());
    await userEvent.click(create());
    const dialog = await screen.findByRole('dialog', {
      name: 'Create a project',
    });
    return {
      dialog,
      name: within(dialog).getByRole('textbox', { name: /^Name/ }),
      givenId: within(dialog).getByRole('textbox', { name: /^Id/ }),
      submit: within(dialog).getByRole('button', {
        name: 'Create the project',
      }),
    };
  };

  /** Adds the environment Staging from a project's drawer. */
  const addStaging = async (drawer: HTMLElement, project: string) => {
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Add environment' }),
    );
    const add = await screen.findByRole('dialog', {
      name: `Add an environment to ${project}`,
    });
    await userEvent.type(
      within(add).getByRole('textbox', { name: /^Name/ }),
      'Staging',
    );
    await userEvent.click(
      within(add).getByRole('button', { name: 'Add the environment' }),
    );
  };

  it('lists the projects with their environments, and opens one for its environments', async () => {
    serve(
      [payments],
      [environment('e-1', 'Staging'), environment('e-2', 'Production')],
    );
    renderWithService(<ProjectsPage />);

    const environments = await screen.findByRole('list', {
      name: 'Environments of Payments',
    });
    expect(
      within(environments)
        .getAllByRole('listitem')
        .map(item => item.textContent),
    ).toEqual(['Staging', 'Production']);
    expect(screen.getByText('Card processing')).toBeInTheDocument();

    await userEvent.click(
      screen.getByRole('button', { name: 'Details of Payments' }),
    );
    const drawer = await screen.findByRole('dialog', { name: 'Payments' });
    expect(within(drawer).getByText('production')).toBeInTheDocument();
    expect(
      within(drawer).getByRole('button', { name: 'Delete Staging' }),
    ).toBeInTheDocument();
  });

  it("links a project's drawer to its System in the catalog", async () => {
    serve([payments], []);
    renderWithService(<ProjectsPage />, {
      // The catalog module's System of Payments, and a stack that carries the same
      // annotation: only the System is the project's page.
      catalogEntities: [
        {
          apiVersion: 'backstage.io/v1alpha1',
          kind: 'Resource',
          metadata: {
            name: 'stack-s1',
            namespace: 'default',
            annotations: { [ANNOTATION_PROJECT]: 'payments' },
          },
          spec: { type: 'iac-stack', owner: 'guests' },
        },
        {
          apiVersion: 'backstage.io/v1alpha1',
          kind: 'System',
          metadata: {
            name: 'infra-project-payments',
            namespace: 'default',
            annotations: { [ANNOTATION_PROJECT]: 'payments' },
          },
          spec: { owner: 'guests' },
        },
      ],
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of Payments' }),
    );
    const drawer = await screen.findByRole('dialog', { name: 'Payments' });
    expect(
      await within(drawer).findByRole('link', {
        name: 'Its page in the catalog',
      }),
    ).toHaveAttribute('href', '/catalog/default/system/infra-project-payments');
  });

  it('creates a project, its id following its name, then adds an environment to it', async () => {
    serve([], []);
    renderWithService(<ProjectsPage />);
    expect(await screen.findByText('No project yet.')).toBeInTheDocument();

    const form = await openCreateDialog();
    expect(form.submit).toBeDisabled();
    await userEvent.type(form.name, 'Data Platform');
    expect(form.givenId).toHaveValue('data-platform');
    await userEvent.click(form.submit);

    await waitFor(() =>
      expect(requestsTo('POST', '/projects')).toHaveLength(1),
    );
    expect(requestsTo('POST', '/projects')[0].body).toEqual({
      data: { name: 'Data Platform', givenId: 'data-platform' },
    });
    // The new project's drawer opens, for its environments.
    const drawer = await screen.findByRole('dialog', { name: 'Data Platform' });
    expect(within(drawer).getByText(/No environment yet/)).toBeInTheDocument();

    await addStaging(drawer, 'Data Platform');

    // Listed in the drawer, and beside the project once the drawer is closed.
    expect(await within(drawer).findByText('staging')).toBeInTheDocument();
    expect(requestsTo('POST', '/projects/p-new/environments')[0].body).toEqual({
      data: { name: 'Staging', givenId: 'staging' },
    });
    expect(screen.getByText('The environment is added.')).toBeInTheDocument();
    // The app bound no stack template: no link to one.
    expect(
      screen.queryByRole('link', { name: /Create a stack/ }),
    ).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(
      await screen.findByRole('list', {
        name: 'Environments of Data Platform',
      }),
    ).toHaveTextContent('Staging');
  });

  it('offers a stack in an environment just added, its project and environment chosen, where the app has the stack template', async () => {
    serve([payments], []);
    renderWithService(<ProjectsPage />, {
      mountedRoutes: {
        '/create/templates/:namespace/:templateName': createStackRouteRef,
      },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of Payments' }),
    );
    const drawer = await screen.findByRole('dialog', { name: 'Payments' });
    await addStaging(drawer, 'Payments');

    expect(
      await within(drawer).findByText(
        'Staging is added: stacks are created in it next.',
      ),
    ).toBeInTheDocument();
    const href = within(drawer)
      .getByRole('link', { name: 'Create a stack in Staging' })
      .getAttribute('href')!;
    expect(href).toMatch(
      /^\/create\/templates\/default\/infra-delivery-stack\?/,
    );
    // The scaffolder reads the form's first values from `formData`.
    expect(
      JSON.parse(
        new URL(href, 'http://localhost').searchParams.get('formData')!,
      ),
    ).toEqual({
      where: {
        projectId: 'p-1',
        project: 'Payments (payments)',
        environmentId: 'e-new',
        environment: 'Staging (staging)',
      },
    });
    // The environment's row offers the same, for later (a link that looks like the row's
    // other buttons, as Backstage's LinkButton is).
    expect(await within(drawer).findByText('staging')).toBeInTheDocument();
    expect(
      within(drawer).getByRole('button', { name: 'Create a stack in Staging' }),
    ).toHaveAttribute('href', href);
  });

  it('says beside the id that another project has it', async () => {
    serve([payments], []);
    renderWithService(<ProjectsPage />);
    await screen.findByRole('button', { name: 'Details of Payments' });

    const form = await openCreateDialog();
    await userEvent.type(form.name, 'Payments');
    await userEvent.click(form.submit);

    expect(
      await within(form.dialog).findByText('Project payments exists already'),
    ).toBeInTheDocument();
    expect(form.givenId).toHaveAttribute('aria-invalid', 'true');
  });

  it('deletes an environment after asking, and shows why the service refuses to delete a project', async () => {
    serve([payments], [environment('e-1', 'Staging')]);
    renderWithService(<ProjectsPage />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of Payments' }),
    );
    const drawer = await screen.findByRole('dialog', { name: 'Payments' });

    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Delete Staging' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: 'Delete Staging?',
    });
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() =>
      expect(
        requestsTo('DELETE', '/projects/p-1/environments/e-1'),
      ).toHaveLength(1),
    );
    expect(await screen.findByText(/No environment yet/)).toBeInTheDocument();

    await userEvent.click(
      screen.getByRole('button', { name: 'Delete project' }),
    );
    const refuse = await screen.findByRole('dialog', {
      name: 'Delete Payments?',
    });
    await userEvent.click(
      within(refuse).getByRole('button', { name: 'Delete project' }),
    );
    expect(
      await within(refuse).findByText(
        'The project still has environments, stacks or pipelines; delete them first',
      ),
    ).toBeInTheDocument();
  });
});
