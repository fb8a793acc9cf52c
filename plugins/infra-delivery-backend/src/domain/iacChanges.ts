import {
  ErrorBody,
  IacChangeKind,
  iacChangeKindSchema,
} from '@infra-delivery/plugin-infra-delivery-common';

/**
 * What plan ingestion (`iac/`) hands the IaC result store (`database/`): both import these
 * types from here, so neither imports the other.
 */

/** What a resource change does, in the words of the service (and its ordering). */
export type ChangeKind = IacChangeKind;

/**
 * Most consequential first: how a run's resources are ordered ("change-type priority"). The
 * wire enumeration is spelled in this order, so it is the one list.
 */
export const CHANGE_KIND_PRIORITY: readonly ChangeKind[] =
  iacChangeKindSchema.options;

/** A plan's counts, as Terraform's own `Plan:` line counts them. */
export interface PlanCounts {
  addCount: number;
  changeCount: number;
  destroyCount: number;
  importCount: number;
  readCount: number;
  replaceCount: number;
  unchangedCount: number;
}

/** One resource change of a plan, as the service stores it. */
export interface PlannedResource {
  address: string;
  moduleAddress?: string;
  mode: 'managed' | 'data';
  resourceType: string;
  resourceName: string;
  indexKey?: string;
  provider?: string;
  changeKind: ChangeKind;
  /** Lower sorts first: the change-type priority of the specification's #14. */
  changePriority: number;
  tainted: boolean;
  previousAddress?: string;
  vendorData: { before: unknown; after: unknown };
  error?: ErrorBody;
}
