import { InfoCard } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import { makeStyles } from '@material-ui/core/styles';
import { ReactNode } from 'react';
import { CARD_HEADING } from './cardHeading';
import { CardBody, TITLE_INSET } from './CardBody';
import { useFocusRingStyles } from './focusRing';

/**
 * The header's controls under the title where the two do not fit side by side, and as wide as
 * the card at most: MUI keeps a card header's action at its own width (`flex: 0 0 auto`), and on
 * a phone the run page's filter and "Show the 1 unchanged" stood in one row wider than the
 * card, which cut 99 px off the switch's label (89 px at 200 % zoom). Within the card's width
 * they wrap.
 */
const useStyles = makeStyles({
  controlsMayWrap: {
    '& > .MuiCardHeader-root': { flexWrap: 'wrap', rowGap: 8 },
    '& > .MuiCardHeader-root > .MuiCardHeader-action': {
      flexShrink: 1,
      minWidth: 0,
      maxWidth: '100%',
    },
  },
});

/**
 * A card whose table spans it edge to edge, as the catalog's and the Modules page's: its title
 * a heading, its one action (Add, Invite, Connect) in the header, and what is said around the
 * table — outcomes, errors, notes — inset as the title is; keyboard focus on its buttons shows as a ring. A table inset by the card's padding
 * drew a second box, with its own shadow, inside the card.
 */
export const TableCard = ({
  title,
  subheader,
  action,
  notes,
  footer,
  controlsUnderTitleWhenNarrow,
  children,
}: {
  title: ReactNode;
  subheader?: ReactNode;
  /** The header's button, or nothing for those who may not use it. */
  action?: ReactNode;
  /** Above the table: the outcome of the last action, an error, a note for the reader. */
  notes?: ReactNode;
  /** Under the table: how many rows are shown of how many, paging. */
  footer?: ReactNode;
  /**
   * Whether the header's controls go under the title where the two do not fit side by side:
   * for several controls, which otherwise squeezed the title into two lines at 900 px.
   */
  controlsUnderTitleWhenNarrow?: boolean;
  /** The table. */
  children: ReactNode;
}) => {
  const { controlsMayWrap } = useStyles();
  const { focusRing } = useFocusRingStyles();
  return (
    <InfoCard
      className={
        controlsUnderTitleWhenNarrow
          ? `${focusRing} ${controlsMayWrap}`
          : focusRing
      }
      titleTypographyProps={CARD_HEADING}
      title={title}
      subheader={subheader}
      action={
        action ? (
          // The header's action slot pulls its content up and right by 8 px, for an icon
          // button; a text button would then touch the card's corner.
          <Box marginTop={1} marginRight={1}>
            {action}
          </Box>
        ) : undefined
      }
      noPadding
    >
      {notes && (
        <Box paddingLeft={TITLE_INSET} paddingRight={2}>
          {notes}
        </Box>
      )}
      {children}
      {footer && <CardBody>{footer}</CardBody>}
    </InfoCard>
  );
};
