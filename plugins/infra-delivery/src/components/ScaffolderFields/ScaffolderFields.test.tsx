import { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ComponentType, useState } from 'react';
import {
  baseUrl,
  cloudAccount,
  errorResponse,
  list,
  now,
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  EnvironmentChoice,
  EnvironmentPicker,
  validateEnvironmentChoice,
} from './EnvironmentPicker';
import { CloudAccountPicker, CodeSourcePicker } from './resourcePickers';
import { RunnerLabelsInput, validateRunnerLabels } from './RunnerLabelsInput';

const named = (id: string, givenId: string, name: string) => ({
  id,
  givenId,
  name,
  organizationId: 'org-1',
  createdAt: now,
  updatedAt: now,
});

/**
 * A field as the scaffolder's form holds it: the value it last gave is its `formData`, and
 * `values` records every value it gave.
 */
function renderField<T>(
  Field: ComponentType<FieldExtensionComponentProps<T>>,
  props: {
    required?: boolean;
    title?: string;
    rawErrors?: string[];
    type?: 'string' | 'object';
  } = {},
) {
  const values: (T | undefined)[] = [];
  const Form = () => {
    const [value, setValue] = useState<T>();
    const fieldProps = {
      formData: value,
      onChange: (next: T | undefined) => {
        values.push(next);
        setValue(next);
      },
      required: props.required,
      rawErrors: props.rawErrors ?? [],
      schema: {
        title: props.title,
        type: props.type,
        description: 'Where it goes',
      },
      idSchema: { $id: 'root_field' },
      uiSchema: {},
    } as unknown as FieldExtensionComponentProps<T>;
    return <Field {...fieldProps} />;
  };
  renderWithService(<Form />);
  return values;
}

async function choose(label: RegExp, option: string) {
  await userEvent.click(await screen.findByLabelText(label));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('EnvironmentPicker', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/projects`, () =>
        HttpResponse.json(
          list([
            named('project-1', 'payments', 'Payments'),
            named('project-2', 'search', 'Search'),
          ]),
        ),
      ),
      http.get(`${baseUrl}/projects/:projectId/environments`, ({ params }) =>
        HttpResponse.json(
          list(
            params.projectId === 'project-1'
              ? [
                  {
                    ...named('env-1', 'production', 'Production'),
                    projectId: 'project-1',
                  },
                  {
                    ...named('env-2', 'staging', 'Staging'),
                    projectId: 'project-1',
                  },
                ]
              : [],
          ),
        ),
      ),
    );
  });

  it("chooses a project by name, then one of that project's environments", async () => {
    const values = renderField(EnvironmentPicker, { required: true });

    // No environment before a project; the hint keeps help text's readable colour.
    const hint = await screen.findByText('Choose the project first');
    expect(hint).toBeVisible();
    expect(hint).not.toHaveClass('Mui-disabled');
    expect(requestsTo('GET', '/projects/project-1/environments')).toHaveLength(
      0,
    );

    await choose(/^Project/, 'Payments (payments)');
    expect(values.at(-1)).toEqual({
      projectId: 'project-1',
      project: 'Payments (payments)',
    });
    await choose(/^Environment/, 'Staging (staging)');
    // The ids for the action, the names for the form's review.
    expect(values.at(-1)).toEqual({
      projectId: 'project-1',
      project: 'Payments (payments)',
      environmentId: 'env-2',
      environment: 'Staging (staging)',
    });
    expect(requestsTo('GET', '/projects/project-1/environments')).toHaveLength(
      1,
    );

    // Another project forgets the first one's environment.
    await choose(/^Project/, 'Search (search)');
    expect(values.at(-1)).toEqual({
      projectId: 'project-2',
      project: 'Search (search)',
    });
    // An empty list says how it gets something, not only that it is empty.
    expect(
      await screen.findByText(
        'This project has no environment yet: a member adds them on Infrastructure → Projects (the project’s name opens its environments)',
      ),
    ).toBeVisible();
  });

  it('says how projects come to be when the organization has none (a new install)', async () => {
    server.use(
      http.get(`${baseUrl}/projects`, () => HttpResponse.json(list([]))),
    );
    renderField(EnvironmentPicker, { required: true });
    expect(
      await screen.findByText(
        'Your organization has no project yet: a member creates projects and their environments on Infrastructure → Projects',
      ),
    ).toBeVisible();
  });

  it('names the error of the project list instead of an empty select', async () => {
    server.use(
      http.get(`${baseUrl}/projects`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Auth:FORBIDDEN',
          message: 'You are not a member of this organization',
          requestId: 'req-1',
        }),
      ),
    );
    renderField(EnvironmentPicker, { required: true });
    expect(
      await screen.findByText('You are not a member of this organization'),
    ).toBeVisible();
    expect(screen.getByLabelText(/^Project/)).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('asks for the environment when only the project is chosen', () => {
    const errors: string[] = [];
    const validation = { addError: (message: string) => errors.push(message) };
    const validate = (choice: EnvironmentChoice) =>
      validateEnvironmentChoice(choice, validation as never, {} as never);

    validate({ projectId: 'project-1' });
    expect(errors).toEqual(['Choose an environment of the project']);
    validate({ projectId: 'project-1', environmentId: 'env-1' });
    expect(errors).toHaveLength(1);
  });
});

describe('CloudAccountPicker and CodeSourcePicker', () => {
  const { server } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/cloud-accounts`, () =>
        HttpResponse.json(
          list([
            cloudAccount({ id: 'acct-1', name: 'Production' }),
            cloudAccount({
              id: 'acct-2',
              name: 'Sandbox',
              cloudId: '222222222222',
              status: 'AWAITING_CONNECTION',
            }),
          ]),
        ),
      ),
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(
          list([
            {
              id: 'source-1',
              repoName: 'acme/network-infra',
              defaultBranch: 'main',
            },
          ]),
        ),
      ),
    );
  });

  it('chooses an optional cloud account by name, and can choose none again', async () => {
    const values = renderField(CloudAccountPicker, { title: 'Cloud account' });

    await userEvent.click(await screen.findByLabelText(/^Cloud account/));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map(option => option.textContent),
    ).toEqual([
      'No cloud account',
      'Production · 123456789012',
      'Sandbox · 222222222222 (not connected yet)',
    ]);
    await userEvent.click(
      within(listbox).getByRole('option', {
        name: 'Production · 123456789012',
      }),
    );
    expect(values.at(-1)).toBe('acct-1');

    await choose(/^Cloud account/, 'No cloud account');
    expect(values.at(-1)).toBeUndefined();
  });

  it('offers no empty choice when the template requires the field', async () => {
    renderField(CloudAccountPicker, { required: true });
    await userEvent.click(await screen.findByLabelText(/^Cloud account/));
    expect(
      await screen.findByRole('option', { name: 'Production · 123456789012' }),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('option', { name: 'No cloud account' }),
    ).not.toBeInTheDocument();
  });

  it('marks the select when the form found its value wrong', async () => {
    renderField(CloudAccountPicker, { rawErrors: ['is required'] });
    expect(await screen.findByText('Where it goes')).toHaveClass('Mui-error');
  });

  it("chooses a code source by its repository's name", async () => {
    const values = renderField(CodeSourcePicker);
    await choose(/^Code source/, 'acme/network-infra (main)');
    expect(values.at(-1)).toBe('source-1');
  });

  it('gives a property of type object the id and the name chosen, for the review', async () => {
    const values = renderField(CloudAccountPicker, {
      title: 'Cloud account',
      type: 'object',
    });
    await choose(/^Cloud account/, 'Production · 123456789012');
    expect(values.at(-1)).toEqual({
      id: 'acct-1',
      name: 'Production · 123456789012',
    });
    // The select shows the object's choice, and choosing none leaves the property out.
    expect(
      screen.getByRole('button', { name: /Cloud account/ }),
    ).toHaveTextContent('Production · 123456789012');
    await choose(/^Cloud account/, 'No cloud account');
    expect(values.at(-1)).toBeUndefined();
  });
});

describe('RunnerLabelsInput', () => {
  setupInfraDeliveryServer();

  it('gives the labels as typed, says under itself what a runner could not carry, and nothing when emptied', async () => {
    const values = renderField(RunnerLabelsInput);
    const field = screen.getByRole('textbox', { name: 'Runner labels' });
    // The property's description is the hint until something is wrong.
    expect(screen.getByText('Where it goes')).toBeInTheDocument();
    await userEvent.type(field, 'env=prod, -bad');
    expect(values[values.length - 1]).toBe('env=prod, -bad');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(
      screen.getByText(
        '"-bad" is not a label: a letter or digit, then letters, digits or _ . : = / - (env=prod)',
      ),
    ).toBeInTheDocument();
    await userEvent.clear(field);
    expect(values[values.length - 1]).toBeUndefined();
    expect(field).toHaveAttribute('aria-invalid', 'false');
  });

  it('leaves the problem to the form once the form lists it under the field', async () => {
    renderField(RunnerLabelsInput, {
      rawErrors: ['"-bad" is not a label'],
    });
    const field = screen.getByRole('textbox', { name: 'Runner labels' });
    await userEvent.type(field, '-bad');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(
      screen.queryByText(/is not a label: a letter/),
    ).not.toBeInTheDocument();
    expect(screen.queryByText('Where it goes')).not.toBeInTheDocument();
  });

  it('keeps the form from its next step with labels the stack settings would refuse', () => {
    const errors: string[] = [];
    const validation = { addError: (message: string) => errors.push(message) };
    const validate = (text: string | undefined) =>
      validateRunnerLabels(text as string, validation as never, {} as never);
    validate(undefined);
    validate('env=prod region=eu');
    expect(errors).toEqual([]);
    validate('env prod,a b,c=d e,f!');
    expect(errors).toEqual([
      '"f!" is not a label: a letter or digit, then letters, digits or _ . : = / - (env=prod)',
    ]);
  });
});
