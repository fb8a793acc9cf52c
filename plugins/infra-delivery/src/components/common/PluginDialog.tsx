import Dialog, { DialogProps } from '@material-ui/core/Dialog';
import { makeStyles } from '@material-ui/core/styles';

/** What takes the focus in a dialog's content: a field to fill in. */
const FIELD =
  'input:not([type=hidden]):not([disabled]), textarea, [aria-haspopup=listbox]';

/**
 * Where a dialog puts the keyboard's focus as it opens: its first field, or else its first
 * action (Cancel in a confirmation: Enter there changes nothing). MUI focuses the dialog's
 * backdrop container, outside the element with the dialog role and with no visible focus:
 * a keyboard user saw no focus at all, and a screen reader did not announce the dialog.
 */
const FOCUS_ON_OPEN: DialogProps['TransitionProps'] = {
  // Once it has entered: a button focused while the dialog still enters has no ripple yet,
  // and MUI's ButtonBase then throws reading its focus ripple.
  onEntered: (node: HTMLElement) => {
    // Where the person has already put the focus in the dialog (clicked a field while it
    // entered), it stays: taking it away sent what they typed to another field.
    const focused = node.ownerDocument.activeElement;
    if (focused && focused !== node && node.contains(focused)) return;
    const target =
      node.querySelector<HTMLElement>(`.MuiDialogContent-root :is(${FIELD})`) ??
      node.querySelector<HTMLElement>(
        '.MuiDialogActions-root button:not([disabled])',
      );
    target?.focus();
  },
};

// Keyboard focus shows as a ring, as on the runs' filter chips: MUI's focus ripple on a
// contained button was hardly lighter than the button.
const useStyles = makeStyles(theme => ({
  paper: {
    '& .Mui-focusVisible': {
      outline: `2px solid ${theme.palette.primary.main}`,
      outlineOffset: 2,
    },
  },
}));

/** Every dialog of the plugin: MUI's, with the focus put in it as it opens and shown as a ring. */
export const PluginDialog = (props: DialogProps) => (
  <Dialog
    TransitionProps={FOCUS_ON_OPEN}
    {...props}
    classes={{ paper: useStyles().paper }}
  />
);
