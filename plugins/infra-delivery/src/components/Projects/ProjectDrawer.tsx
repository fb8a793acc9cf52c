import { LinkButton } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  ANNOTATION_PROJECT,
  Environment,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useRef, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { Outcome, useActionMessage } from '../common/ActionMessage';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { useCreateStackPath } from '../common/useCreateStackPath';
import { LoadingTable } from '../common/LoadingTable';
import { SideDrawer } from '../common/SideDrawer';
import { MaybeLink } from '../common/MaybeLink';
import { useAnnotatedEntities } from '../common/useAnnotatedEntities';
import { useEntityPageLink } from '../common/useEntityTabLink';
import { Timestamp } from '../common/Timestamp';
import {
  CARD_TABLE_OPTIONS,
  contentWidths,
  ROW_ACTIONS_STYLE,
} from '../common/tableOptions';
import { NamedResourceDialog } from './NamedResourceDialog';
import { NamedResourceName } from './NamedResourceName';
import { ProjectWithEnvironments } from './useProjects';

const ENVIRONMENT_EXAMPLES = { name: 'Production', givenId: 'production' };

const environmentCount = (count: number) =>
  count === 1 ? 'one environment' : `${count} environments`;

/**
 * A project opened from the Projects tab: what it is for, its environments, and for those who
 * may change resources, editing and deleting it and adding, editing and deleting its
 * environments. The service refuses to delete a project that has environments, or an
 * environment that stacks or module instances use; the confirmation says so first. Where the
 * app has the stack template, each environment links to it, the project and environment chosen:
 * a new environment is where a stack goes next.
 */
export const ProjectDrawer = ({
  project,
  canWrite,
  onChanged,
  onDeleted,
  onClose,
}: {
  project: ProjectWithEnvironments;
  canWrite: boolean;
  onChanged: () => void;
  onDeleted: () => void;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { message, say } = useActionMessage();
  /** What a dialog edits: the project, a new environment, or one of them. */
  const [editing, setEditing] = useState<
    'project' | 'new-environment' | Environment
  >();
  const projectId = project.id;
  const createStackPath = useCreateStackPath();
  // The project's System in the catalog (the catalog module's), where its stacks and
  // environments show with their owners and relations.
  const system = useAnnotatedEntities(
    ANNOTATION_PROJECT,
    [project.givenId],
    'System',
  ).value?.get(project.givenId);
  const entityPageLink = useEntityPageLink();
  const systemPage = system && entityPageLink(system);
  /** The environment the dialog added, for the message that follows. */
  const added = useRef<Environment>();

  const environmentColumns = contentWidths<Environment>([
    {
      title: 'Environment',
      render: environment => <NamedResourceName resource={environment} />,
    },
    {
      title: 'Updated',
      render: environment => <Timestamp value={environment.updatedAt} />,
    },
  ]);
  const environmentActions = {
    title: 'Actions',
    width: 'auto',
    render: (environment: Environment) => (
      <Box style={ROW_ACTIONS_STYLE}>
        {createStackPath && (
          <LinkButton
            size="small"
            variant="outlined"
            color="primary"
            to={createStackPath({ place: { project, environment } })}
            aria-label={`Create a stack in ${environment.name}`}
          >
            Create a stack
          </LinkButton>
        )}
        <Button
          size="small"
          variant="outlined"
          aria-label={`Edit ${environment.name}`}
          onClick={() => setEditing(environment)}
        >
          Edit
        </Button>
        <ConfirmActionButton
          label="Delete"
          ariaLabel={`Delete ${environment.name}`}
          color="secondary"
          title={`Delete ${environment.name}?`}
          onConfirm={() =>
            client.call('deleteEnvironment', {
              params: { projectId, id: environment.id },
            })
          }
          onDone={() => {
            say({ text: `Environment ${environment.name} is deleted.` });
            onChanged();
          }}
        >
          <Typography>
            The service refuses while stacks or module instances are in{' '}
            {environment.name}: delete them first.
          </Typography>
        </ConfirmActionButton>
      </Box>
    ),
  };

  const closeDialog = (saved: boolean, outcome: Outcome) => {
    setEditing(undefined);
    if (saved) {
      say(outcome);
      onChanged();
    }
  };

  /** After an environment is added, what comes next: a stack in it. */
  const environmentAdded = (): Outcome => {
    const environment = added.current;
    if (!environment || !createStackPath) {
      return { text: 'The environment is added.' };
    }
    return {
      text: `${environment.name} is added: stacks are created in it next.`,
      link: {
        to: createStackPath({ place: { project, environment } }),
        label: `Create a stack in ${environment.name}`,
      },
    };
  };

  return (
    <SideDrawer title={project.name} onClose={onClose}>
      {/* Said here, where the person acts: the page's own message is under the drawer. */}
      {message}
      <Typography variant="body2" color="textSecondary" paragraph>
        Id <code>{project.givenId}</code>
        {project.description && <> · {project.description}</>}
        {systemPage && (
          <>
            {' · '}
            <MaybeLink to={systemPage} inText>
              Its page in the catalog
            </MaybeLink>
          </>
        )}
      </Typography>
      {canWrite && (
        <Box display="flex" style={{ gap: 8 }} marginBottom={3}>
          <Button
            size="small"
            variant="outlined"
            onClick={() => setEditing('project')}
          >
            Edit project
          </Button>
          <ConfirmActionButton
            label="Delete project"
            color="secondary"
            title={`Delete ${project.name}?`}
            onConfirm={() =>
              client.call('deleteProject', { params: { id: projectId } })
            }
            onDone={() => {
              say({ text: `Project ${project.name} is deleted.` });
              onDeleted();
            }}
          >
            <Typography>
              The service refuses while the project still has environments,
              stacks or pipelines: delete them first.
              {project.environments.length > 0 &&
                ` It has ${environmentCount(project.environments.length)}.`}
            </Typography>
          </ConfirmActionButton>
        </Box>
      )}
      <Box
        display="flex"
        alignItems="center"
        justifyContent="space-between"
        marginBottom={1}
      >
        <Typography variant="h6" component="h3">
          Environments
        </Typography>
        {canWrite && (
          <Button
            size="small"
            variant="contained"
            color="primary"
            onClick={() => setEditing('new-environment')}
          >
            Add environment
          </Button>
        )}
      </Box>
      <LoadingTable
        options={CARD_TABLE_OPTIONS}
        loading={false}
        loadingLabel="Loading environments"
        columns={
          canWrite
            ? [...environmentColumns, environmentActions]
            : environmentColumns
        }
        data={project.environments}
        emptyContent={
          <Box padding={2}>
            <Typography variant="body2">
              No environment yet: stacks are created in an environment of a
              project (dev, staging, production).
            </Typography>
          </Box>
        }
      />
      {editing === 'project' && (
        <NamedResourceDialog
          title={`Edit ${project.name}`}
          submitLabel="Save the changes"
          failureTitle={`${project.name} could not be changed`}
          intro="Its id stays: stacks and templates name the project by it."
          existing={project}
          examples={{ name: project.name, givenId: project.givenId }}
          save={changes =>
            client.call('updateProject', {
              params: { id: projectId },
              body: { data: changes },
            })
          }
          onClose={saved =>
            closeDialog(saved, { text: `Project ${project.name} is changed.` })
          }
        />
      )}
      {editing === 'new-environment' && (
        <NamedResourceDialog
          title={`Add an environment to ${project.name}`}
          submitLabel="Add the environment"
          failureTitle="The environment could not be added"
          intro="Stacks are created in an environment; each environment of a project is a separate set of them (dev, staging, production)."
          examples={ENVIRONMENT_EXAMPLES}
          save={async changes => {
            const created = await client.call('createEnvironment', {
              params: { projectId },
              body: {
                data: {
                  name: changes.name ?? '',
                  givenId: changes.givenId ?? '',
                  ...(changes.description && {
                    description: changes.description,
                  }),
                },
              },
            });
            added.current = created.data;
          }}
          onClose={saved => closeDialog(saved, environmentAdded())}
        />
      )}
      {typeof editing === 'object' && (
        <NamedResourceDialog
          title={`Edit ${editing.name}`}
          submitLabel="Save the changes"
          failureTitle={`${editing.name} could not be changed`}
          intro="Its id stays: stacks and templates name the environment by it."
          existing={editing}
          examples={ENVIRONMENT_EXAMPLES}
          save={changes =>
            client.call('updateEnvironment', {
              params: { projectId, id: editing.id },
              body: { data: changes },
            })
          }
          onClose={saved =>
            closeDialog(saved, {
              text: `Environment ${editing.name} is changed.`,
            })
          }
        />
      )}
    </SideDrawer>
  );
};
