import { ReactNode } from 'react';
import { useTheme } from '@material-ui/core/styles';
import WarningIcon from '@material-ui/icons/ReportProblemOutlined';

/**
 * Text with a warning icon before it, in the style of where it stands: a note under a run's
 * state that someone should look (its runner has gone silent). The icon stays beside the first
 * line when a narrow column wraps the text.
 */
export const WarningText = ({ children }: { children: ReactNode }) => {
  const theme = useTheme();
  return (
    <span style={{ display: 'inline-flex', alignItems: 'flex-start', gap: 4 }}>
      <WarningIcon
        fontSize="inherit"
        htmlColor={theme.palette.warning.main}
        style={{ marginTop: '0.2em', flexShrink: 0 }}
        aria-hidden
      />
      <span>{children}</span>
    </span>
  );
};
