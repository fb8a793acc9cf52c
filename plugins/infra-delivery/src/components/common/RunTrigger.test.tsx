import { screen } from '@testing-library/react';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { RunTrigger, runTriggerText } from './RunTrigger';

/** The text people read: Backstage's Link adds a hidden note to links that leave the portal. */
function readText(element: HTMLElement): string {
  return (element.textContent ?? '').replace(/, Opens in a new window/g, '');
}

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const REPO = 'https://github.com/acme/infra';

describe('RunTrigger', () => {
  it('says which push started a run, linking the commit', async () => {
    await renderInTestApp(
      <RunTrigger
        run={{
          kind: 'STANDARD',
          gitSource: {
            codeSourceId: 'cs-1',
            repository: 'acme/infra',
            repoUrl: REPO,
            branch: 'main',
            commit: {
              sha: SHA,
              message: 'Fix the subnet\n\nThe mask was wrong.',
              author: 'alice',
              url: `${REPO}/commit/${SHA}`,
            },
            webhookDeliveryId: 'd-1',
          },
        }}
      />,
    );
    expect(readText(screen.getByTestId('run-trigger'))).toBe(
      'Push to main · a1b2c3d “Fix the subnet” by alice',
    );
    expect(screen.getByRole('link', { name: /a1b2c3d/ })).toHaveAttribute(
      'href',
      `${REPO}/commit/${SHA}`,
    );
  });

  it('says which pull request a plan is for, linking it', async () => {
    const run = {
      kind: 'PULL_REQUEST_PLAN' as const,
      gitSource: {
        codeSourceId: 'cs-1',
        repository: 'acme/infra',
        repoUrl: REPO,
        branch: 'feature/subnet',
        commit: { sha: SHA, author: 'bob' },
        pullRequest: {
          number: 12,
          url: `${REPO}/pull/12`,
          baseBranch: 'main',
        },
        webhookDeliveryId: 'd-2',
      },
    };
    await renderInTestApp(<RunTrigger run={run} />);
    expect(readText(screen.getByTestId('run-trigger'))).toBe(
      'Pull request #12 · plan · a1b2c3d by bob',
    );
    expect(
      screen.getByRole('link', { name: /Pull request #12/ }),
    ).toHaveAttribute('href', `${REPO}/pull/12`);
    expect(runTriggerText(run)).toBe(
      'Pull request #12 · plan · a1b2c3d by bob',
    );
  });

  it('shows nothing for a run started by hand', async () => {
    await renderInTestApp(<RunTrigger run={{ kind: 'STANDARD' }} />);
    expect(screen.queryByTestId('run-trigger')).toBeNull();
  });
});
