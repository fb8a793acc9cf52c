import { renderInTestApp } from '@backstage/frontend-test-utils';
import { screen } from '@testing-library/react';
import {
  byTextContent,
  pipelineRun,
} from '../../__testUtils__/infraDeliveryTestKit';
import { RunNames } from '../common/useRunNames';
import { RunFacts } from './RunFacts';

const accountId = '01a230b4-9f72-75f5-95ab-881d2a66ff1e';

function namesOf(people: Record<string, string>, loaded: boolean): RunNames {
  return {
    stackName: () => undefined,
    pipelineKind: () => undefined,
    personName: id => (id ? people[id] : undefined),
    peopleLoaded: loaded,
    runTitle: () => 'Plan',
    runTitleBesideStack: () => 'Plan',
  };
}

describe('RunFacts', () => {
  const run = pipelineRun({ id: 'r1', createdById: accountId });

  it('never shows the id of who started a run while the names load', async () => {
    await renderInTestApp(<RunFacts run={run} names={namesOf({}, false)} />);

    expect(screen.getByLabelText('Loading the name')).toBeInTheDocument();
    expect(screen.queryByText(new RegExp(accountId))).not.toBeInTheDocument();
  });

  it('names the service account that started a run', async () => {
    await renderInTestApp(
      <RunFacts
        run={run}
        names={namesOf({ [accountId]: 'Demo data' }, true)}
      />,
    );

    expect(
      screen.getByText(byTextContent(/^started by Demo data ·/)),
    ).toBeInTheDocument();
  });

  it('calls a deleted account an unknown account, not by its id', async () => {
    await renderInTestApp(<RunFacts run={run} names={namesOf({}, true)} />);

    expect(
      screen.getByText(byTextContent(/^started by an unknown account ·/)),
    ).toBeInTheDocument();
    expect(screen.queryByText(new RegExp(accountId))).not.toBeInTheDocument();
  });
});
