import Box from '@material-ui/core/Box';
import { ReactNode } from 'react';

/**
 * Where Backstage's InfoCard sets its title: 20 px in (spacing 2.5), where its body is 16 px
 * in. Text put in the body started 4 px left of the title above it.
 */
export const TITLE_INSET = 2.5;

/**
 * Text in a card whose content spans it edge to edge (an InfoCard with `noPadding`, or what a
 * table card shows without rows), lined up with the card's title and its table's columns.
 */
export const CardBody = ({ children }: { children: ReactNode }) => (
  <Box padding={2} paddingLeft={TITLE_INSET}>
    {children}
  </Box>
);
