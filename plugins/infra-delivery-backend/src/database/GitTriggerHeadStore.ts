import { Knex } from 'knex';
import { nowTimestamp, toTimestamp } from './timestamps';

interface HeadRow {
  stack_id: string;
  head_key: string;
  sha: string;
  previous_sha: string | null;
  observed_at: string | Date;
  closed: boolean | number;
  updated_at: string | Date;
}

/** The newest head a stack has seen of a branch (`push:<branch>`) or a pull request (`pull:<n>`). */
export interface GitHead {
  sha: string;
  /** For a push: the commit the branch pointed to before it (GitHub's `before`). */
  previousSha?: string;
  /** GitHub's time of the head: the head commit's timestamp, or the pull request's updated_at. */
  observedAt: string;
  /** The pull request was closed. */
  closed: boolean;
}

export function pushHeadKey(branch: string): string {
  return `push:${branch}`;
}

export function pullRequestHeadKey(number: number): string {
  return `pull:${number}`;
}

/**
 * Heads seen per stack, so a delivery that arrives after a newer one (GitHub does not promise
 * order, and redeliveries come whenever someone presses the button) does not start a run for
 * a commit that is no longer the head.
 */
export class GitTriggerHeadStore {
  constructor(private readonly db: Knex) {}

  async get(stackId: string, headKey: string): Promise<GitHead | undefined> {
    const row = await this.db<HeadRow>('git_trigger_heads')
      .where({ stack_id: stackId, head_key: headKey })
      .first();
    return (
      row && {
        sha: row.sha,
        previousSha: row.previous_sha ?? undefined,
        observedAt: toTimestamp(row.observed_at),
        closed: Boolean(row.closed),
      }
    );
  }

  async put(stackId: string, headKey: string, head: GitHead): Promise<void> {
    const row: HeadRow = {
      stack_id: stackId,
      head_key: headKey,
      sha: head.sha,
      previous_sha: head.previousSha ?? null,
      observed_at: head.observedAt,
      closed: head.closed,
      updated_at: nowTimestamp(),
    };
    await this.db('git_trigger_heads')
      .insert(row)
      .onConflict(['stack_id', 'head_key'])
      .merge(['sha', 'previous_sha', 'observed_at', 'closed', 'updated_at']);
  }
}
