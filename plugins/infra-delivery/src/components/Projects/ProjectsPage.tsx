import { Content } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import Typography from '@material-ui/core/Typography';
import { useMemo, useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { ActionMessageScope, useActionMessage } from '../common/ActionMessage';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { ChipList } from '../common/ChipList';
import { DetailsButton } from '../common/DetailsButton';
import { useOpenedDrawer } from '../common/drawerLinks';
import { LoadNotes } from '../common/LoadNotes';
import { LoadingTable } from '../common/LoadingTable';
import { TableCard } from '../common/TableCard';
import { Timestamp } from '../common/Timestamp';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { useCallerRole } from '../common/useCallerRole';
import { useCanWriteResources } from '../common/useCanExecuteRuns';
import { NamedResourceDialog } from './NamedResourceDialog';
import { NamedResourceName } from './NamedResourceName';
import { ProjectDrawer } from './ProjectDrawer';
import { ProjectWithEnvironments, useProjects } from './useProjects';
import { CardBody } from '../common/CardBody';

/** Why a person who may not change resources sees Create project greyed. */
export const READ_ONLY_REASON =
  'Members of the organization create and change projects and environments; your role only reads them';

/** A project's environments as chips; "None yet" without any. */
const EnvironmentChips = ({ project }: { project: ProjectWithEnvironments }) =>
  project.environments.length === 0 ? (
    <Typography variant="body2" color="textSecondary">
      None yet
    </Typography>
  ) : (
    <ChipList
      label={`Environments of ${project.name}`}
      items={project.environments.map(environment => ({
        key: environment.id,
        label: environment.name,
        title: environment.givenId,
      }))}
    />
  );

function projectColumns(open: (id: string) => void) {
  return contentWidths<ProjectWithEnvironments>([
    {
      title: 'Project',
      render: project => (
        <NamedResourceName
          resource={project}
          name={
            <DetailsButton
              name={project.name}
              onClick={() => open(project.id)}
            />
          }
        />
      ),
    },
    {
      title: 'Environments',
      render: project => <EnvironmentChips project={project} />,
    },
    {
      title: 'Updated',
      render: project => <Timestamp value={project.updatedAt} />,
    },
  ]);
}

const ProjectsContent = () => {
  const client = useApi(infraDeliveryApiRef);
  const projects = useProjects();
  const canWrite = useCanWriteResources();
  // Greyed while the role is asked, but not said to be read-only before it is known.
  const roleKnown = !useCallerRole().loading;
  const { message, say } = useActionMessage();
  const [creating, setCreating] = useState(false);
  const [openedId, setOpenedId] = useOpenedDrawer('project');
  const columns = useMemo(() => projectColumns(setOpenedId), [setOpenedId]);
  const list = projects.value;
  const opened = list?.projects.find(project => project.id === openedId);

  return (
    <Content>
      {message}
      <LoadNotes state={projects} />
      <TableCard
        title="Projects"
        subheader="A project holds environments (dev, staging, production); stacks and module instances are created in an environment. A project's name opens its environments."
        action={
          <ButtonWithReason
            color="primary"
            variant="contained"
            size="small"
            disabled={!canWrite}
            disabledReason={roleKnown ? READ_ONLY_REASON : undefined}
            onClick={() => setCreating(true)}
          >
            Create project
          </ButtonWithReason>
        }
        footer={
          list &&
          list.totalCount > list.projects.length && (
            <Typography variant="body2" color="textSecondary">
              The newest {list.projects.length} of {list.totalCount} projects.
            </Typography>
          )
        }
      >
        <LoadingTable
          options={CARD_TABLE_OPTIONS}
          loading={projects.loading && !list}
          loadingLabel="Loading projects"
          columns={columns}
          data={list?.projects ?? []}
          emptyContent={
            <CardBody>
              <Typography gutterBottom>No project yet.</Typography>
              <Typography variant="body2" color="textSecondary">
                {canWrite
                  ? 'Create one, then add its environments: stacks are created in them.'
                  : 'A member of the organization creates them; stacks are created in their environments.'}
              </Typography>
            </CardBody>
          }
        />
      </TableCard>
      {creating && (
        <NamedResourceDialog
          title="Create a project"
          submitLabel="Create the project"
          failureTitle="The project could not be created"
          intro="A project holds environments, and stacks are created in them. Add its environments once it is created."
          examples={{ name: 'Payments', givenId: 'payments' }}
          save={async changes => {
            const created = await client.call('createProject', {
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
            // Its drawer opens once the list has it, for its environments.
            setOpenedId(created.data.id);
          }}
          onClose={saved => {
            setCreating(false);
            if (saved) {
              say({ text: 'The project is created: add its environments.' });
              projects.retry();
            }
          }}
        />
      )}
      {opened && (
        <ProjectDrawer
          project={opened}
          canWrite={canWrite}
          onChanged={projects.retry}
          onDeleted={() => {
            setOpenedId();
            projects.retry();
          }}
          onClose={() => setOpenedId()}
        />
      )}
    </Content>
  );
};

/**
 * The organization's projects and their environments (`?project=<id>` opens one beside the
 * list). Those who may change resources create, change and delete them here; stacks are then
 * created in an environment (the stack template, or `POST /stacks`).
 */
export const ProjectsPage = () => (
  <ActionMessageScope>
    <ProjectsContent />
  </ActionMessageScope>
);
