import Button, { ButtonProps } from '@material-ui/core/Button';
import Tooltip from '@material-ui/core/Tooltip';

/**
 * A button that, disabled, says why on hover and focus (`disabledReason`): a greyed button
 * alone says nothing.
 */
export const ButtonWithReason = ({
  disabledReason,
  ...props
}: ButtonProps & { disabledReason?: string }) => {
  const button = <Button {...props} />;
  return props.disabled && disabledReason ? (
    // A disabled button takes no pointer events: the tooltip hangs on its wrapper.
    <Tooltip title={disabledReason}>
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
  );
};
