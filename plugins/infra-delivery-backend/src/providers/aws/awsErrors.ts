import { InfraDeliveryError } from '../../errors';
import { CloudAccountAccess } from '../CloudProvider';

/** How long a throttled caller is asked to wait when AWS gives no hint of its own. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
]);
const ACCESS_DENIED = new Set([
  'AccessDenied',
  'AccessDeniedException',
  'AuthorizationError',
  'UnauthorizedOperation',
]);
const INVALID_QUERY = new Set([
  'InvalidParameterValueException',
  'InvalidParameterCombinationException',
  'MissingRequiredParameterException',
  'ValidationException',
  'ValidationError',
]);

/** The parts of an AWS SDK v3 service exception this module reads. */
interface AwsServiceError {
  name: string;
  message: string;
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

function isAwsServiceError(error: unknown): error is AwsServiceError {
  return (
    error instanceof Error &&
    typeof (error as { $metadata?: unknown }).$metadata === 'object'
  );
}

function accountLabel(account: CloudAccountAccess): string {
  return `cloud account ${account.givenId} (AWS account ${account.cloudId})`;
}

/**
 * Turns an AWS error into what a caller can act on: throttling → 503 with Retry-After,
 * a denied role or call → 422 naming the account, a query CloudWatch refuses → 400, an AWS
 * outage → 503. Anything else is left as it is (a logged 500).
 */
export function toCloudError(
  error: unknown,
  account: CloudAccountAccess,
  action: string,
): unknown {
  if (!isAwsServiceError(error)) {
    return error;
  }
  const metadata = {
    cloudAccountId: account.cloudAccountId,
    cloudId: account.cloudId,
    action,
    awsErrorCode: error.name,
  };
  if (
    THROTTLING.has(error.name) ||
    error.$retryable?.throttling ||
    error.$metadata?.httpStatusCode === 429
  ) {
    return new InfraDeliveryError({
      status: 503,
      entity: 'CloudProvider',
      reason: 'THROTTLED',
      message: `AWS throttled ${action} for ${accountLabel(
        account,
      )}; retry in ${DEFAULT_RETRY_AFTER_SECONDS} s`,
      metadata: { ...metadata, retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS },
      headers: { 'Retry-After': String(DEFAULT_RETRY_AFTER_SECONDS) },
      cause: error,
    });
  }
  if (ACCESS_DENIED.has(error.name)) {
    return new InfraDeliveryError({
      status: 422,
      entity: 'CloudAccount',
      reason: 'ACCESS_DENIED',
      message: `AWS denied ${action} for ${accountLabel(account)}`,
      description:
        'The role may have been deleted or changed, or its policy version may lack the permission. Check the onboarding stack in the account, or upgrade the role with a new template (GET /cloud-accounts/{id}/template-url).',
      metadata: { ...metadata, roleArn: account.roleArn },
      cause: error,
    });
  }
  if (INVALID_QUERY.has(error.name)) {
    return new InfraDeliveryError({
      status: 400,
      entity: 'MetricQuery',
      reason: 'REJECTED_BY_CLOUD',
      message: `CloudWatch refused the query: ${error.message}`,
      metadata,
      cause: error,
    });
  }
  if (error.$fault === 'server') {
    return new InfraDeliveryError({
      status: 503,
      entity: 'CloudProvider',
      reason: 'UNAVAILABLE',
      message: `AWS failed ${action} for ${accountLabel(account)}; retry later`,
      metadata: { ...metadata, retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS },
      headers: { 'Retry-After': String(DEFAULT_RETRY_AFTER_SECONDS) },
      cause: error,
    });
  }
  return error;
}
