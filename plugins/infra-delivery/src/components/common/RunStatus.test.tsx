import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { pipelineRun } from '../../__testUtils__/infraDeliveryTestKit';
import { RunState } from './RunStatus';

describe('RunState', () => {
  it('says beside a succeeded run that its plan found no changes', async () => {
    await renderInTestApp(
      <RunState
        run={pipelineRun({
          id: 'r1',
          status: 'SUCCEEDED',
          changeSummary: {
            add: 0,
            change: 0,
            destroy: 0,
            import: 0,
            noChanges: true,
          },
        })}
      />,
    );
    expect(screen.getByText('Succeeded')).toBeInTheDocument();
    expect(screen.getByText('No changes')).toHaveAttribute(
      'title',
      'The plan has nothing to apply',
    );
  });

  it('says what the plan of a run waiting for approval would change', async () => {
    await renderInTestApp(
      <RunState
        run={pipelineRun({
          id: 'r1',
          status: 'WAITING_FOR_APPROVAL',
          changeSummary: {
            add: 3,
            change: 1,
            destroy: 0,
            import: 2,
            noChanges: false,
          },
        })}
      />,
    );
    expect(screen.getByText('Waiting for approval')).toBeInTheDocument();
    expect(screen.getByText('+3 ~1 −0 · 2 to import')).toHaveAttribute(
      'title',
      'Plan: 3 to add, 1 to change, 0 to destroy, 2 to import',
    );
  });

  it('says nothing of changes beside a drift check, which applies none', async () => {
    await renderInTestApp(
      <RunState
        run={pipelineRun({
          id: 'r1',
          status: 'SUCCEEDED',
          kind: 'DRIFT_CHECK',
          changeSummary: {
            add: 0,
            change: 1,
            destroy: 0,
            import: 0,
            noChanges: false,
          },
        })}
      />,
    );
    expect(screen.getByText('Succeeded')).toBeInTheDocument();
    expect(screen.queryByText('+0 ~1 −0')).not.toBeInTheDocument();
  });

  it('says nothing of changes before the run has planned', async () => {
    await renderInTestApp(
      <RunState run={pipelineRun({ id: 'r1', status: 'RUNNING' })} />,
    );
    expect(screen.getByText('Running')).toBeInTheDocument();
    expect(screen.queryByText(/No changes|^\+/)).not.toBeInTheDocument();
  });
});
