import { useApi } from '@backstage/frontend-plugin-api';
import {
  CreateDeploymentRequest,
  Deployment,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { useAttemptKey } from '../common/attemptKey';
import { useSubmission } from '../common/useSubmission';
import { fieldErrorsOf } from '../OrganizationSettings/fieldErrors';

/**
 * Sends a Deploy dialog's `POST /deployments`, with one Idempotency-Key per `request` (the
 * form's values, as text: pressing Deploy again for the same ones deploys once). What the
 * service refuses of a field the form has (`fieldOfPath`: the request's path → the field) comes
 * back in `refused`, beside that field, until the form changes, and `onRefused` returns to the
 * form; any other refusal is `error`, said whole.
 */
export function useDeployRequest({
  request,
  body,
  fieldOfPath,
  onRefused,
  onStarted,
}: {
  request: string;
  /** The request's body, read when it is sent. */
  body: () => CreateDeploymentRequest;
  fieldOfPath: Record<string, string>;
  onRefused: () => void;
  onStarted: (deployment: Deployment) => void;
}) {
  const client = useApi(infraDeliveryApiRef);
  const attempt = useAttemptKey(request);
  const [refusal, setRefusal] = useState<{
    request: string;
    fields: Record<string, string>;
  }>();
  const refused = refusal?.request === request ? refusal.fields : undefined;
  const { busy, error, submit, silentFor } = useSubmission(
    async () => {
      const sent = request;
      const { data } = await client
        .call('createDeployment', {
          body: { data: body() },
          idempotencyKey: attempt.idempotencyKey,
        })
        .catch(refusedError => {
          const fields = fieldErrorsOf(
            refusedError,
            Object.values(fieldOfPath),
            path => fieldOfPath[path],
          );
          if (!fields) throw refusedError;
          setRefusal({ request: sent, fields });
          onRefused();
          return { data: undefined };
        });
      if (data) onStarted(data);
    },
    { what: 'Deploy' },
  );
  return { refused, busy, error, submit, silentFor };
}
