import { Content, InfoCard } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ModuleDefinition } from '@infra-delivery/plugin-infra-delivery-common';
import { useCallback, useMemo } from 'react';
import { ActionMessageScope, useActionMessage } from '../common/ActionMessage';
import { useCanWriteResources } from '../common/useCanExecuteRuns';
import { CARD_HEADING } from '../common/cardHeading';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { DetailsButton } from '../common/DetailsButton';
import { useOpenedDrawer } from '../common/drawerLinks';
import { LoadNotes } from '../common/LoadNotes';
import { LoadingTable } from '../common/LoadingTable';
import { Timestamp } from '../common/Timestamp';
import { AddModuleButton } from './AddModuleButton';
import { DefaultValuesCard } from './DefaultValuesCard';
import { ModuleDrawer } from './ModuleDrawer';
import { ModuleLocation } from './ModuleLocation';
import { CatalogModule, useModules } from './useModules';
import { CardBody } from '../common/CardBody';

const instancesText = (count: number) => (count === 0 ? 'None' : `${count}`);

/** The catalog's columns; a module's name opens it with `open`. */
function moduleColumns(open: (id: string) => void) {
  return contentWidths<CatalogModule>([
    {
      title: 'Module',
      render: module => (
        <Box minWidth="12em">
          <DetailsButton name={module.name} onClick={() => open(module.id)} />
          {module.description && (
            <Typography variant="caption" component="p" color="textSecondary">
              {module.description}
            </Typography>
          )}
        </Box>
      ),
    },
    {
      title: 'Repository',
      render: module => <ModuleLocation module={module} />,
    },
    {
      title: 'Instances',
      render: module => instancesText(module.instances.length),
    },
    {
      title: 'Updated',
      render: module => <Timestamp value={module.updatedAt} />,
    },
  ]);
}

/** The page's content, inside the scope of its actions' outcomes. */
const ModulesContent = () => {
  const modules = useModules();
  const [openedId, setOpenedId] = useOpenedDrawer('module');
  const opened = modules.value?.find(module => module.id === openedId);
  const columns = useMemo(() => moduleColumns(setOpenedId), [setOpenedId]);
  const canWrite = useCanWriteResources();
  const { message, say } = useActionMessage();
  const { retry } = modules;
  // The list reads it again, and its drawer opens once it is there.
  const added = useCallback(
    (module: ModuleDefinition) => {
      say({ text: `Module ${module.name} added.` });
      retry();
      setOpenedId(module.id);
    },
    [say, retry, setOpenedId],
  );

  return (
    <Content>
      {message}
      <LoadNotes state={modules} />
      <InfoCard
        titleTypographyProps={CARD_HEADING}
        title="Modules"
        subheader="Reusable infrastructure: a directory with a module.yaml in a connected repository, released as versions; an instance is a version chosen for an environment, with its values."
        action={
          canWrite ? (
            // The header's action slot pulls its content up and right by 8 px, for an icon
            // button; a text button would then touch the card's corner.
            <Box marginTop={1} marginRight={1}>
              <AddModuleButton onAdded={added} />
            </Box>
          ) : undefined
        }
        // The table spans the card, as the default values' below.
        noPadding
      >
        <LoadingTable
          loading={modules.loading && !modules.value}
          loadingLabel="Loading modules"
          options={CARD_TABLE_OPTIONS}
          columns={columns}
          data={modules.value ?? []}
          emptyContent={
            <CardBody>
              <Typography gutterBottom>No module yet.</Typography>
              <Typography variant="body2" color="textSecondary">
                A module is a directory with a module.yaml in a connected
                repository: released as versions, it is deployed into
                environments as instances.
              </Typography>
            </CardBody>
          }
        />
      </InfoCard>
      <Box marginTop={3} id="default-values">
        <DefaultValuesCard />
      </Box>
      {opened && (
        <ModuleDrawer
          module={opened}
          onClose={() => setOpenedId()}
          onChanged={modules.retry}
          onDeleted={() => {
            say({ text: `Module ${opened.name} deleted.` });
            setOpenedId();
            retry();
          }}
        />
      )}
    </Content>
  );
};

/**
 * The organization's modules: directories with a `module.yaml` in its connected repositories,
 * the versions released of each and their instances in environments; and the default
 * values their inputs may take. A module's name opens its versions and instances beside the
 * list (`?module=<id>`). Those who may change resources add modules and default values here.
 * One action's outcome stands at a time, whether it was about a module or a default value.
 */
export const ModulesPage = () => (
  <ActionMessageScope>
    <ModulesContent />
  </ActionMessageScope>
);
