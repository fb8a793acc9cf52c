import { RolePolicyVersion } from './rolePolicy';

/**
 * The per-account CloudFormation template of onboarding. It creates the cross-account role
 * (trusting the platform principal only with the account's external id, with the policy of one
 * version) and a custom resource whose Lambda posts the role ARN, the stack id and the one-time
 * onboarding JWT to the service's callback. The account id, external id and JWT are parameter
 * defaults, so the console's quick-create page needs no typing.
 */
export interface OnboardingTemplateInput {
  cloudAccountId: string;
  cloudId: string;
  externalId: string;
  onboardingToken: string;
  /** Named in the parameter's description, so that a person sees why a late stack fails. */
  onboardingTokenExpiresAt: Date;
  platformPrincipalArn: string;
  callbackUrl: string;
  policy: RolePolicyVersion;
}

type YamlValue = string | number | boolean | YamlValue[] | YamlObject;
interface YamlObject {
  [key: string]: YamlValue;
}

function isScalar(value: YamlValue): value is string | number | boolean {
  return typeof value !== 'object';
}

/** Every interpolated string is a JSON string, which YAML reads as a double-quoted scalar. */
function scalar(value: string | number | boolean): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function key(name: string): string {
  return /^[A-Za-z][A-Za-z0-9]*$/.test(name) ? name : JSON.stringify(name);
}

/** Block-style YAML of plain data (the policy statements), indented by `indent`. */
function toYaml(value: YamlValue, indent: string): string[] {
  if (Array.isArray(value)) {
    return value.flatMap(item => {
      if (isScalar(item)) {
        return [`${indent}- ${scalar(item)}`];
      }
      const [first, ...rest] = toYaml(item, `${indent}  `);
      return [`${indent}- ${first.trimStart()}`, ...rest];
    });
  }
  if (isScalar(value)) {
    return [`${indent}${scalar(value)}`];
  }
  return Object.entries(value).flatMap(([name, item]) =>
    isScalar(item)
      ? [`${indent}${key(name)}: ${scalar(item)}`]
      : [`${indent}${key(name)}:`, ...toYaml(item, `${indent}  `)],
  );
}

/**
 * Runs in the customer's account on Create and Update: reports the role, then answers
 * CloudFormation. A refused callback fails the stack with the service's message as the reason.
 */
const CALLBACK_FUNCTION_CODE = `import json
import urllib.error
import urllib.request


def request(url, method, body, content_type):
    data = json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": content_type})
    with urllib.request.urlopen(req, timeout=20) as response:
        return response.read()


def handler(event, context):
    props = event["ResourceProperties"]
    status, reason = "SUCCESS", "Connected"
    if event["RequestType"] in ("Create", "Update"):
        body = {"data": {
            "cloudAccountId": props["CloudAccountId"],
            "token": props["OnboardingToken"],
            "roleArn": props["RoleArn"],
            "stackId": event["StackId"],
        }}
        try:
            request(props["CallbackUrl"], "POST", body, "application/json")
        except urllib.error.HTTPError as error:
            status, reason = "FAILED", error.read().decode("utf-8", "replace")[:800]
        except Exception as error:
            status, reason = "FAILED", str(error)[:800]
    request(event["ResponseURL"], "PUT", {
        "Status": status,
        "Reason": reason,
        "PhysicalResourceId": "infra-delivery-" + props["CloudAccountId"],
        "StackId": event["StackId"],
        "RequestId": event["RequestId"],
        "LogicalResourceId": event["LogicalResourceId"],
    }, "")
`;

function indentBlock(text: string, indent: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map(line => (line ? `${indent}${line}` : ''))
    .join('\n');
}

export function buildOnboardingTemplate(
  input: OnboardingTemplateInput,
): string {
  const { policy } = input;
  const statements = toYaml(
    policy.statements as unknown as YamlValue,
    '              ',
  ).join('\n');
  return `AWSTemplateFormatVersion: "2010-09-09"
Description: ${scalar(
    `Connects AWS account ${input.cloudId} to the infrastructure delivery service (role policy version ${policy.version})`,
  )}
Metadata:
  InfraDelivery:
    CloudAccountId: ${scalar(input.cloudAccountId)}
    RoleVersion: ${scalar(policy.version)}
    RoleVersionDescription: ${scalar(policy.description)}
Parameters:
  CloudAccountId:
    Type: String
    Description: The account's id in the infrastructure delivery service
    Default: ${scalar(input.cloudAccountId)}
  ExternalId:
    Type: String
    Description: The external id the service presents when it assumes the role
    Default: ${scalar(input.externalId)}
  OnboardingToken:
    Type: String
    NoEcho: true
    Description: ${scalar(
      `One-time token with which the stack reports the role (valid until ${input.onboardingTokenExpiresAt.toISOString()})`,
    )}
    Default: ${scalar(input.onboardingToken)}
Resources:
  CrossAccountRole:
    Type: AWS::IAM::Role
    Properties:
      Description: Lets the infrastructure delivery service act in this account
      MaxSessionDuration: 3600
      AssumeRolePolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal:
              AWS: ${scalar(input.platformPrincipalArn)}
            Action: sts:AssumeRole
            Condition:
              StringEquals:
                "sts:ExternalId": !Ref ExternalId
      Policies:
        - PolicyName: ${scalar(`infra-delivery-v${policy.version}`)}
          PolicyDocument:
            Version: "2012-10-17"
            Statement:
${statements}
      Tags:
        - Key: infra-delivery:cloud-account-id
          Value: !Ref CloudAccountId
        - Key: infra-delivery:role-version
          Value: ${scalar(policy.version)}
  OnboardingCallbackRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal:
              Service: lambda.amazonaws.com
            Action: sts:AssumeRole
      ManagedPolicyArns:
        - !Sub arn:\${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole
  OnboardingCallbackFunction:
    Type: AWS::Lambda::Function
    Properties:
      Description: Reports the cross-account role to the infrastructure delivery service
      Runtime: python3.12
      Handler: index.handler
      Timeout: 60
      Role: !GetAtt OnboardingCallbackRole.Arn
      Code:
        ZipFile: |
${indentBlock(CALLBACK_FUNCTION_CODE, '          ')}
  Connection:
    Type: Custom::InfraDeliveryConnection
    Properties:
      ServiceToken: !GetAtt OnboardingCallbackFunction.Arn
      CallbackUrl: ${scalar(input.callbackUrl)}
      CloudAccountId: !Ref CloudAccountId
      OnboardingToken: !Ref OnboardingToken
      RoleArn: !GetAtt CrossAccountRole.Arn
      RoleVersion: ${scalar(policy.version)}
Outputs:
  RoleArn:
    Description: The cross-account role
    Value: !GetAtt CrossAccountRole.Arn
  RoleVersion:
    Description: Role policy version of this stack
    Value: ${scalar(policy.version)}
`;
}
