import { makeStyles } from '@material-ui/core/styles';
import { ReactNode } from 'react';

/**
 * The overview card's two columns, statuses and what they are about, shared by every line of
 * every section: a status is as wide as its label ("Queued", "Failed", "Waiting for a
 * runner"), and with a column per line the names beside them started wherever each label
 * ended. Sections and lines take the columns as CSS subgrids; anything else in them (a
 * heading, a note) spans both.
 */
const useStyles = makeStyles(theme => ({
  columns: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: theme.spacing(1),
    '& > *': { gridColumn: '1 / -1' },
  },
  rows: {
    display: 'grid',
    gridTemplateColumns: 'subgrid',
    gridColumn: '1 / -1',
    '& > *': { gridColumn: '1 / -1' },
  },
  line: {
    display: 'grid',
    gridTemplateColumns: 'subgrid',
    gridColumn: '1 / -1',
    alignItems: 'start',
    padding: theme.spacing(0.5, 0),
  },
}));

/** The card's body, whose sections line up their statuses and names in one pair of columns. */
export const SummaryColumns = ({ children }: { children: ReactNode }) => (
  <div className={useStyles().columns}>{children}</div>
);

/** The class of a section: its lines in the card's columns, anything else across both. */
export const useSummaryRowsClass = () => useStyles().rows;

/** The class of a line: its status in the first column, what it is about in the second. */
export const useSummaryLineClass = () => useStyles().line;
