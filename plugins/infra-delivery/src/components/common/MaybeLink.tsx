import { Link } from '@backstage/core-components';
import { ReactNode } from 'react';

/** A link where there is somewhere to go, else just its text. */
export const MaybeLink = ({
  to,
  children,
  inText,
}: {
  to?: string;
  children: ReactNode;
  /** Inside running text a link is underlined: colour alone does not tell it apart. */
  inText?: boolean;
}) =>
  to ? (
    <Link to={to} underline={inText ? 'always' : 'hover'}>
      {children}
    </Link>
  ) : (
    <>{children}</>
  );
