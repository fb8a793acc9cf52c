import { TableOptions } from '@backstage/core-components';

/**
 * Every table of the plugin: all rows, dense, and columns that cannot be dragged — a draggable
 * header nests a second button inside the sort button, which screen readers cannot use.
 */
export const TABLE_OPTIONS: TableOptions = {
  paging: false,
  search: false,
  padding: 'dense',
  draggable: false,
};

/** A table inside a card: no search or toolbar of its own. */
export const CARD_TABLE_OPTIONS: TableOptions = {
  ...TABLE_OPTIONS,
  toolbar: false,
};
