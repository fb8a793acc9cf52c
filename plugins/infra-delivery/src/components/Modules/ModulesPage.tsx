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
import { narrowerThan, useContainerWidth } from '../common/useContainerWidth';

const instancesText = (count: number) => (count === 0 ? 'None' : `${count}`);

/** "No instance", "1 instance", "3 instances": under a module's name in a narrow table. */
const instancesPhrase = (count: number) => {
  if (count === 0) return 'No instance';
  return count === 1 ? '1 instance' : `${count} instances`;
};

/**
 * The room under which the table folds into two columns: in an 800 px window (under 600 px
 * beside the sidebar) four columns ran past the card's edge, Updated cut off, and the
 * repository wrapped after every slash and hyphen.
 */
const COMPACT_BELOW = 700;

/**
 * The catalog's columns; a module's name opens it with `open`. Where the table is `compact`,
 * its instances and when it was updated go under its name.
 */
function moduleColumns(open: (id: string) => void, compact: boolean) {
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
          {compact && (
            <Typography variant="caption" component="p" color="textSecondary">
              {instancesPhrase(module.instances.length)} · updated{' '}
              <Timestamp value={module.updatedAt} />
            </Typography>
          )}
        </Box>
      ),
    },
    {
      title: 'Repository',
      render: module => <ModuleLocation module={module} />,
    },
    ...(compact
      ? []
      : [
          {
            title: 'Instances',
            render: (module: CatalogModule) =>
              instancesText(module.instances.length),
          },
          {
            title: 'Updated',
            render: (module: CatalogModule) => (
              <Timestamp value={module.updatedAt} />
            ),
          },
        ]),
  ]);
}

/** The page's content, inside the scope of its actions' outcomes. */
const ModulesContent = () => {
  const modules = useModules();
  const [openedId, setOpenedId] = useOpenedDrawer('module');
  const opened = modules.value?.find(module => module.id === openedId);
  const [measured, tableWidth] = useContainerWidth<HTMLDivElement>();
  const compact = narrowerThan(tableWidth, COMPACT_BELOW);
  const columns = useMemo(
    () => moduleColumns(setOpenedId, compact),
    [setOpenedId, compact],
  );
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
        <div ref={measured}>
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
        </div>
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
