import { TableOptions } from '@backstage/core-components';

/** A table inside a card: all rows, no search or toolbar of its own, dense rows. */
export const CARD_TABLE_OPTIONS: TableOptions = {
  paging: false,
  search: false,
  padding: 'dense',
  toolbar: false,
};
