import Typography, { TypographyProps } from '@material-ui/core/Typography';

/**
 * A dialog's text, what it is for or what it will do: one size in every dialog, MUI's dialog
 * text (body1, as the fields' values). Intros written in body2 were 14 px above 16 px text in
 * the same dialog and in the confirmation dialogs.
 */
export const DialogText = (props: Omit<TypographyProps, 'variant'>) => (
  <Typography {...props} variant="body1" />
);
