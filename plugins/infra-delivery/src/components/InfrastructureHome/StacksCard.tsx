import { InfoCard } from '@backstage/core-components';
import { Loaded } from '../common/Loaded';
import { LoadState } from '../common/loadState';
import { StackLastRunTable } from './StackLastRunTable';
import { StackDirectory } from './useStackDirectory';
import { CARD_HEADING } from '../common/cardHeading';

/**
 * Every stack of the organization with how its last run went, the most recently run first:
 * where the infrastructure stands, each stack linked to its page in the catalog.
 */
export const StacksCard = ({
  directory,
}: {
  directory: LoadState<StackDirectory>;
}) => (
  <InfoCard
    titleTypographyProps={CARD_HEADING}
    title="Stacks"
    subheader="Each stack with its last run"
    noPadding
  >
    <Loaded state={directory}>
      {({ stacks }) => <StackLastRunTable stacks={stacks} />}
    </Loaded>
  </InfoCard>
);
