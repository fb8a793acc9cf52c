import {
  ErrorBody,
  IacExecutionSummary,
  IacResource,
  IacRunType,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { readFirst, readRows } from './directReads';
import { whereInList } from './idLists';
import { PlanCounts, PlannedResource } from '../domain/iacChanges';
import { newId } from './ids';
import { fromJsonColumn, toJsonColumn } from './json';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { mappedOnce } from '../lib/oncePerFrozenValue';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

/**
 * Rows per INSERT: short statements keep SQLite from holding the process for long. At 500 a
 * statement (Knex sends SQLite a compound SELECT) held the event loop for 40–140 ms; at 100
 * each stays under ~10 ms and the whole plan takes no longer.
 */
const CHUNK = 100;

/**
 * better-sqlite3 runs each statement synchronously and an awaited, already-settled promise does
 * not give the event loop a turn: between chunks, give it one explicitly, so other requests are
 * served while a large plan is stored.
 */
const yieldToEventLoop = () => new Promise(resolve => setImmediate(resolve));

interface SummaryRow {
  id: string;
  organization_id: string;
  pipeline_id: string;
  pipeline_run_id: string;
  step_execution_id: string;
  stack_id: string;
  run_type: IacRunType;
  add_count: number;
  change_count: number;
  destroy_count: number;
  import_count: number;
  read_count: number;
  replace_count: number;
  unchanged_count: number;
  applyable: boolean | number;
  output: string | null;
  plan_filename: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

interface ResourceRow {
  id: string;
  organization_id: string;
  stack_id: string;
  pipeline_run_id: string;
  step_execution_id: string;
  run_type: IacRunType;
  address: string;
  previous_address: string | null;
  module_address: string | null;
  mode: 'managed' | 'data';
  resource_type: string;
  resource_name: string;
  index_key: string | null;
  provider: string | null;
  change_kind: PlannedResource['changeKind'];
  change_priority: number;
  tainted: boolean | number;
  vendor_data: string;
  error: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

type ResourceRowWithState = ResourceRow & { state_resource_id: string | null };

function toSummary(row: SummaryRow): IacExecutionSummary {
  return {
    id: row.id,
    organizationId: row.organization_id,
    pipelineId: row.pipeline_id,
    pipelineRunId: row.pipeline_run_id,
    stepExecutionId: row.step_execution_id,
    stackId: row.stack_id,
    runType: row.run_type,
    addCount: row.add_count,
    changeCount: row.change_count,
    destroyCount: row.destroy_count,
    importCount: row.import_count,
    readCount: row.read_count,
    replaceCount: row.replace_count,
    unchangedCount: row.unchanged_count,
    applyable: Boolean(row.applyable),
    output: fromJsonColumn(row.output),
    planFilename: optional(row.plan_filename),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

/**
 * Listed summaries and resources: mapped once per row the read cache remembers, so that a page
 * read again from memory reuses its items and their bytes (optimization 38). Their readers
 * never change them (a remembered item is frozen).
 */
const toListedSummary = mappedOnce(toSummary);
const toListedResource = mappedOnce(toResource);
/**
 * #24's counts of one read, mapped once while its remembered rows live: the same 200 ids asked
 * again give the same frozen counts, whose answer the route keeps with its bytes
 * (optimization 42).
 */
const toStackCounts = mappedOnce(
  (
    rows: readonly Readonly<{ id: string; resource_count: string | number }>[],
  ) =>
    rows.map(row => ({ stackId: row.id, count: Number(row.resource_count) })),
);

function toResource(row: ResourceRowWithState): IacResource {
  return {
    id: row.id,
    organizationId: row.organization_id,
    stackId: row.stack_id,
    pipelineRunId: row.pipeline_run_id,
    stepExecutionId: row.step_execution_id,
    runType: row.run_type,
    address: row.address,
    previousAddress: optional(row.previous_address),
    moduleAddress: optional(row.module_address),
    mode: row.mode,
    resourceType: row.resource_type,
    resourceName: row.resource_name,
    indexKey: optional(row.index_key),
    provider: row.provider ?? '',
    changeKind: row.change_kind,
    tainted: Boolean(row.tainted),
    vendorData: fromJsonColumn<IacResource['vendorData']>(row.vendor_data) ?? {
      before: null,
      after: null,
    },
    error: fromJsonColumn<ErrorBody>(row.error),
    isInCurrentState: row.state_resource_id === row.id,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

export interface ReportContext {
  organizationId: string;
  pipelineId: string;
  pipelineRunId: string;
  stepExecutionId: string;
  stackId: string;
  runType: IacRunType;
}

/** Summaries, reported resources and stacks' current state. */
export class IacResultStore {
  constructor(private readonly db: Knex) {}

  async insertSummary(
    context: ReportContext,
    counts: PlanCounts,
    extra: {
      applyable: boolean;
      output?: Record<string, unknown>;
      planFilename?: string;
    },
  ): Promise<IacExecutionSummary> {
    const now = nowTimestamp();
    const row: SummaryRow = {
      id: newId(),
      organization_id: context.organizationId,
      pipeline_id: context.pipelineId,
      pipeline_run_id: context.pipelineRunId,
      step_execution_id: context.stepExecutionId,
      stack_id: context.stackId,
      run_type: context.runType,
      add_count: counts.addCount,
      change_count: counts.changeCount,
      destroy_count: counts.destroyCount,
      import_count: counts.importCount,
      read_count: counts.readCount,
      replace_count: counts.replaceCount,
      unchanged_count: counts.unchangedCount,
      applyable: extra.applyable,
      output: toJsonColumn(extra.output),
      plan_filename: extra.planFilename ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.db('iac_execution_summaries').insert(row);
    return toSummary(row);
  }

  /** Stores the reported resources; returns their ids in the same order. */
  async insertResources(
    context: ReportContext,
    resources: PlannedResource[],
  ): Promise<string[]> {
    const now = nowTimestamp();
    const toRow = (resource: PlannedResource): ResourceRow => ({
      id: newId(),
      organization_id: context.organizationId,
      stack_id: context.stackId,
      pipeline_run_id: context.pipelineRunId,
      step_execution_id: context.stepExecutionId,
      run_type: context.runType,
      address: resource.address,
      previous_address: resource.previousAddress ?? null,
      module_address: resource.moduleAddress ?? null,
      mode: resource.mode,
      resource_type: resource.resourceType,
      resource_name: resource.resourceName,
      index_key: resource.indexKey ?? null,
      provider: resource.provider ?? null,
      change_kind: resource.changeKind,
      change_priority: resource.changePriority,
      tainted: resource.tainted,
      vendor_data: JSON.stringify(resource.vendorData),
      error: toJsonColumn(resource.error),
      created_at: now,
      updated_at: now,
    });
    // Rows are built chunk by chunk too: serialising 10,000 resources' attributes at once
    // is a stall of its own.
    const ids: string[] = [];
    for (let i = 0; i < resources.length; i += CHUNK) {
      const rows = resources.slice(i, i + CHUNK).map(toRow);
      await this.db('iac_resources').insert(rows);
      ids.push(...rows.map(row => row.id));
      await yieldToEventLoop();
    }
    return ids;
  }

  /**
   * Applies an apply's or destroy's resources to the stack's current state: deleted addresses
   * leave it, everything else that is managed now points at this apply's row.
   */
  async applyToStackState(
    context: ReportContext,
    resources: PlannedResource[],
    ids: string[],
  ): Promise<void> {
    const now = nowTimestamp();
    const removed = new Set<string>();
    // Keyed by address: a report naming an address twice leaves its last change.
    const upserts = new Map<
      string,
      {
        stack_id: string;
        address: string;
        organization_id: string;
        iac_resource_id: string;
        updated_at: string;
      }
    >();
    resources.forEach((resource, i) => {
      if (
        resource.previousAddress &&
        resource.previousAddress !== resource.address
      ) {
        removed.add(resource.previousAddress);
      }
      if (resource.mode !== 'managed') return;
      if (
        context.runType === 'DESTROY' ||
        resource.changeKind === 'DELETE' ||
        resource.changeKind === 'FORGET'
      ) {
        removed.add(resource.address);
        upserts.delete(resource.address);
      } else {
        removed.delete(resource.address);
        upserts.set(resource.address, {
          stack_id: context.stackId,
          address: resource.address,
          organization_id: context.organizationId,
          iac_resource_id: ids[i],
          updated_at: now,
        });
      }
    });
    const removedList = [...removed];
    for (let i = 0; i < removedList.length; i += CHUNK) {
      await this.db('stack_resource_state')
        .where({ stack_id: context.stackId })
        .whereIn('address', removedList.slice(i, i + CHUNK))
        .delete();
      await yieldToEventLoop();
    }
    const rows = [...upserts.values()];
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db('stack_resource_state')
        .insert(rows.slice(i, i + CHUNK))
        .onConflict(['stack_id', 'address'])
        .merge(['iac_resource_id', 'updated_at']);
      await yieldToEventLoop();
    }
    // The stack's counter (#24), recounted in the same transaction: an index-only count of
    // one stack's addresses.
    const [{ count }] = await this.db('stack_resource_state')
      .where({
        organization_id: context.organizationId,
        stack_id: context.stackId,
      })
      .count({ count: '*' });
    await this.db('stacks')
      .where({ organization_id: context.organizationId, id: context.stackId })
      .update({ resource_count: Number(count) });
  }

  async listSummaries(
    organizationId: string,
    filter: {
      pipelineId?: string;
      pipelineRunId?: string;
      stackId?: string;
      stepExecutionId?: string;
    },
    page: KeysetRequest,
  ): Promise<KeysetPage<IacExecutionSummary>> {
    const query = this.db<SummaryRow>('iac_execution_summaries').where({
      organization_id: organizationId,
    });
    if (filter.pipelineId) query.where({ pipeline_id: filter.pipelineId });
    if (filter.pipelineRunId)
      query.where({ pipeline_run_id: filter.pipelineRunId });
    if (filter.stackId) query.where({ stack_id: filter.stackId });
    if (filter.stepExecutionId)
      query.where({ step_execution_id: filter.stepExecutionId });
    return keysetPage(query, 'id', page, toListedSummary);
  }

  private resourcesWithState() {
    return this.db<ResourceRowWithState>('iac_resources')
      .leftJoin(
        'stack_resource_state',
        'stack_resource_state.iac_resource_id',
        'iac_resources.id',
      )
      .select(
        'iac_resources.*',
        'stack_resource_state.iac_resource_id as state_resource_id',
      );
  }

  /**
   * A run's (or one step's) resources by change-type priority. The cursor is
   * `<priority>:<id>`, so paging stays an index range scan.
   */
  async listReportedResources(
    organizationId: string,
    filter: {
      pipelineRunId?: string;
      stepExecutionId?: string;
      runType?: IacRunType;
    },
    page: KeysetRequest,
  ): Promise<KeysetPage<IacResource>> {
    const query = this.resourcesWithState().where(
      'iac_resources.organization_id',
      organizationId,
    );
    if (filter.pipelineRunId)
      query.where('iac_resources.pipeline_run_id', filter.pipelineRunId);
    if (filter.stepExecutionId)
      query.where('iac_resources.step_execution_id', filter.stepExecutionId);
    if (filter.runType) query.where('iac_resources.run_type', filter.runType);

    const [{ count }] = await query.clone().clearSelect().count({ count: '*' });
    const pageQuery = query
      .clone()
      .orderBy([
        { column: 'iac_resources.change_priority', order: 'asc' },
        { column: 'iac_resources.id', order: 'asc' },
      ])
      .limit(page.limit + 1);
    if (page.afterId) {
      const [priorityText, id] = page.afterId.split(':');
      const priority = Number(priorityText);
      pageQuery.where(q =>
        q
          .where('iac_resources.change_priority', '>', priority)
          .orWhere(inner =>
            inner
              .where('iac_resources.change_priority', priority)
              .where('iac_resources.id', '>', id),
          ),
      );
    }
    const rows = (await pageQuery) as ResourceRowWithState[];
    const hasMore = rows.length > page.limit;
    const items = (hasMore ? rows.slice(0, page.limit) : rows).map(toResource);
    const last = items[items.length - 1];
    return {
      items,
      totalCount: Number(count),
      nextAfterId:
        hasMore && last
          ? `${rows[page.limit - 1].change_priority}:${last.id}`
          : undefined,
    };
  }

  /**
   * #14: what is in a stack now (the latest apply of every address not destroyed since), by
   * address, or undefined when the organization has no such stack. The total is the stack's kept counter (see applyToStackState), not a count of
   * its state; both reads go to the driver directly (database/directReads.ts).
   */
  async listStackState(
    organizationId: string,
    stackId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<IacResource> | undefined> {
    const stack = await readFirst<{ resource_count: number | string }>(
      this.db('stacks')
        .where({ organization_id: organizationId, id: stackId })
        .select('resource_count'),
    );
    if (!stack) {
      return undefined;
    }
    const pageQuery = this.db('stack_resource_state')
      .join(
        'iac_resources',
        'iac_resources.id',
        'stack_resource_state.iac_resource_id',
      )
      .where('stack_resource_state.organization_id', organizationId)
      .where('stack_resource_state.stack_id', stackId)
      .select(
        'iac_resources.*',
        'stack_resource_state.iac_resource_id as state_resource_id',
        'stack_resource_state.address as state_address',
      )
      .orderBy('stack_resource_state.address', 'asc')
      .limit(page.limit + 1);
    if (page.afterId) {
      pageQuery.where('stack_resource_state.address', '>', page.afterId);
    }
    const rows = await readRows<
      ResourceRowWithState & { state_address: string }
    >(pageQuery);
    const hasMore = rows.length > page.limit;
    const pageRows = hasMore ? rows.slice(0, page.limit) : rows;
    return {
      items: pageRows.map(toListedResource),
      totalCount: Number(stack.resource_count ?? 0),
      nextAfterId: hasMore
        ? pageRows[pageRows.length - 1].state_address
        : undefined,
    };
  }

  /** #24: the kept counters of up to 200 stacks; stacks with none are absent. */
  async countStackState(
    organizationId: string,
    stackIds: string[],
  ): Promise<{ stackId: string; count: number }[]> {
    const rows = await readRows<{
      id: string;
      resource_count: string | number;
    }>(
      whereInList(
        this.db('stacks').where({ organization_id: organizationId }),
        'id',
        [...new Set(stackIds)],
      )
        .where('resource_count', '>', 0)
        .select('id', 'resource_count'),
    );
    return toStackCounts(rows);
  }
}
