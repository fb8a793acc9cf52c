import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { pipelineKindOf, runTitle, runTitleBesideStack } from './runTitle';
import { loadVisibleStacks } from './visibleStacks';

/** What a run is called where people read it, and who started it. */
export interface RunNames {
  /** The stack's name, or undefined until known (or when it is not visible). */
  stackName(stackId?: string): string | undefined;
  /** "Plan & apply" or "Destroy" for a stack's change or destroy pipeline. */
  pipelineKind(pipelineId: string): string | undefined;
  /** A member's email or a service account's name for the id a run was created by. */
  personName(id?: string): string | undefined;
  /** Whether the names are read (or could not be): an id unnamed then is no one's any more. */
  peopleLoaded: boolean;
  /** The run's description, else what it does to which stack: "Destroy · Network". */
  runTitle(run: PipelineRun): string;
  /** The run's description, else what it does ("Destroy"): beside its stack's name. */
  runTitleBesideStack(run: PipelineRun): string;
}

/** Who the ids of members and service accounts name. */
export type PeopleNames = Pick<RunNames, 'personName' | 'peopleLoaded'>;

/**
 * Names for the runs of `stackIds`: their stacks and pipelines, and the members and service
 * accounts who started them. Loaded once per set of stacks; until then ids stay unnamed and
 * views show what they can.
 */
export function useRunNames(stackIds: string[]): RunNames {
  const client = useApi(infraDeliveryApiRef);
  const { value, loading } = useAsync(async () => {
    const [stacks, members, accounts] = await Promise.all([
      // No stacks named: the organization's runs, named after all its stacks.
      stackIds.length
        ? loadVisibleStacks(client, stackIds)
        : client
            .call('listStacks', { query: { limit: 500 } })
            .then(page => page.data),
      client.call('listMemberships', { query: { limit: 500 } }).then(
        page => page.data,
        () => [],
      ),
      client.call('listServiceAccounts', { query: { limit: 500 } }).then(
        page => page.data,
        () => [],
      ),
    ]);
    const people = new Map<string, string>([
      ...members.map(m => [m.id, m.email] as [string, string]),
      ...accounts.map(a => [a.id, a.name] as [string, string]),
    ]);
    return { stacks: stacks.filter((s): s is Stack => !!s), people };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, stackIds.join(',')]);

  const stacks = value?.stacks ?? [];
  return {
    stackName: stackId => stacks.find(stack => stack.id === stackId)?.name,
    pipelineKind: pipelineId => pipelineKindOf(pipelineId, stacks),
    personName: id => (id ? value?.people.get(id) : undefined),
    peopleLoaded: !loading,
    runTitle: run => runTitle(run, stacks),
    runTitleBesideStack: run => runTitleBesideStack(run, stacks),
  };
}
