import { AuditorService } from '@backstage/backend-plugin-api';
import { JsonObject } from '@backstage/types';
import { Caller } from '../auth/Caller';

/**
 * Records a security-relevant action with the auditor. The caller is described by ids only;
 * secrets never enter `meta`.
 */
export async function audit<T>(
  auditor: AuditorService,
  eventId: string,
  caller: Caller | undefined,
  meta: JsonObject,
  action: () => Promise<T>,
): Promise<T> {
  const event = await auditor.createEvent({
    eventId,
    severityLevel: 'medium',
    meta: {
      ...meta,
      ...(caller
        ? {
            organizationId: caller.organizationId,
            actor: { ...caller.principal },
          }
        : {}),
    },
  });
  try {
    const result = await action();
    await event.success();
    return result;
  } catch (error) {
    await event.fail({ error: error as Error });
    throw error;
  }
}
