import { DialogProps } from '@material-ui/core/Dialog';

/** What takes the focus in a dialog's content: a field to fill in. */
const FIELD =
  'input:not([type=hidden]):not([disabled]), textarea, [aria-haspopup=listbox]';

/**
 * Where a dialog puts the keyboard's focus as it opens: its first field, or else its first
 * action (Cancel in a confirmation: Enter there changes nothing). MUI focuses the dialog's
 * backdrop container, outside the element with the dialog role and with no visible focus:
 * a keyboard user saw no focus at all, and a screen reader did not announce the dialog.
 * For every dialog of the plugin: `<Dialog TransitionProps={FOCUS_ON_OPEN} …>`.
 */
export const FOCUS_ON_OPEN: DialogProps['TransitionProps'] = {
  // Once it has entered: a button focused while the dialog still enters has no ripple yet,
  // and MUI's ButtonBase then throws reading its focus ripple.
  onEntered: (node: HTMLElement) => {
    const target =
      node.querySelector<HTMLElement>(`.MuiDialogContent-root :is(${FIELD})`) ??
      node.querySelector<HTMLElement>(
        '.MuiDialogActions-root button:not([disabled])',
      );
    target?.focus();
  },
};
