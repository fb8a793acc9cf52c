import { useApi } from '@backstage/frontend-plugin-api';
import {
  gitRefSchema,
  ModuleVersion,
  moduleVersionNameSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { useSubmission } from '../common/useSubmission';
import { refusedFieldsOf } from './refusedFields';
import { CatalogModule } from './useModules';
import { DialogText } from '../common/DialogText';

/** The service's refusals said beside a field, by their reason. */
const REFUSED_BY_REASON = {
  VERSION_TAKEN: 'version',
  REF_NOT_FOUND: 'ref',
  MODULE_YAML_NOT_FOUND: 'ref',
};

/**
 * Releases a version of a module (`POST /module-definitions/{id}/versions`): its name, and
 * the branch or tag whose `module.yaml` the service reads and pins to its commit. A version
 * taken, a ref the repository lacks or a `module.yaml` missing there is said beside its
 * field; an invalid `module.yaml` lists its problems below.
 */
export const ReleaseVersionDialog = ({
  module,
  newest,
  onClose,
}: {
  module: CatalogModule;
  /** The newest version released, to say what the next one follows. */
  newest?: ModuleVersion;
  /** With the version released, or nothing when the person cancelled. */
  onClose: (released?: ModuleVersion) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const [version, setVersion] = useState('');
  const [ref, setRef] = useState(module.codeSource?.defaultBranch ?? '');

  const problems: Record<string, string | undefined> = {
    version: version.trim()
      ? moduleVersionNameSchema.safeParse(version.trim()).error?.issues[0]
          ?.message
      : undefined,
    ref: ref.trim()
      ? gitRefSchema.safeParse(ref.trim()).error?.issues[0]?.message
      : undefined,
  };
  const {
    busy,
    silentFor,
    error,
    submit: release,
  } = useSubmission(async () => {
    const released = await client.call('createModuleVersion', {
      params: { id: module.id },
      body: { data: { version: version.trim(), ref: ref.trim() } },
    });
    onClose(released.data);
  });
  const refused = refusedFieldsOf(error, ['version', 'ref'], REFUSED_BY_REASON);
  const problemOf = (field: string) => problems[field] ?? refused?.[field];
  const complete =
    Boolean(version.trim() && ref.trim()) && !problems.version && !problems.ref;

  return (
    <FormDialog
      title={`Release a version of ${module.name}`}
      submitLabel="Release"
      canSubmit={complete}
      busy={busy}
      silentFor={silentFor}
      onSubmit={release}
      onClose={onClose}
    >
      <DialogText paragraph>
        The service reads module.yaml at the branch or tag, and keeps its inputs
        and the commit it points to now.
      </DialogText>
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <TextField
          id="release-version-name"
          label="Version"
          required
          value={version}
          error={Boolean(problemOf('version'))}
          helperText={
            problemOf('version') ??
            `A semantic version: 1.2.0, v1.2.0-rc.1${
              newest ? ` (newest: ${newest.version})` : ''
            }`
          }
          onChange={event => setVersion(event.target.value)}
        />
        <TextField
          id="release-version-ref"
          label="Git ref"
          required
          value={ref}
          error={Boolean(problemOf('ref'))}
          helperText={
            problemOf('ref') ??
            `A branch or tag of ${
              module.codeSource?.repoName ?? 'the repository'
            }`
          }
          onChange={event => setRef(event.target.value)}
        />
      </Box>
      {error && !refused && (
        <ErrorPanel error={error} title="The version could not be released" />
      )}
    </FormDialog>
  );
};
