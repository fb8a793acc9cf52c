/**
 * The policies of the cross-account role, one per version. A version is never changed once
 * shipped: a new permission means a new version, and accounts connected with an older one are
 * offered an upgrade (a template of the latest version, applied to their stack).
 */

export interface PolicyStatement {
  Sid: string;
  Effect: 'Allow';
  Action: string[];
  Resource: string;
  Condition?: Record<string, Record<string, string>>;
}

export interface RolePolicyVersion {
  version: string;
  /** What the version lets the service do, as shown to the people who connect accounts. */
  description: string;
  statements: PolicyStatement[];
}

const readMetrics: PolicyStatement = {
  Sid: 'ReadMetrics',
  Effect: 'Allow',
  Action: [
    'cloudwatch:GetMetricData',
    'cloudwatch:GetMetricStatistics',
    'cloudwatch:ListMetrics',
  ],
  Resource: '*',
};

const readContainerServices: PolicyStatement = {
  Sid: 'ReadContainerServices',
  Effect: 'Allow',
  Action: [
    'ecs:DescribeClusters',
    'ecs:DescribeServices',
    'ecs:DescribeServiceDeployments',
    'ecs:DescribeServiceRevisions',
    'ecs:DescribeTaskDefinition',
    'ecs:DescribeTasks',
    'ecs:ListServiceDeployments',
    'ecs:ListTasks',
    'elasticloadbalancing:DescribeListeners',
    'elasticloadbalancing:DescribeLoadBalancers',
    'elasticloadbalancing:DescribeRules',
    'elasticloadbalancing:DescribeTargetGroups',
  ],
  Resource: '*',
};

const deployContainerServices: PolicyStatement = {
  Sid: 'DeployContainerServices',
  Effect: 'Allow',
  Action: ['ecs:RegisterTaskDefinition', 'ecs:UpdateService'],
  Resource: '*',
};

const passTaskRoles: PolicyStatement = {
  Sid: 'PassTaskRolesToEcs',
  Effect: 'Allow',
  Action: ['iam:PassRole'],
  Resource: '*',
  Condition: {
    StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' },
  },
};

/** Oldest first; the last entry is the latest version. */
export const ROLE_POLICY_VERSIONS: readonly RolePolicyVersion[] = [
  {
    version: '1',
    description: 'Reads CloudWatch metrics.',
    statements: [readMetrics],
  },
  {
    version: '2',
    description:
      'Reads CloudWatch metrics; reads and deploys ECS services (task definitions, service updates) and reads their load balancer listeners.',
    statements: [
      readMetrics,
      readContainerServices,
      deployContainerServices,
      passTaskRoles,
    ],
  },
];

export const latestRolePolicy =
  ROLE_POLICY_VERSIONS[ROLE_POLICY_VERSIONS.length - 1];

export function rolePolicyVersion(
  version: string,
): RolePolicyVersion | undefined {
  return ROLE_POLICY_VERSIONS.find(policy => policy.version === version);
}

/** Whether `candidate` is a newer version than `current` (no version yet is oldest). */
export function isNewerRoleVersion(
  candidate: string,
  current: string | undefined,
): boolean {
  const position = (version: string | undefined) =>
    ROLE_POLICY_VERSIONS.findIndex(policy => policy.version === version);
  return position(candidate) > position(current);
}
