import { useApi } from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

/** An environment as a person picks it: "Payments · Production". */
export interface EnvironmentOption {
  id: string;
  label: string;
}

/** Projects whose environments are read at once: an organization may have hundreds. */
const PROJECTS_AT_ONCE = 6;

/**
 * Every environment of the organization's projects (the first 500 of each), by project, read
 * a few projects at a time.
 */
export function useEnvironmentChoices() {
  const client = useApi(infraDeliveryApiRef);
  return useAsync(async (): Promise<EnvironmentOption[]> => {
    const projects = await client.call('listProjects', {
      query: { limit: 500 },
    });
    const choices: EnvironmentOption[] = [];
    for (let i = 0; i < projects.data.length; i += PROJECTS_AT_ONCE) {
      const batch = projects.data.slice(i, i + PROJECTS_AT_ONCE);
      const perProject = await Promise.all(
        batch.map(async project => {
          const environments = await client.call('listEnvironments', {
            params: { projectId: project.id },
            query: { limit: 500 },
          });
          return environments.data.map(environment => ({
            id: environment.id,
            label: `${project.name} · ${environment.name}`,
          }));
        }),
      );
      choices.push(...perProject.flat());
    }
    return choices;
  }, [client]);
}
