import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import { DriftStatus } from '../Drift/DriftStatus';
import { Timestamp } from '../common/Timestamp';
import { SummaryLinePlaceholder } from './SummaryLine';
import { SummarySection } from './SummarySection';

/**
 * On a stack's own entity page, where a list of its stacks would name only itself: whether its
 * infrastructure is as its code says, as the latest drift check found it.
 */
export const OwnStackDrift = ({
  stack,
  link,
}: {
  /** Undefined while it loads. */
  stack?: Stack;
  /** The stack's drawer on the Stacks tab, which shows the drifted resources. */
  link?: string;
}) => (
  <SummarySection title="Drift" link={link} linkText="Stack details">
    {stack ? (
      <>
        <DriftStatus stack={stack} />
        {stack.lastDriftCheckAt && (
          <Typography variant="caption" color="textSecondary" component="p">
            Checked <Timestamp value={stack.lastDriftCheckAt} />
          </Typography>
        )}
      </>
    ) : (
      <SummaryLinePlaceholder />
    )}
  </SummarySection>
);
