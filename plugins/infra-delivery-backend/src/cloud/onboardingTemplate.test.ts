import { parseCloudFormation } from '../__testUtils__/cloudFormationYaml';
import {
  buildOnboardingTemplate,
  OnboardingTemplateInput,
} from './onboardingTemplate';
import { latestRolePolicy, ROLE_POLICY_VERSIONS } from './rolePolicy';

const input: OnboardingTemplateInput = {
  cloudAccountId: '0190a3f0-0000-7000-8000-000000000001',
  cloudId: '012345678901',
  externalId: 'ext-Abc_123',
  onboardingToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
  onboardingTokenExpiresAt: new Date('2026-06-01T13:00:00Z'),
  platformPrincipalArn:
    'arn:aws:iam::999999999999:role/infra-delivery-platform',
  callbackUrl:
    'https://portal.example.com/api/infra-delivery/cloud-accounts/onboarding-callback',
  policy: latestRolePolicy,
};

/** Every `Ref` and `Fn::GetAtt` target in a template. */
function references(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.flatMap(references);
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([name, item]) => {
      if (name === 'Ref') return [item as string];
      if (name === 'Fn::GetAtt') return [(item as string[])[0]];
      return references(item);
    });
  }
  return [];
}

describe('buildOnboardingTemplate', () => {
  const template = parseCloudFormation(buildOnboardingTemplate(input));

  it('is a CloudFormation template whose references all resolve', () => {
    expect(template.AWSTemplateFormatVersion).toBe('2010-09-09');
    expect(template.Description).toContain('012345678901');
    const names = new Set([
      ...Object.keys(template.Parameters),
      ...Object.keys(template.Resources),
    ]);
    const targets = references(template.Resources).concat(
      references(template.Outputs),
    );
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter(target => !names.has(target))).toEqual([]);
  });

  it('carries the account id, external id and onboarding token as parameter defaults', () => {
    expect(template.Parameters).toEqual({
      CloudAccountId: expect.objectContaining({
        Type: 'String',
        Default: input.cloudAccountId,
      }),
      ExternalId: expect.objectContaining({
        Type: 'String',
        Default: 'ext-Abc_123',
      }),
      OnboardingToken: expect.objectContaining({
        Type: 'String',
        NoEcho: true,
        Default: input.onboardingToken,
        Description: expect.stringContaining(
          'valid until 2026-06-01T13:00:00.000Z',
        ),
      }),
    });
  });

  it('creates a role that trusts only the platform principal with the external id', () => {
    const role = template.Resources.CrossAccountRole;
    expect(role.Type).toBe('AWS::IAM::Role');
    expect(role.Properties.AssumeRolePolicyDocument).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: input.platformPrincipalArn },
          Action: 'sts:AssumeRole',
          Condition: {
            StringEquals: { 'sts:ExternalId': { Ref: 'ExternalId' } },
          },
        },
      ],
    });
    expect(role.Properties.MaxSessionDuration).toBe(3600);
  });

  it.each(ROLE_POLICY_VERSIONS.map(policy => [policy.version, policy]))(
    'gives the role exactly the policy of version %s',
    (_version, policy) => {
      const parsed = parseCloudFormation(
        buildOnboardingTemplate({ ...input, policy }),
      );
      const [rolePolicy] =
        parsed.Resources.CrossAccountRole.Properties.Policies;
      expect(rolePolicy.PolicyName).toBe(`infra-delivery-v${policy.version}`);
      expect(rolePolicy.PolicyDocument).toEqual({
        Version: '2012-10-17',
        Statement: policy.statements,
      });
      expect(parsed.Metadata.InfraDelivery.RoleVersion).toBe(policy.version);
      expect(parsed.Outputs.RoleVersion.Value).toBe(policy.version);
    },
  );

  it('reports the role through a custom resource backed by an inline Lambda', () => {
    const connection = template.Resources.Connection;
    expect(connection.Type).toMatch(/^Custom::/);
    expect(connection.Properties).toEqual({
      ServiceToken: { 'Fn::GetAtt': ['OnboardingCallbackFunction', 'Arn'] },
      CallbackUrl: input.callbackUrl,
      CloudAccountId: { Ref: 'CloudAccountId' },
      OnboardingToken: { Ref: 'OnboardingToken' },
      RoleArn: { 'Fn::GetAtt': ['CrossAccountRole', 'Arn'] },
      RoleVersion: latestRolePolicy.version,
    });

    const fn = template.Resources.OnboardingCallbackFunction;
    expect(fn.Type).toBe('AWS::Lambda::Function');
    expect(fn.Properties).toMatchObject({
      Runtime: 'python3.12',
      Handler: 'index.handler',
      Role: { 'Fn::GetAtt': ['OnboardingCallbackRole', 'Arn'] },
    });
    const code: string = fn.Properties.Code.ZipFile;
    expect(code).toMatch(/^import json\n/);
    expect(code).toContain('def handler(event, context):');
    expect(code).toContain('props["CallbackUrl"], "POST"');
    expect(code).toContain('"roleArn": props["RoleArn"]');
    expect(code).toContain('"stackId": event["StackId"]');
    expect(code).toContain('event["ResponseURL"], "PUT"');

    expect(
      template.Resources.OnboardingCallbackRole.Properties.ManagedPolicyArns,
    ).toEqual([
      {
        'Fn::Sub':
          'arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
      },
    ]);
    expect(template.Outputs.RoleArn.Value).toEqual({
      'Fn::GetAtt': ['CrossAccountRole', 'Arn'],
    });
  });

  it('keeps values with YAML-significant characters intact', () => {
    const tricky = {
      ...input,
      externalId: 'a: "b" # c\n- d',
      callbackUrl: 'https://x.example/cb?a=b&c=#frag: !Ref',
    };
    const parsed = parseCloudFormation(buildOnboardingTemplate(tricky));
    expect(parsed.Parameters.ExternalId.Default).toBe(tricky.externalId);
    expect(parsed.Resources.Connection.Properties.CallbackUrl).toBe(
      tricky.callbackUrl,
    );
  });
});
