import Link from '@material-ui/core/Link';
import { ReactNode } from 'react';

/**
 * A row's name that opens the row's details (a drawer), as a name links to its page elsewhere
 * in Backstage. It takes no column of its own: the row's actions keep their room on a narrow
 * screen. Screen readers hear what it does: "Details of <name>".
 */
export const DetailsButton = ({
  name,
  onClick,
  children,
}: {
  /** What the details are of, in words. */
  name: string;
  onClick: () => void;
  /** What the button shows; the name by default. */
  children?: ReactNode;
}) => (
  <Link
    component="button"
    variant="body2"
    align="left"
    underline="hover"
    aria-label={`Details of ${name}`}
    onClick={onClick}
  >
    {children ?? name}
  </Link>
);
