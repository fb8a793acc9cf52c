import { TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  CodeSource,
  MAX_PAGE_LIMIT,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { useActionMessage, useActionOutcome } from '../common/ActionMessage';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { LoadNotes } from '../common/LoadNotes';
import { LoadingTable } from '../common/LoadingTable';
import { MaybeLink } from '../common/MaybeLink';
import { TableCard } from '../common/TableCard';
import {
  CARD_TABLE_OPTIONS,
  contentWidths,
  NO_WRAP,
  ROW_ACTIONS_STYLE,
} from '../common/tableOptions';
import { Timestamp } from '../common/Timestamp';
import { narrowerThan, useContainerWidth } from '../common/useContainerWidth';
import { useCanWriteResources } from '../common/useCanExecuteRuns';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { CodeSourceStatus } from './CodeSourceStatus';
import { ConnectCodeSourceButton } from './ConnectCodeSourceButton';
import {
  VerifyCodeSourceButton,
  VerifyOutcome,
} from './VerifyCodeSourceButton';
import { VerifyOutcomeMessage } from './VerifyOutcomeMessage';
import { CardBody } from '../common/CardBody';

const VISIBILITY_LABELS: Record<CodeSource['visibility'], string> = {
  PUBLIC: 'Public',
  PRIVATE: 'Private',
  INTERNAL: 'Internal',
};

/** Only a web address is a link: the repository's address comes from data. */
const webAddress = (url: string) =>
  /^https?:\/\//i.test(url) ? url : undefined;

/** The room under which the table folds into three columns (see `columnsFor`). */
const COMPACT_BELOW = 700;

/**
 * The table's columns. Under 700 px of room (a 900 px window beside the sidebar) the default
 * branch goes under the repository and the connection time under the status: five columns ran
 * past the card's edge there, its Verify and Remove cut off.
 */
function columnsFor(compact: boolean): TableColumn<CodeSource>[] {
  return contentWidths<CodeSource>([
    {
      title: 'Repository',
      render: source => (
        <Box minWidth="12em">
          <MaybeLink to={webAddress(source.repoUrl)}>
            {source.repoName}
          </MaybeLink>
          <Typography variant="caption" component="p" color="textSecondary">
            {VISIBILITY_LABELS[source.visibility]} · installation{' '}
            {source.auth.forgeInstallationId}
            {compact && ` · branch ${source.defaultBranch}`}
          </Typography>
        </Box>
      ),
    },
    ...(compact
      ? []
      : [
          {
            title: 'Default branch',
            field: 'defaultBranch',
            // One line over "main": at 1,440 px the header took two beside a wide Actions.
            headerStyle: NO_WRAP,
          } as const,
        ]),
    {
      title: 'Status',
      render: source => (
        <>
          <CodeSourceStatus source={source} />
          {compact && (
            <Typography variant="caption" component="p" color="textSecondary">
              Connected <Timestamp value={source.createdAt} />
            </Typography>
          )}
        </>
      ),
    },
    ...(compact
      ? []
      : [
          {
            title: 'Connected',
            render: (source: CodeSource) => (
              <Timestamp value={source.createdAt} />
            ),
          },
        ]),
  ]);
}

/**
 * One element for every render: Backstage's table makes its body anew whenever its empty
 * content is another element, which closed a row's open Remove dialog, with the service's
 * refusal in it, as soon as the page re-rendered.
 */
const NO_CODE_SOURCES = (
  <CardBody>
    <Typography>
      No repository is connected yet: connect one to make modules and stacks
      from its code.
    </Typography>
  </CardBody>
);

/**
 * The GitHub repositories connected to the organization (code sources), which modules and
 * stacks are made from: whether their GitHub App installation still reaches them, and, for
 * those who may change resources, verifying that again and removing one no longer used.
 */
export const CodeSourcesCard = () => {
  const client = useApi(infraDeliveryApiRef);
  const canWrite = useCanWriteResources();
  const { message, say } = useActionMessage();
  const [verified, setVerified] = useActionOutcome<VerifyOutcome>();
  const sources = useReloadableAsync(
    () => client.call('listCodeSources', { query: { limit: MAX_PAGE_LIMIT } }),
    [client],
  );
  const page = sources.value;

  const { retry } = sources;

  const onConnected = (source: CodeSource) => {
    say({
      text: `${source.repoName} is connected; its default branch is ${source.defaultBranch}.`,
    });
    retry();
  };

  const onVerified = (outcome: VerifyOutcome) => {
    if ('source' in outcome && !outcome.source.accessLost) {
      say({
        text: `${outcome.source.repoName} is reachable; its default branch is ${outcome.source.defaultBranch}.`,
      });
      setVerified(undefined);
    } else {
      setVerified(outcome);
    }
    if ('source' in outcome) retry();
  };

  const actions: TableColumn<CodeSource> = {
    title: 'Actions',
    render: source => (
      <Box style={ROW_ACTIONS_STYLE}>
        <VerifyCodeSourceButton source={source} onOutcome={onVerified} />
        <ConfirmActionButton
          label="Remove"
          ariaLabel={`Remove ${source.repoName}`}
          color="secondary"
          title={`Remove ${source.repoName}?`}
          onConfirm={() =>
            client.call('deleteCodeSource', { params: { id: source.id } })
          }
          onDone={() => {
            say({ text: `${source.repoName} is disconnected.` });
            retry();
          }}
        >
          <Typography>
            The repository is disconnected from the organization; nothing
            changes on GitHub. The service refuses while modules or stacks still
            use it.
          </Typography>
        </ConfirmActionButton>
      </Box>
    ),
  };

  const [measured, width] = useContainerWidth<HTMLDivElement>();
  const columns = columnsFor(narrowerThan(width, COMPACT_BELOW));

  return (
    <div ref={measured}>
      <TableCard
        title="Code sources"
        subheader="GitHub repositories connected through a GitHub App installation: modules and stacks are made from them."
        action={
          canWrite && <ConnectCodeSourceButton onConnected={onConnected} />
        }
        notes={
          <>
            {message}
            {verified && (
              <VerifyOutcomeMessage
                outcome={verified}
                onClose={() => setVerified(undefined)}
              />
            )}
            <LoadNotes state={sources} />
          </>
        }
        footer={
          ((page && page.meta.totalCount > page.data.length) || !canWrite) && (
            <>
              {page && page.meta.totalCount > page.data.length && (
                <Typography variant="body2" color="textSecondary">
                  The newest {page.data.length} of {page.meta.totalCount} code
                  sources.
                </Typography>
              )}
              {!canWrite && (
                <Typography variant="body2" color="textSecondary">
                  Members of the organization connect, verify and remove
                  repositories.
                </Typography>
              )}
            </>
          )
        }
      >
        <LoadingTable
          options={CARD_TABLE_OPTIONS}
          loading={sources.loading && !page}
          loadingLabel="Loading code sources"
          columns={canWrite ? [...columns, actions] : columns}
          data={page?.data ?? []}
          emptyContent={NO_CODE_SOURCES}
        />
      </TableCard>
    </div>
  );
};
