import { useApi } from '@backstage/frontend-plugin-api';
import { Project } from '@infra-delivery/plugin-infra-delivery-common';
import {
  CustomFieldValidator,
  FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import Box from '@material-ui/core/Box';
import FormHelperText from '@material-ui/core/FormHelperText';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ServiceSelect } from './ServiceSelect';
import { choiceLabel } from '../common/choiceLabel';

/**
 * What the environment picker gives the template: `parameters.<field>.projectId` and
 * `.environmentId` for the action, and `.project` and `.environment`, the names people chose,
 * for the form's review (where the ids can be hidden with `ui:backstage.review.show: false`).
 */
export interface EnvironmentChoice {
  projectId?: string;
  environmentId?: string;
  project?: string;
  environment?: string;
}

/**
 * What the empty lists say: where projects and environments are created. A form that only said
 * "There is no project to choose" left people (every first user of a new install) with nowhere
 * to go.
 */
export const NO_PROJECT_TEXT =
  'Your organization has no project yet: a member creates projects and their environments on Infrastructure → Projects';
export const NO_ENVIRONMENT_TEXT =
  'This project has no environment yet: a member adds them on Infrastructure → Projects (the project’s name opens its environments)';

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
  const projectOptions = (projects.value ?? []).map(project => ({
    value: project.id,
    label: choiceLabel(project),
  }));
  const environmentOptions = (environments.value ?? []).map(environment => ({
    value: environment.id,
    label: choiceLabel(environment),
  }));

  return (
    // Two selects, each its own form control, and the property's description under both.
    <Box>
      <ServiceSelect
        id={`${idSchema?.$id ?? 'environment'}-project`}
        label="Project"
        required={required}
        value={projectId}
        options={projectOptions}
        loading={projects.loading}
        error={projects.error}
        emptyText={NO_PROJECT_TEXT}
        invalid={invalid && !projectId}
        onChange={chosen =>
          onChange(
            chosen
              ? {
                  projectId: chosen,
                  project: projectOptions.find(o => o.value === chosen)?.label,
                }
              : undefined,
          )
        }
      />
      <ServiceSelect
        id={`${idSchema?.$id ?? 'environment'}-environment`}
        label="Environment"
        required={required}
        disabled={!projectId}
        helperText={projectId ? undefined : 'Choose the project first'}
        value={formData?.environmentId}
        options={environmentOptions}
        loading={!!projectId && environments.loading}
        error={environments.error}
        emptyText={NO_ENVIRONMENT_TEXT}
        invalid={invalid && !!projectId && !formData?.environmentId}
        onChange={chosen =>
          onChange({
            projectId,
            project: formData?.project,
            environmentId: chosen,
            environment: environmentOptions.find(o => o.value === chosen)
              ?.label,
          })
        }
      />
      {schema.description && (
        <FormHelperText error={invalid}>{schema.description}</FormHelperText>
      )}
    </Box>
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
