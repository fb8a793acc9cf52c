import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { stackRows } from './stackRows';

const stack = (id: string, name: string) => ({ id, name } as Stack);
const run = (startedAt: string) =>
  ({ createdAt: startedAt, startedAt } as PipelineRun);

describe('stackRows', () => {
  it('gives each row its stack id, by which material-table keeps the row apart between renders', () => {
    const rows = stackRows(
      [stack('s-1', 'Network'), stack('s-2', 'Monitoring')],
      new Map([['s-2', run('2026-11-30T10:00:00.000Z')]]),
    );
    expect(rows.map(row => row.id)).toEqual(['s-2', 's-1']);
    expect(rows.map(row => row.stack.name)).toEqual(['Monitoring', 'Network']);
  });
});
