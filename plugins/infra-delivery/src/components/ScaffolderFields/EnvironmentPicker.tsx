import { useApi } from '@backstage/frontend-plugin-api';
import { Project } from '@infra-delivery/plugin-infra-delivery-common';
import {
  CustomFieldValidator,
  FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import FormControl from '@material-ui/core/FormControl';
import FormHelperText from '@material-ui/core/FormHelperText';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ServiceSelect } from './ServiceSelect';

/** What the environment picker gives the template: `parameters.<field>.projectId` and so on. */
export interface EnvironmentChoice {
  projectId?: string;
  environmentId?: string;
}

/**
 * A template's project and environment, chosen by name from the caller's organization
 * (`ui:field: InfraDeliveryEnvironmentPicker`), where a template otherwise asked for two ids
 * that the portal shows nowhere.
 */
export const EnvironmentPicker = ({
  formData,
  onChange,
  required,
  rawErrors,
  schema,
  idSchema,
}: FieldExtensionComponentProps<EnvironmentChoice>) => {
  const client = useApi(infraDeliveryApiRef);
  const projectId = formData?.projectId;
  const projects = useAsync(
    (): Promise<Project[]> =>
      client
        .call('listProjects', { query: { limit: 500 } })
        .then(page => page.data),
    [client],
  );
  const environments = useAsync(
    async () =>
      projectId
        ? client
            .call('listEnvironments', {
              params: { projectId },
              query: { limit: 500 },
            })
            .then(page => page.data)
        : [],
    [client, projectId],
  );
  const invalid = (rawErrors?.length ?? 0) > 0;

  return (
    <FormControl fullWidth error={invalid} required={required}>
      <ServiceSelect
        id={`${idSchema?.$id ?? 'environment'}-project`}
        label="Project"
        required={required}
        value={projectId}
        options={(projects.value ?? []).map(project => ({
          value: project.id,
          label: `${project.name} (${project.givenId})`,
        }))}
        loading={projects.loading}
        error={projects.error}
        invalid={invalid && !projectId}
        onChange={chosen =>
          onChange(chosen ? { projectId: chosen } : undefined)
        }
      />
      <ServiceSelect
        id={`${idSchema?.$id ?? 'environment'}-environment`}
        label="Environment"
        required={required}
        disabled={!projectId}
        helperText={projectId ? undefined : 'Choose the project first'}
        value={formData?.environmentId}
        options={(environments.value ?? []).map(environment => ({
          value: environment.id,
          label: `${environment.name} (${environment.givenId})`,
        }))}
        loading={!!projectId && environments.loading}
        error={environments.error}
        invalid={invalid && !!projectId && !formData?.environmentId}
        onChange={chosen => onChange({ projectId, environmentId: chosen })}
      />
      {schema.description && (
        <FormHelperText>{schema.description}</FormHelperText>
      )}
    </FormControl>
  );
};

/** A project without its environment is no place for a stack. */
export const validateEnvironmentChoice: CustomFieldValidator<
  EnvironmentChoice
> = (choice, validation) => {
  if (choice?.projectId && !choice.environmentId) {
    validation.addError('Choose an environment of the project');
  }
};
