import {
  ModuleInstance,
  ModuleVersion,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { ErrorPanel } from '../common/ErrorPanel';
import { LoadingTable } from '../common/LoadingTable';
import { SideDrawer } from '../common/SideDrawer';
import { Timestamp } from '../common/Timestamp';
import { ModuleLocation } from './ModuleLocation';
import { commitUrl } from './repositoryLinks';
import { CatalogModule } from './useModules';
import { useModuleDetails } from './useModuleDetails';

/**
 * One input of a version in its own words: "Region (default from aws-region)", "CIDR block
 * (required)".
 */
export function inputText(input: ModuleVersion['inputs'][number]): string {
  const notes = [
    input.required && 'required',
    input.default_from && `default from ${input.default_from}`,
  ].filter(Boolean);
  return notes.length ? `${input.label} (${notes.join(', ')})` : input.label;
}

/** What a version asks for: one input per line. */
const Inputs = ({ version }: { version: ModuleVersion }) =>
  version.inputs.length === 0 ? (
    <>None</>
  ) : (
    <Box minWidth="12em">
      {version.inputs.map(input => (
        <Typography key={input.id} variant="body2">
          {inputText(input)}
        </Typography>
      ))}
    </Box>
  );

const Section = ({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) => (
  <Box component="section" aria-labelledby={id} marginTop={3}>
    <Typography variant="h6" component="h3" id={id} gutterBottom>
      {title}
    </Typography>
    {children}
  </Box>
);

/** An instance's values, one `name = value` per line. */
const Values = ({ instance }: { instance: ModuleInstance }) => {
  const entries = Object.entries(instance.values);
  if (entries.length === 0) {
    return <>None</>;
  }
  // A line per value, broken only where a value is longer than the column.
  return (
    <Box minWidth="12em">
      {entries.map(([name, value]) => (
        <Typography
          key={name}
          variant="body2"
          style={{
            fontFamily: 'monospace',
            wordBreak: 'normal',
            overflowWrap: 'anywhere',
          }}
        >
          {`${name}\u00a0=\u00a0${value}`}
        </Typography>
      ))}
    </Box>
  );
};

/** A module beside the catalog: where it lives, its versions, and where it is deployed. */
export const ModuleDrawer = ({
  module,
  onClose,
}: {
  module: CatalogModule;
  onClose: () => void;
}) => {
  const details = useModuleDetails(module);
  const loading = details.loading && !details.value;
  const versions = details.value?.versions ?? [];
  const versionName = (id: string) =>
    versions.find(version => version.id === id)?.version ?? '—';
  const place = (instance: ModuleInstance) =>
    details.value?.places.get(instance.environmentId) ?? '—';
  const source = module.codeSource;

  return (
    <SideDrawer title={module.name} onClose={onClose}>
      {module.description && (
        <Typography variant="body1" paragraph>
          {module.description}
        </Typography>
      )}
      <Typography variant="body2">
        <ModuleLocation module={module} /> · id {module.givenId}
      </Typography>
      {details.error && <ErrorPanel error={details.error} />}

      <Section id="module-versions-heading" title="Versions">
        <LoadingTable<ModuleVersion>
          options={CARD_TABLE_OPTIONS}
          loading={loading}
          loadingLabel="Loading versions"
          columns={contentWidths<ModuleVersion>([
            { title: 'Version', field: 'version' },
            { title: 'Ref', field: 'ref' },
            {
              title: 'Commit',
              render: version =>
                source ? (
                  <Link
                    href={commitUrl(source, version.commitSha)}
                    target="_blank"
                    rel="noopener noreferrer"
                    style={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}
                  >
                    {version.commitSha.slice(0, 7)}
                  </Link>
                ) : (
                  version.commitSha.slice(0, 7)
                ),
            },
            {
              title: 'Inputs',
              render: version => <Inputs version={version} />,
            },
            {
              title: 'Released',
              render: version => <Timestamp value={version.createdAt} />,
            },
          ])}
          data={versions}
          emptyContent={
            <Box padding={2}>
              <Typography variant="body2">No version released yet.</Typography>
            </Box>
          }
        />
      </Section>

      <Section id="module-instances-heading" title="Deployed in">
        <LoadingTable<ModuleInstance>
          options={CARD_TABLE_OPTIONS}
          loading={loading}
          loadingLabel="Loading where the module is deployed"
          columns={contentWidths<ModuleInstance>([
            {
              // Where it is deployed under its name: four columns fit the drawer at 1,024 px.
              title: 'Instance',
              render: instance => (
                <Box minWidth="8em">
                  <Typography variant="body2">{instance.name}</Typography>
                  <Typography variant="caption" color="textSecondary">
                    {place(instance)}
                  </Typography>
                </Box>
              ),
            },
            {
              title: 'Version',
              render: instance => versionName(instance.moduleVersionId),
            },
            {
              title: 'Values',
              render: instance => <Values instance={instance} />,
            },
            {
              title: 'Updated',
              render: instance => <Timestamp value={instance.updatedAt} />,
            },
          ])}
          data={module.instances}
          emptyContent={
            <Box padding={2}>
              <Typography variant="body2">
                Not deployed in any environment yet.
              </Typography>
            </Box>
          }
        />
      </Section>
    </SideDrawer>
  );
};
