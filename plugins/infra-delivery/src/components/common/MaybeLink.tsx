import { Link } from '@backstage/core-components';
import { ReactNode } from 'react';

/** A link where there is somewhere to go, else just its text. */
export const MaybeLink = ({
  to,
  children,
}: {
  to?: string;
  children: ReactNode;
}) => (to ? <Link to={to}>{children}</Link> : <>{children}</>);
