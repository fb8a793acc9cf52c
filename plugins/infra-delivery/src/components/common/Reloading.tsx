import { Progress } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import { ReactNode } from 'react';

/**
 * Content that stays in place while its next version loads (another filter's list, another
 * page, another time range): a progress bar named `label` lies over its top edge and the content
 * is dimmed. Nothing is added above or in place of it, so the page does not jump while it loads
 * or when it has loaded; a filter's change used to show nothing until the new list replaced
 * the old one.
 */
export const Reloading = ({
  reloading,
  label,
  children,
}: {
  reloading: boolean;
  label: string;
  children: ReactNode;
}) => (
  <Box position="relative" aria-busy={reloading}>
    {reloading && (
      <Box position="absolute" top={0} left={0} right={0} zIndex={2}>
        <Progress aria-label={label} />
      </Box>
    )}
    <Box
      style={{
        opacity: reloading ? 0.6 : 1,
        transition: 'opacity 150ms',
      }}
    >
      {children}
    </Box>
  </Box>
);
