import {
  CodeSource,
  DefaultValueDefinition,
  ModuleDefinition,
  ModuleInstance,
  ModuleVersion,
} from '@infra-delivery/plugin-infra-delivery-common';
import { http, HttpResponse } from 'msw';
import { baseUrl, list, now } from './infraDeliveryTestKit';

/** The organization's one connected repository. */
export const repository: CodeSource = {
  id: 'cs-1',
  organizationId: 'org-1',
  type: 'HOSTED_FORGE',
  auth: { kind: 'installation', forgeInstallationId: '42' },
  accessLost: false,
  defaultBranch: 'main',
  gitRepositoryId: '7',
  repoName: 'acme/modules',
  repoUrl: 'https://github.com/acme/modules',
  visibility: 'PRIVATE',
  createdAt: now,
  updatedAt: now,
};

export function definition(
  overrides: Partial<ModuleDefinition> & Pick<ModuleDefinition, 'id' | 'name'>,
): ModuleDefinition {
  return {
    organizationId: 'org-1',
    givenId: overrides.id,
    codeSourceId: repository.id,
    path: '',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export const vpc = definition({
  id: 'md-vpc',
  givenId: 'vpc',
  name: 'VPC',
  description: 'A network with public and private subnets',
  path: 'network/vpc',
});
/** Its repository was disconnected since. */
export const queue = definition({
  id: 'md-queue',
  name: 'Queue',
  codeSourceId: 'cs-gone',
});

export const version = (
  overrides: Partial<ModuleVersion> & Pick<ModuleVersion, 'id' | 'version'>,
): ModuleVersion => ({
  organizationId: 'org-1',
  moduleDefinitionId: vpc.id,
  ref: `v${overrides.version}`,
  commitSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  inputs: [],
  createdAt: now,
  ...overrides,
});

/** The VPC's versions, newest first. */
export const versions = [
  version({
    id: 'mv-2',
    version: '1.1.0',
    inputs: [
      {
        id: 'region',
        label: 'Region',
        type: 'string',
        default_from: 'aws-region',
      },
      {
        id: 'cidr',
        label: 'CIDR block',
        type: 'string',
        required: true,
        immutable: true,
        patterns: [
          {
            pattern: '^\\d+\\.\\d+\\.\\d+\\.\\d+/\\d+$',
            message: 'A CIDR block such as 10.0.0.0/16',
          },
        ],
      },
    ],
  }),
  version({ id: 'mv-1', version: '1.0.0' }),
];

/** The VPC's one instance, in Payments · Production. */
export const instance: ModuleInstance = {
  id: 'mi-1',
  organizationId: 'org-1',
  projectId: 'p-payments',
  environmentId: 'e-production',
  moduleDefinitionId: vpc.id,
  moduleVersionId: 'mv-2',
  name: 'payments-network',
  values: { cidr: '10.20.0.0/16', region: 'eu-west-1' },
  createdAt: now,
  updatedAt: now,
};

export const awsRegion: DefaultValueDefinition = {
  id: 'dv-1',
  organizationId: 'org-1',
  givenId: 'aws-region',
  name: 'AWS region',
  description: 'Where the organization deploys',
  createdByType: 'USER',
  schema: {
    id: 'region',
    label: 'Region',
    type: 'string',
    default: 'eu-west-1',
    values: [{ value: 'eu-west-1' }, { value: 'eu-central-1' }],
  },
  createdAt: now,
  updatedAt: now,
};

/**
 * What the Modules page reads: the VPC and the Queue, the one repository, the VPC's instance
 * and versions, the AWS region default value, and the project it is deployed in.
 */
export function moduleHandlers() {
  return [
    http.get(`${baseUrl}/module-definitions`, () =>
      HttpResponse.json(list([vpc, queue])),
    ),
    http.get(`${baseUrl}/code-sources`, () =>
      HttpResponse.json(list([repository])),
    ),
    http.get(`${baseUrl}/module-instances`, () =>
      HttpResponse.json(list([instance])),
    ),
    http.get(`${baseUrl}/default-value-definitions`, () =>
      HttpResponse.json(list([awsRegion])),
    ),
    http.get(`${baseUrl}/module-definitions/:id/versions`, ({ params }) =>
      HttpResponse.json(list(params.id === vpc.id ? versions : [])),
    ),
    http.get(`${baseUrl}/projects`, () =>
      HttpResponse.json(list([{ id: 'p-payments', name: 'Payments' }])),
    ),
    http.get(`${baseUrl}/projects/p-payments`, () =>
      HttpResponse.json({
        data: { id: 'p-payments', name: 'Payments' },
      }),
    ),
    http.get(`${baseUrl}/projects/p-payments/environments`, () =>
      HttpResponse.json(
        list([
          { id: 'e-production', name: 'Production' },
          { id: 'e-staging', name: 'Staging' },
        ]),
      ),
    ),
  ];
}
