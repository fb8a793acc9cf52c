import { useApi } from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';

/** An environment as a person picks it: "Payments · Production". */
export interface EnvironmentChoice {
  id: string;
  label: string;
}

/** Every environment of the organization's projects (the first 500 of each), by project. */
export function useEnvironmentChoices() {
  const client = useApi(infraDeliveryApiRef);
  return useAsync(async (): Promise<EnvironmentChoice[]> => {
    const projects = await client.call('listProjects', {
      query: { limit: 500 },
    });
    const perProject = await Promise.all(
      projects.data.map(async project => {
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
    return perProject.flat();
  }, [client]);
}
