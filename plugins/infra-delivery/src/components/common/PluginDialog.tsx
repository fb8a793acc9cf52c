import Dialog, { DialogProps } from '@material-ui/core/Dialog';
import { KeyboardEvent } from 'react';
import { useFocusRingStyles } from './focusRing';

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

/** What Tab stops at in a dialog. */
const TABBABLE =
  'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

function tabStops(paper: HTMLElement): HTMLElement[] {
  return Array.from(paper.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    element =>
      element.tabIndex >= 0 &&
      !(element as HTMLButtonElement).disabled &&
      !(element instanceof HTMLInputElement && element.type === 'hidden') &&
      !element.closest('[aria-hidden="true"], [hidden]'),
  );
}

/**
 * Tab from the dialog's last field or button goes round to its first, and Shift+Tab from the
 * first to the last. MUI 4's focus trap sent the focus round through the dialog's own
 * container instead: one Tab in every round landed on an element that is no control and shows
 * no focus, and Enter or Space there did nothing.
 */
function keepTabRoundTheControls(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'Tab' || event.defaultPrevented) return;
  const stops = tabStops(event.currentTarget);
  if (stops.length === 0) return;
  const focused = event.currentTarget.ownerDocument.activeElement;
  const first = stops[0];
  const last = stops[stops.length - 1];
  let next: HTMLElement | undefined;
  if (event.shiftKey) {
    if (focused === first || focused === event.currentTarget) next = last;
  } else if (focused === last) {
    next = first;
  }
  if (!next) return;
  event.preventDefault();
  next.focus();
}

/**
 * A dialog's accessible name: the id of its title (`aria-labelledby`), or the name itself. A
 * screen reader announces a dialog by it as the focus goes in; without one it said only
 * "dialog" (axe-core's aria-dialog-name, serious: the cloud account's connect dialog).
 */
type DialogName =
  | { 'aria-labelledby': string; 'aria-label'?: never }
  | { 'aria-label': string; 'aria-labelledby'?: never };

/**
 * Every dialog of the plugin: MUI's, with the focus put in it as it opens, shown as a ring,
 * and kept on its fields and buttons under Tab. It must be named (see `DialogName`).
 */
export const PluginDialog = ({
  PaperProps,
  ...props
}: Omit<DialogProps, 'aria-labelledby' | 'aria-label'> & DialogName) => {
  const { focusRing } = useFocusRingStyles();
  return (
    <Dialog
      TransitionProps={FOCUS_ON_OPEN}
      {...props}
      PaperProps={{
        ...PaperProps,
        onKeyDown: event => {
          PaperProps?.onKeyDown?.(event);
          keepTabRoundTheControls(event);
        },
      }}
      classes={{ paper: focusRing }}
    />
  );
};
