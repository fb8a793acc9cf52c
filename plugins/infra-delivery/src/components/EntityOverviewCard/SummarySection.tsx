import { Link } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';
import { useSummaryRowsClass } from './SummaryColumns';

/** One part of the overview card: a heading, the link to the tab with the rest, its lines. */
export const SummarySection = ({
  title,
  link,
  linkText,
  children,
}: {
  title: string;
  /** The tab with the rest; undefined in an app without entity pages. */
  link?: string;
  linkText: string;
  children: ReactNode;
}) => (
  <Box
    component="section"
    aria-label={title}
    marginBottom={2}
    className={useSummaryRowsClass()}
  >
    <Box
      display="flex"
      justifyContent="space-between"
      alignItems="baseline"
      marginBottom={0.5}
    >
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      {link && (
        <Typography variant="body2">
          <Link to={link}>{linkText}</Link>
        </Typography>
      )}
    </Box>
    {children}
  </Box>
);
