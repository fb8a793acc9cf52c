import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { fieldErrorsOf } from '../OrganizationSettings/fieldErrors';

/**
 * What the service refused, by the form field it is about: its validation issues of `fields`
 * (see `fieldErrorsOf`), or a bad, conflicting or unprocessable request whose reason (the last
 * part of its code, `InfraDelivery:ModuleVersion:VERSION_TAKEN` → `VERSION_TAKEN`) `byReason`
 * ties to a field, in the service's own words. Undefined for anything else: a panel says it then.
 * `fieldOfPath` as for `fieldErrorsOf`.
 */
export function refusedFieldsOf(
  error: Error | undefined,
  fields: string[],
  byReason: Record<string, string> = {},
  fieldOfPath?: (path: string) => string | undefined,
): Record<string, string> | undefined {
  if (
    error instanceof InfraDeliveryApiError &&
    [400, 409, 422].includes(error.status)
  ) {
    const field = byReason[error.body.code.split(':').pop() ?? ''];
    if (field) return { [field]: error.body.message };
  }
  return fieldErrorsOf(error, fields, fieldOfPath);
}
