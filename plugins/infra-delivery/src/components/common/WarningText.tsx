import { ComponentType, ReactNode } from 'react';
import { useTheme } from '@material-ui/core/styles';
import { SvgIconProps } from '@material-ui/core/SvgIcon';
import ErrorIcon from '@material-ui/icons/ErrorOutline';
import WarningIcon from '@material-ui/icons/ReportProblemOutlined';

/** Text with a colored icon before it; the icon stays beside the first line when it wraps. */
const IconText = ({
  Icon,
  color,
  children,
}: {
  Icon: ComponentType<SvgIconProps>;
  color: string;
  children: ReactNode;
}) => (
  <span style={{ display: 'inline-flex', alignItems: 'flex-start', gap: 4 }}>
    <Icon
      fontSize="inherit"
      htmlColor={color}
      style={{ marginTop: '0.2em', flexShrink: 0 }}
      aria-hidden
    />
    <span>{children}</span>
  </span>
);

/**
 * Text with a warning icon before it, in the style of where it stands: a note under a run's
 * state that someone should look (its runner has gone silent).
 */
export const WarningText = ({ children }: { children: ReactNode }) => (
  <IconText Icon={WarningIcon} color={useTheme().palette.warning.main}>
    {children}
  </IconText>
);

/**
 * An error message (a failed run's, a failed step's) with an error icon before it, the text in
 * the style of where it stands: red text was the page's least readable, 2.7:1 on a dark card.
 */
export const ErrorText = ({ children }: { children: ReactNode }) => (
  <IconText Icon={ErrorIcon} color={useTheme().palette.error.main}>
    {children}
  </IconText>
);
