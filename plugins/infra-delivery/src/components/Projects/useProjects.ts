import { useApi } from '@backstage/frontend-plugin-api';
import {
  Environment,
  MAX_PAGE_LIMIT,
  Project,
} from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { useReloadableAsync } from '../common/useReloadableAsync';

/** A project with its environments, as the Projects tab lists it. */
export interface ProjectWithEnvironments extends Project {
  environments: Environment[];
}

/**
 * The organization's projects, newest first, each with its environments (one request for the
 * projects, then one per project, together); `totalCount` is how many projects there are when
 * more than a page.
 */
export function useProjects() {
  const client = useApi(infraDeliveryApiRef);
  return useReloadableAsync(async () => {
    const page = await client.call('listProjects', {
      query: { limit: MAX_PAGE_LIMIT },
    });
    const projects = await Promise.all(
      page.data.map(async project => ({
        ...project,
        environments: (
          await client.call('listEnvironments', {
            params: { projectId: project.id },
            query: { limit: MAX_PAGE_LIMIT },
          })
        ).data,
      })),
    );
    return { projects, totalCount: page.meta.totalCount };
  }, [client]);
}
