import { makeStyles } from '@material-ui/core/styles';

/**
 * Keyboard focus shown as a ring on the buttons, chips and selects inside: MUI 4 marks the
 * focused one `Mui-focusVisible` and draws no more than its focus ripple, which Backstage's
 * theme hardly shows — an outlined button in a table row (Plan & apply, Roll back, Revoke)
 * showed no focus at all, and a contained one a shade darker.
 */
export const useFocusRingStyles = makeStyles(theme => ({
  focusRing: {
    '& .Mui-focusVisible': {
      outlineStyle: 'solid',
      outlineWidth: 2,
      outlineColor: theme.palette.primary.main,
      outlineOffset: 2,
    },
  },
}));
