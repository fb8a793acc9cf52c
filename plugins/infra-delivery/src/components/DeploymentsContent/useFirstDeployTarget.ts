import { useApi } from '@backstage/frontend-plugin-api';
import {
  ANNOTATION_CLOUD_ACCOUNT,
  ANNOTATION_ENVIRONMENT,
  ANNOTATION_PROJECT,
  InfraDeliveryApiError,
} from '@infra-delivery/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { DeployTarget } from './DeployDialog';
import { FirstDeployPlace } from './firstDeployPlace';

/** Where a first deployment goes, found in the organization, with the names people read. */
export type FirstDeployTarget =
  | {
      target: DeployTarget;
      /** "Payments · Production". */
      environmentName: string;
      accountName: string;
      /** Why the service will refuse the account: not connected yet. */
      accountProblem?: string;
    }
  /** What an annotation names that the organization has not: said instead of the form. */
  | { problem: string };

/** Projects and environments read to find the annotated ones; an organization rarely has more. */
const PAGE = 500;

/** By id, or by the given id the catalog module writes in the annotations. */
const named = (value: string) => (item: { id: string; givenId: string }) =>
  item.id === value || item.givenId === value;

/**
 * Finds the project, environment and cloud account the entity's annotations name (`place`),
 * as POST /deployments needs them: by id. An annotation naming nothing the person can see
 * comes back as a `problem` that names it.
 */
export function useFirstDeployTarget(place: FirstDeployPlace) {
  const client = useApi(infraDeliveryApiRef);
  return useAsync(async (): Promise<FirstDeployTarget> => {
    const account = client
      .call('getCloudAccount', { params: { id: place.cloudAccountId } })
      .then(({ data }) => data)
      .catch(error => {
        if (error instanceof InfraDeliveryApiError && error.status === 404) {
          return undefined;
        }
        throw error;
      });
    const [projects, found] = await Promise.all([
      client.call('listProjects', { query: { limit: PAGE } }),
      account,
    ]);
    const project = projects.data.find(named(place.project));
    if (!project) {
      return {
        problem: `No project “${place.project}” (${ANNOTATION_PROJECT}) in your organization.`,
      };
    }
    const environments = await client.call('listEnvironments', {
      params: { projectId: project.id },
      query: { limit: PAGE },
    });
    const environment = environments.data.find(named(place.environment));
    if (!environment) {
      return {
        problem: `Project ${project.name} has no environment “${place.environment}” (${ANNOTATION_ENVIRONMENT}).`,
      };
    }
    if (!found) {
      return {
        problem: `No cloud account ${place.cloudAccountId} (${ANNOTATION_CLOUD_ACCOUNT}) in your organization.`,
      };
    }
    return {
      target: {
        environmentId: environment.id,
        cloudAccountId: found.id,
        region: place.region,
        clusterRef: place.clusterRef,
        serviceRef: place.serviceRef,
      },
      environmentName: `${project.name} · ${environment.name}`,
      accountName: `${found.name} (${found.cloudId})`,
      ...(found.status !== 'CONNECTED' && {
        accountProblem: `Cloud account ${found.name} is not connected yet: finish its onboarding on Infrastructure → Cloud accounts first.`,
      }),
    };
  }, [
    client,
    place.project,
    place.environment,
    place.cloudAccountId,
    place.region,
    place.clusterRef,
    place.serviceRef,
  ]);
}
