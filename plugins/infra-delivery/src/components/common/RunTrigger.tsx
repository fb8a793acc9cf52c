import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { MaybeLink } from './MaybeLink';

/** The first line of a commit message. */
function subjectOf(message: string | undefined): string | undefined {
  return message?.split('\n')[0].trim() || undefined;
}

/**
 * What started a git-triggered run, with links to the forge: "Push to main · a1b2c3d “Fix
 * the subnet” by alice" or "Pull request #12 · plan · a1b2c3d “Widen the subnet” by bob".
 * Nothing for a run started by hand.
 */
export const RunTrigger = ({
  run,
  inText,
}: {
  run: Pick<PipelineRun, 'gitSource' | 'kind'>;
  /** Inside running text links are underlined. */
  inText?: boolean;
}) => {
  const source = run.gitSource;
  if (!source) {
    return null;
  }
  const subject = subjectOf(source.commit.message);
  return (
    <span data-testid="run-trigger">
      {source.pullRequest ? (
        <>
          <MaybeLink to={source.pullRequest.url} inText={inText}>
            Pull request #{source.pullRequest.number}
          </MaybeLink>
          {run.kind === 'PULL_REQUEST_PLAN' ? ' · plan' : ''}
        </>
      ) : (
        <>Push to {source.branch}</>
      )}
      {' · '}
      <MaybeLink to={source.commit.url} inText={inText}>
        <code>{source.commit.sha.slice(0, 7)}</code>
      </MaybeLink>
      {subject && <> “{subject}”</>}
      {source.commit.author && <> by {source.commit.author}</>}
    </span>
  );
};

/** The same, as plain text (for titles and accessible names). */
export function runTriggerText(
  run: Pick<PipelineRun, 'gitSource' | 'kind'>,
): string | undefined {
  const source = run.gitSource;
  if (!source) {
    return undefined;
  }
  const subject = subjectOf(source.commit.message);
  const what = source.pullRequest
    ? `Pull request #${source.pullRequest.number}${
        run.kind === 'PULL_REQUEST_PLAN' ? ' · plan' : ''
      }`
    : `Push to ${source.branch}`;
  return `${what} · ${source.commit.sha.slice(0, 7)}${
    subject ? ` “${subject}”` : ''
  }${source.commit.author ? ` by ${source.commit.author}` : ''}`;
}
