import {
  Entity,
  EntityPolicies,
  FieldFormatEntityPolicy,
  NoForeignRootFieldsEntityPolicy,
  resourceEntityV1alpha1Validator,
  SchemaValidEntityPolicy,
  systemEntityV1alpha1Validator,
} from '@backstage/catalog-model';
import {
  CloudAccount,
  CodeSource,
  Environment,
  Project,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { entitiesOf, EntityOptions } from './stackEntities';

const at = '2026-11-22T10:00:00.000Z';
const organizationId = 'org-1';

function project(givenId: string): Project {
  return {
    id: `project-${givenId}`,
    organizationId,
    givenId,
    name: `Project ${givenId}`,
    createdAt: at,
    updatedAt: at,
  };
}

function environment(of: Project, givenId: string): Environment {
  return {
    id: `${of.id}-env-${givenId}`,
    organizationId,
    projectId: of.id,
    givenId,
    name: `Environment ${givenId}`,
    createdAt: at,
    updatedAt: at,
  };
}

function cloudAccount(
  givenId: string,
  fields: Partial<CloudAccount> = {},
): CloudAccount {
  return {
    id: `account-${givenId}`,
    organizationId,
    givenId,
    name: `Account ${givenId}`,
    cloudId: '123456789012',
    status: 'AWAITING_CONNECTION',
    latestRoleVersion: '3',
    latestRoleVersionDescription: 'ECS and CloudWatch',
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

function stack(
  id: string,
  where: Environment,
  fields: Partial<Stack> = {},
): Stack {
  return {
    id,
    organizationId,
    projectId: where.projectId,
    environmentId: where.id,
    type: 'IAC_OPEN',
    runnerLabels: [],
    givenId: id,
    name: `Stack ${id}`,
    autoApprove: false,
    driftStatus: 'UNKNOWN',
    changePipelineId: `${id}-change`,
    destroyPipelineId: `${id}-destroy`,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

const options: EntityOptions = {
  defaultOwner: 'group:default/platform',
  projectOwners: { payments: 'group:default/payments-team' },
  cloudAccountOwners: { production: 'group:default/cloud-team' },
  portalBaseUrl: 'https://portal.example.com',
};

const policy = EntityPolicies.allOf([
  new SchemaValidEntityPolicy(),
  new NoForeignRootFieldsEntityPolicy(),
  new FieldFormatEntityPolicy(),
]);

/** Fails when the catalog would refuse the entity. */
async function expectValid(entity: Entity) {
  await expect(policy.enforce(entity)).resolves.toBe(entity);
  const validator =
    entity.kind === 'System'
      ? systemEntityV1alpha1Validator
      : resourceEntityV1alpha1Validator;
  await expect(validator.check(entity)).resolves.toBe(true);
}

describe('entitiesOf', () => {
  const payments = project('payments');
  const production = environment(payments, 'production');

  it('emits cloud accounts as Resources with their status, owner and a link to the portal', async () => {
    const connected = cloudAccount('production', {
      status: 'CONNECTED',
      roleVersion: '2',
      cloudRef: 'arn:aws:iam::123456789012:role/infra-delivery',
    });
    const awaiting = cloudAccount('sandbox', { cloudId: '210987654321' });

    const entities = entitiesOf(
      {
        projects: [],
        environments: [],
        stacks: [],
        cloudAccounts: [connected, awaiting],
        codeSources: [],
      },
      options,
    );

    expect(entities).toEqual([
      {
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Resource',
        metadata: {
          name: 'cloud-account-production',
          title: 'Account production',
          description: 'AWS account 123456789012',
          labels: { 'infra-delivery.io/status': 'connected' },
          annotations: {
            'backstage.io/managed-by-location':
              'url:infra-delivery:portal-organization',
            'backstage.io/managed-by-origin-location':
              'url:infra-delivery:portal-organization',
            'infra-delivery.io/cloud-account': 'account-production',
            'infra-delivery.io/aws-account-id': '123456789012',
            'infra-delivery.io/role-version': '2',
            'infra-delivery.io/latest-role-version': '3',
          },
          links: [
            {
              url: 'https://portal.example.com/infra-delivery/cloud-accounts',
              title: 'Cloud accounts in the portal',
            },
          ],
        },
        spec: { type: 'cloud-account', owner: 'group:default/cloud-team' },
      },
      expect.objectContaining({
        metadata: expect.objectContaining({
          name: 'cloud-account-sandbox',
          labels: { 'infra-delivery.io/status': 'awaiting-connection' },
          annotations: expect.not.objectContaining({
            'infra-delivery.io/role-version': expect.anything(),
          }),
        }),
        spec: { type: 'cloud-account', owner: 'group:default/platform' },
      }),
    ]);
    for (const entity of entities) {
      await expectValid(entity);
    }
  });

  it('makes a stack depend on its environment and on the cloud account it deploys into', () => {
    const account = cloudAccount('production');
    const entities = entitiesOf(
      {
        projects: [payments],
        environments: [production],
        stacks: [
          stack('s1', production, { cloudAccountId: account.id }),
          stack('s2', production),
          // An account deleted since the stacks were read is left out rather than dangling.
          stack('s3', production, { cloudAccountId: 'account-gone' }),
        ],
        cloudAccounts: [account],
        codeSources: [],
      },
      options,
    );
    const dependsOn = (name: string) =>
      entities.find(e => e.metadata.name === name)?.spec?.dependsOn;

    expect(dependsOn('stack-s1')).toEqual([
      'resource:default/infra-payments-production',
      'resource:default/cloud-account-production',
    ]);
    expect(dependsOn('stack-s2')).toEqual([
      'resource:default/infra-payments-production',
    ]);
    expect(dependsOn('stack-s3')).toEqual([
      'resource:default/infra-payments-production',
    ]);
    expect(
      entities.find(e => e.metadata.name === 'stack-s1')?.spec?.owner,
    ).toBe('group:default/payments-team');
  });

  it('names the stacks of a project and of an environment, for their tabs', async () => {
    const staging = environment(payments, 'staging');
    const empty = project('empty');
    const entities = entitiesOf(
      {
        projects: [payments, empty],
        environments: [production, staging],
        stacks: [
          stack('s1', production),
          stack('s2', staging),
          stack('s3', production),
        ],
        cloudAccounts: [],
        codeSources: [],
      },
      options,
    );
    const stacksOf = (name: string) =>
      entities.find(e => e.metadata.name === name)?.metadata.annotations?.[
        'infra-delivery.io/stacks'
      ];

    expect(stacksOf('infra-project-payments')).toBe('s1,s2,s3');
    expect(stacksOf('infra-payments-production')).toBe('s1,s3');
    expect(stacksOf('infra-payments-staging')).toBe('s2');
    // Without stacks, no annotation: no empty tabs.
    expect(stacksOf('infra-project-empty')).toBeUndefined();
    for (const entity of entities) {
      await expectValid(entity);
    }
  });

  it('describes an environment that has no description of its own', () => {
    const described = {
      ...environment(payments, 'staging'),
      description: 'Where releases are tried first',
    };
    const entities = entitiesOf(
      {
        projects: [payments],
        environments: [production, described],
        stacks: [],
        cloudAccounts: [],
        codeSources: [],
      },
      options,
    );
    const descriptionOf = (name: string) =>
      entities.find(e => e.metadata.name === name)?.metadata.description;

    expect(descriptionOf('infra-payments-production')).toBe(
      'The Environment production environment of the Project payments project',
    );
    expect(descriptionOf('infra-payments-staging')).toBe(
      'Where releases are tried first',
    );
  });

  it("points a stack's source location at its code in its repository", async () => {
    const repository: CodeSource = {
      id: 'source-1',
      organizationId,
      type: 'HOSTED_FORGE',
      repoName: 'acme/infrastructure',
      repoUrl: 'https://github.com/acme/infrastructure',
      defaultBranch: 'main',
      gitRepositoryId: '42',
      visibility: 'PRIVATE',
      accessLost: false,
      auth: { kind: 'installation', forgeInstallationId: '7' },
      createdAt: at,
      updatedAt: at,
    };
    const inRepository = { codeSourceId: repository.id };
    const entities = entitiesOf(
      {
        projects: [payments],
        environments: [production],
        stacks: [
          stack('nested', production, {
            ...inRepository,
            path: './modules/network/',
          }),
          stack('root', production, inRepository),
          stack('elsewhere', production, { codeSourceId: 'source-gone' }),
          stack('local', production, { path: 'modules/dns' }),
        ],
        cloudAccounts: [],
        codeSources: [repository],
      },
      options,
    );
    const sourceOf = (name: string) =>
      entities.find(e => e.metadata.name === `stack-${name}`)?.metadata
        .annotations?.['backstage.io/source-location'];

    expect(sourceOf('nested')).toBe(
      'url:https://github.com/acme/infrastructure/tree/main/modules/network/',
    );
    expect(sourceOf('root')).toBe(
      'url:https://github.com/acme/infrastructure/tree/main/',
    );
    expect(sourceOf('elsewhere')).toBeUndefined();
    expect(sourceOf('local')).toBeUndefined();
    for (const entity of entities) {
      await expectValid(entity);
    }
  });

  it('gives long givenIds valid names that stay apart', async () => {
    const long = 'a'.repeat(55);
    const accounts = [
      cloudAccount(`${long}-one`),
      cloudAccount(`${long}-two`),
      // Cut right after a dash: the name may not end with one.
      cloudAccount(`${'b'.repeat(39)}-${'c'.repeat(20)}`),
    ];
    const longProject = project(`${long}-project`);
    const entities = entitiesOf(
      {
        projects: [longProject],
        environments: [environment(longProject, `${long}-env`)],
        stacks: [],
        cloudAccounts: accounts,
        codeSources: [],
      },
      options,
    );

    const names = entities.map(e => e.metadata.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entity of entities) {
      expect(entity.metadata.name.length).toBeLessThanOrEqual(63);
      await expectValid(entity);
    }
    // A short givenId keeps its plain name.
    expect(
      entitiesOf(
        {
          projects: [],
          environments: [],
          stacks: [],
          cloudAccounts: [cloudAccount('eu')],
          codeSources: [],
        },
        options,
      )[0].metadata.name,
    ).toBe('cloud-account-eu');
  });
});
