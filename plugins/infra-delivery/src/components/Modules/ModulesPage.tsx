import { Content } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useMemo } from 'react';
import { contentWidths, TABLE_OPTIONS } from '../common/tableOptions';
import { DetailsButton } from '../common/DetailsButton';
import { useOpenedDrawer } from '../common/drawerLinks';
import { ErrorPanel } from '../common/ErrorPanel';
import { LoadingTable } from '../common/LoadingTable';
import { Timestamp } from '../common/Timestamp';
import { DefaultValuesTable } from './DefaultValuesTable';
import { ModuleDrawer } from './ModuleDrawer';
import { ModuleLocation } from './ModuleLocation';
import { CatalogModule, useModules } from './useModules';

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

/**
 * The organization's modules: directories with a `module.yaml` in its connected repositories,
 * the versions released of each and their instances in environments; and the default
 * values their inputs may take. A module's name opens its versions and instances beside the
 * list (`?module=<id>`).
 */
export const ModulesPage = () => {
  const modules = useModules();
  const [openedId, setOpenedId] = useOpenedDrawer('module');
  const opened = modules.value?.find(module => module.id === openedId);
  const columns = useMemo(() => moduleColumns(setOpenedId), [setOpenedId]);

  return (
    <Content>
      {modules.error && <ErrorPanel error={modules.error} />}
      <LoadingTable
        title="Modules"
        subtitle="Reusable infrastructure: a directory with a module.yaml in a connected repository, released as versions; an instance is a version chosen for an environment, with its values."
        loading={modules.loading && !modules.value}
        loadingLabel="Loading modules"
        options={TABLE_OPTIONS}
        columns={columns}
        data={modules.value ?? []}
        emptyContent={
          <Box padding={2}>
            <Typography gutterBottom>No module yet.</Typography>
            <Typography variant="body2" color="textSecondary">
              A module is a directory with a module.yaml in a repository
              connected to the organization. It is added with{' '}
              <code>POST /module-definitions</code>, and a version released with{' '}
              <code>POST /module-definitions/&#123;id&#125;/versions</code>; the
              service's API is described on the Status tab.
            </Typography>
          </Box>
        }
      />
      <Box marginTop={3}>
        <DefaultValuesTable />
      </Box>
      {opened && (
        <ModuleDrawer
          module={opened}
          onClose={() => setOpenedId()}
          onInstancesChanged={modules.retry}
        />
      )}
    </Content>
  );
};
