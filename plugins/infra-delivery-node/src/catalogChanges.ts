/**
 * The events-service topic on which the infra-delivery backend announces, after the commit,
 * each change of what the catalog shows of it (a stack, project or environment created,
 * changed or deleted), so that the catalog module refreshes at once instead of at its next
 * scheduled refresh.
 *
 * @public
 */
export const CATALOG_CHANGES_TOPIC = 'infra-delivery.catalog-changes';

/**
 * The payload of an event on {@link CATALOG_CHANGES_TOPIC}. Only the portal organization's
 * changes are announced: it is the organization the catalog shows.
 *
 * @public
 */
export interface CatalogChangeEvent {
  kind: 'stack' | 'project' | 'environment';
  id: string;
  change: 'created' | 'updated' | 'deleted';
}
