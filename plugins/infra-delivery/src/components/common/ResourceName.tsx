import Typography from '@material-ui/core/Typography';
import { Fragment } from 'react';

/**
 * A Terraform address or resource type (`module.vpc.aws_subnet.private["a"]`) or an ARN
 * (`arn:aws:iam::111111111111:role/deployer`), breakable after each `.`, `_`, `:` and `/` where
 * a narrow column needs it, rather than inside a word ("aws_iam_role_polic / y") or an account
 * id. The breaks are `<wbr>`: a copied name has no extra characters.
 */
export const ResourceName = ({ children }: { children: string }) => (
  <Typography variant="body2" style={{ overflowWrap: 'anywhere' }}>
    {children.split(/(?<=[._:/])/).map((part, i) => (
      <Fragment key={i}>
        {i > 0 && <wbr />}
        {part}
      </Fragment>
    ))}
  </Typography>
);
