import {
  DefaultValueDefinition,
  ModuleInput,
  ModuleInstance,
  ModuleVersion,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';
import { ReactNode, useState } from 'react';
import { useActionMessage } from '../common/ActionMessage';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { useCanWriteResources } from '../common/useCanExecuteRuns';
import { CARD_TABLE_OPTIONS, contentWidths } from '../common/tableOptions';
import { LoadNotes } from '../common/LoadNotes';
import { LoadingTable } from '../common/LoadingTable';
import { SideDrawer } from '../common/SideDrawer';
import { Timestamp } from '../common/Timestamp';
import { ModuleLocation } from './ModuleLocation';
import { commitUrl } from './repositoryLinks';
import { CatalogModule } from './useModules';
import { useDefaultValues } from './useDefaultValues';
import { useModuleDetails } from './useModuleDetails';
import { ModuleInstanceDialog } from './ModuleInstanceDialog';
import { ModuleInstancesTable } from './ModuleInstancesTable';
import { DeleteModuleButton } from './DeleteModuleButton';
import { EditModuleDialog } from './EditModuleDialog';
import { ReleaseVersionDialog } from './ReleaseVersionDialog';
import { fallbackOf } from './moduleValues';

/**
 * One input of a version in its own words: "Region (default eu-west-1, from AWS region)",
 * "CIDR block (required, fixed once set)". `defaults` are the organization's default values
 * by the id an input names in `default_from`.
 */
export function inputText(
  input: ModuleInput,
  defaults: Map<string, DefaultValueDefinition>,
): string {
  // What the service fills an empty value with (`fallbackOf`); a definition the portal does not
  // know may fill it too.
  const fallback = fallbackOf(input, defaults);
  let origin: string | undefined;
  if (fallback?.from) {
    origin = `default ${fallback.value}, from ${fallback.from}`;
  } else if (input.default_from && !defaults.has(input.default_from)) {
    origin = `default from ${input.default_from}`;
  } else if (fallback) {
    origin = `default ${fallback.value}`;
  }
  const notes = [
    input.required && 'required',
    input.immutable && 'fixed once set',
    origin,
  ].filter(Boolean);
  return notes.length ? `${input.label} (${notes.join(', ')})` : input.label;
}

/** What a version asks for: one input per line. */
const Inputs = ({
  version,
  defaults,
}: {
  version: ModuleVersion;
  defaults: Map<string, DefaultValueDefinition>;
}) =>
  version.inputs.length === 0 ? (
    <>None</>
  ) : (
    <Box minWidth="12em">
      {version.inputs.map(input => (
        <Typography key={input.id} variant="body2">
          {inputText(input, defaults)}
        </Typography>
      ))}
    </Box>
  );

/** Why no version can be released now, if so: its repository is out of the service's reach. */
function releaseBlocker(module: CatalogModule): string | undefined {
  if (!module.codeSource) {
    return 'Its repository is no longer connected: there is no module.yaml to read';
  }
  if (module.codeSource.accessLost) {
    return `The service no longer reaches ${module.codeSource.repoName}: reconnect it first`;
  }
  return undefined;
}

const Section = ({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  /** A button beside the heading. */
  action?: ReactNode;
  children: ReactNode;
}) => (
  <Box component="section" aria-labelledby={id} marginTop={3}>
    <Box display="flex" alignItems="center" justifyContent="space-between">
      <Typography variant="h6" component="h3" id={id} gutterBottom>
        {title}
      </Typography>
      {action}
    </Box>
    {children}
  </Box>
);

/**
 * A module beside the catalog: where it lives, its versions, and its instances, and for those
 * who may change resources a new version released from a branch or tag and a new instance of
 * a released version, and editing or deleting the module.
 */
export const ModuleDrawer = ({
  module,
  onClose,
  onChanged,
  onDeleted,
}: {
  module: CatalogModule;
  onClose: () => void;
  /**
   * Called once the module was changed, or an instance created, changed or deleted here: the
   * catalog reads them again.
   */
  onChanged?: () => void;
  /** Called once the module was deleted here. */
  onDeleted?: () => void;
}) => {
  const details = useModuleDetails(module);
  const defaultValues = useDefaultValues();
  const canWrite = useCanWriteResources();
  /** The instance the dialog changes, or `new` for a new one. */
  const [editing, setEditing] = useState<ModuleInstance | 'new'>();
  const [releasing, setReleasing] = useState(false);
  const [editingModule, setEditingModule] = useState(false);
  const { message, say } = useActionMessage();
  const defaults = new Map(
    (defaultValues.value ?? []).map(definition => [
      definition.givenId,
      definition,
    ]),
  );
  const loading = details.loading && !details.value;
  const versions = details.value?.versions ?? [];
  const place = (instance: ModuleInstance) =>
    details.value?.places.get(instance.environmentId) ?? '—';
  const source = module.codeSource;
  const blocker = releaseBlocker(module);

  return (
    <SideDrawer title={module.name} onClose={onClose}>
      {message}
      {module.description && (
        <Typography variant="body1" paragraph>
          {module.description}
        </Typography>
      )}
      <Typography variant="body2">
        <ModuleLocation module={module} /> · id {module.givenId}
      </Typography>
      {canWrite && (
        <Box display="flex" marginTop={1} style={{ gap: 8 }}>
          <Button
            size="small"
            variant="outlined"
            aria-label={`Edit ${module.name}`}
            onClick={() => setEditingModule(true)}
          >
            Edit
          </Button>
          <DeleteModuleButton module={module} onDeleted={() => onDeleted?.()} />
        </Box>
      )}
      <LoadNotes state={details} />

      <Section
        id="module-versions-heading"
        title="Versions"
        action={
          canWrite && (
            <ButtonWithReason
              variant="outlined"
              disabled={Boolean(blocker)}
              disabledReason={blocker}
              onClick={() => setReleasing(true)}
            >
              Release version
            </ButtonWithReason>
          )
        }
      >
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
              render: version => (
                <Inputs version={version} defaults={defaults} />
              ),
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

      <Section
        id="module-instances-heading"
        title="Instances"
        action={
          canWrite &&
          versions.length > 0 && (
            <Button variant="outlined" onClick={() => setEditing('new')}>
              New instance
            </Button>
          )
        }
      >
        <ModuleInstancesTable
          instances={module.instances}
          versions={versions}
          loading={loading}
          placeOf={place}
          onChange={canWrite ? setEditing : undefined}
          onDeleted={instance => {
            say({ text: `Instance ${instance.name} deleted.` });
            onChanged?.();
          }}
        />
      </Section>
      {editingModule && (
        <EditModuleDialog
          module={module}
          onClose={changed => {
            setEditingModule(false);
            if (changed) {
              say({ text: `Module ${changed.name} changed.` });
              onChanged?.();
            }
          }}
        />
      )}
      {releasing && (
        <ReleaseVersionDialog
          module={module}
          newest={versions[0]}
          onClose={released => {
            setReleasing(false);
            if (released) {
              say({ text: `Version ${released.version} released.` });
              details.retry();
            }
          }}
        />
      )}
      {editing && (
        <ModuleInstanceDialog
          moduleName={module.name}
          versions={versions}
          defaults={defaults}
          instance={editing === 'new' ? undefined : editing}
          onClose={saved => {
            setEditing(undefined);
            if (saved) {
              say({
                text: `Instance ${saved.name} ${
                  editing === 'new' ? 'created' : 'changed'
                }.`,
              });
              onChanged?.();
            }
          }}
        />
      )}
    </SideDrawer>
  );
};
