import { Stores } from '../database/stores';

/**
 * The demo's modules, kept in the repository the Network stack follows: a VPC module with two
 * versions, the newer deployed into production, and an alarms module released but not yet
 * deployed. Their inputs are the variables of examples/iac; the region takes its default from
 * the organization's default-value definition `aws-region`.
 */
export async function seedDemoModules(options: {
  stores: Stores;
  organizationId: string;
  codeSourceId: string;
  production: { id: string; projectId: string };
  commits: { older: string; newer: string };
}): Promise<void> {
  const { stores, organizationId, codeSourceId, production, commits } = options;
  const definitions = stores.moduleDefinitions;
  await stores.defaultValueDefinitions.create({
    organizationId,
    givenId: 'aws-region',
    name: 'AWS region',
    description:
      'Where the organization deploys unless a module says otherwise',
    schema: {
      id: 'region',
      label: 'Region',
      type: 'string',
      default: 'eu-west-1',
      values: [{ value: 'eu-west-1' }, { value: 'eu-central-1' }],
    },
    createdByType: 'SERVICE_ACCOUNT',
  });
  const vpc = await definitions.create({
    organizationId,
    givenId: 'vpc',
    name: 'VPC',
    description: 'A VPC with private subnets in three availability zones',
    codeSourceId,
    path: 'modules/vpc',
  });
  const region = {
    id: 'region',
    label: 'Region',
    type: 'string',
    default_from: 'aws-region',
    values: [{ value: 'eu-west-1' }, { value: 'eu-central-1' }],
  };
  await definitions.createVersion({
    organizationId,
    moduleDefinitionId: vpc.id,
    version: '1.0.0',
    ref: 'v1.0.0',
    commitSha: commits.older,
    inputs: [region],
  });
  const current = await definitions.createVersion({
    organizationId,
    moduleDefinitionId: vpc.id,
    version: '1.1.0',
    ref: 'v1.1.0',
    commitSha: commits.newer,
    inputs: [
      region,
      {
        id: 'cidr_block',
        label: 'CIDR block',
        type: 'string',
        description: 'The address range of the VPC',
        required: true,
        immutable: true,
        // What AWS takes for a VPC: /16 to /28.
        patterns: [
          {
            pattern: '^(\\d{1,3}\\.){3}\\d{1,3}/(1[6-9]|2[0-8])$',
            message: 'A CIDR block from /16 to /28, such as 10.0.0.0/16',
          },
        ],
      },
    ],
  });
  await stores.moduleInstances.create({
    organizationId,
    projectId: production.projectId,
    environmentId: production.id,
    moduleDefinitionId: vpc.id,
    moduleVersionId: current.id,
    name: 'payments-network',
    values: { region: 'eu-west-1', cidr_block: '10.20.0.0/16' },
  });

  const alarms = await definitions.create({
    organizationId,
    givenId: 'service-alarms',
    name: 'Service alarms',
    description: 'CPU and error-rate alarms for an ECS service',
    codeSourceId,
    path: 'modules/service-alarms',
  });
  await definitions.createVersion({
    organizationId,
    moduleDefinitionId: alarms.id,
    version: '0.1.0',
    ref: 'v0.1.0',
    commitSha: commits.newer,
    inputs: [
      {
        id: 'alarm_threshold_percent',
        label: 'Alarm threshold (%)',
        type: 'number',
        default: '80',
      },
    ],
  });
}
