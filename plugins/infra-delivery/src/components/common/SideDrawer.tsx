import Box from '@material-ui/core/Box';
import Drawer from '@material-ui/core/Drawer';
import IconButton from '@material-ui/core/IconButton';
import Typography from '@material-ui/core/Typography';
import CloseIcon from '@material-ui/icons/Close';
import { ReactNode, useState } from 'react';
import { useFocusRingStyles } from './focusRing';

let drawerCount = 0;

/**
 * Something opened from a table, beside it: a modal drawer on the right, a dialog named by its
 * title (a level-2 heading), with a Close button; keyboard focus on its buttons shows as a ring.
 */
export const SideDrawer = ({
  title,
  onClose,
  children,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) => {
  const [titleId] = useState(() => `side-drawer-title-${++drawerCount}`);
  const { focusRing } = useFocusRingStyles();
  return (
    <Drawer
      anchor="right"
      open
      onClose={onClose}
      // A modal drawer is a dialog to assistive technology, named by its title.
      PaperProps={
        {
          className: focusRing,
          role: 'dialog',
          'aria-modal': true,
          'aria-labelledby': titleId,
        } as object
      }
    >
      <Box width={720} maxWidth="100vw" padding={3}>
        <Box display="flex" alignItems="center" justifyContent="space-between">
          <Typography variant="h5" component="h2" id={titleId}>
            {title}
          </Typography>
          <IconButton aria-label="Close" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Box>
        {children}
      </Box>
    </Drawer>
  );
};
