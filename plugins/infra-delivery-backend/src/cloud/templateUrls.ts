import { createHmac, timingSafeEqual } from 'node:crypto';
import { InfraDeliveryError } from '../errors';

/** AWS's own presigned URLs live at most seven days; so do ours. */
export const MAX_TEMPLATE_URL_TTL_SECONDS = 7 * 24 * 3600;

export interface TemplateUrlClaims {
  cloudAccountId: string;
  version: string;
  /** Unix seconds. */
  expires: number;
}

function refused(reason: string, message: string) {
  return new InfraDeliveryError({
    status: 403,
    entity: 'CloudAccountTemplate',
    reason,
    message,
    description:
      'Ask for a new template URL (GET /cloud-accounts/{id}/template-url).',
  });
}

/**
 * Signs template URLs like a presigned S3 URL: an HMAC over the account, the policy version
 * and the expiry, with a key shared by every instance. The signature is the only credential of
 * the download, so it is compared in constant time and checked before the expiry is trusted.
 */
export class TemplateUrlSigner {
  constructor(private readonly key: Uint8Array) {}

  sign(claims: TemplateUrlClaims): string {
    return createHmac('sha256', this.key)
      .update(
        JSON.stringify([claims.cloudAccountId, claims.version, claims.expires]),
      )
      .digest('base64url');
  }

  verify(claims: TemplateUrlClaims, signature: string, now = new Date()): void {
    const expected = Buffer.from(this.sign(claims));
    const actual = Buffer.from(signature);
    if (
      expected.length !== actual.length ||
      !timingSafeEqual(expected, actual)
    ) {
      throw refused('INVALID_SIGNATURE', 'The template URL is not valid');
    }
    if (claims.expires * 1000 <= now.getTime()) {
      throw refused('URL_EXPIRED', 'The template URL has expired');
    }
  }
}

/**
 * The AWS console page that creates a stack from the template with its defaults filled in.
 * CloudFormation reads `templateURL` only from S3, so `templateUrl` is a presigned S3 URL of a
 * published copy; a template served by the plugin is applied with
 * `aws cloudformation create-stack --template-body "$(curl -s <templateUrl>)"` instead.
 */
export function quickCreateUrl(options: {
  region: string;
  templateUrl: string;
  stackName: string;
}): string {
  const query = new URLSearchParams({
    templateURL: options.templateUrl,
    stackName: options.stackName,
  });
  return `https://console.aws.amazon.com/cloudformation/home?region=${encodeURIComponent(
    options.region,
  )}#/stacks/quickcreate?${query.toString()}`;
}
