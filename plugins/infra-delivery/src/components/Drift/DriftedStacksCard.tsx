import { InfoCard } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import Box from '@material-ui/core/Box';
import List from '@material-ui/core/List';
import ListItem from '@material-ui/core/ListItem';
import ListItemText from '@material-ui/core/ListItemText';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { Loaded } from '../common/Loaded';
import { MaybeLink } from '../common/MaybeLink';
import { stackEntityRef } from '../common/stackEntityRef';
import { Timestamp } from '../common/Timestamp';
import { useEntityTabLink } from '../common/useEntityTabLink';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { DriftStatus } from './DriftStatus';
import { CARD_HEADING } from '../common/cardHeading';
import { CardBody } from '../common/CardBody';

/**
 * The stacks whose infrastructure no longer matches their code, as drift checks found them
 * (#stacks filtered by drift status), each linked to its Stacks tab where it can be
 * reconciled.
 */
export const DriftedStacksCard = () => {
  const client = useApi(infraDeliveryApiRef);
  const tabLink = useEntityTabLink();
  const drifted = useReloadableAsync(
    async () =>
      (
        await client.call('listStacks', {
          query: { driftStatus: ['DRIFTED'], limit: 50 },
        })
      ).data,
    [client],
  );
  return (
    <InfoCard
      titleTypographyProps={CARD_HEADING}
      title="Drift"
      subheader="Stacks that no longer match their code"
      noPadding
    >
      <CardBody>
        <Loaded state={drifted}>
          {found => {
            // A service that ignores the filter must not make every stack look drifted.
            const stacks = found.filter(s => s.driftStatus === 'DRIFTED');
            if (stacks.length === 0) {
              return (
                <Typography>
                  No drift found: every checked stack matches its code.
                </Typography>
              );
            }
            return (
              <List dense disablePadding>
                {stacks.map(stack => (
                  <ListItem key={stack.id} disableGutters>
                    <ListItemText
                      primary={
                        <MaybeLink
                          to={tabLink(stackEntityRef(stack.id), 'stacks')}
                        >
                          {stack.name}
                        </MaybeLink>
                      }
                      secondary={
                        <Box component="span" display="flex" style={{ gap: 8 }}>
                          <DriftStatus stack={stack} />
                          <span>
                            checked <Timestamp value={stack.lastDriftCheckAt} />
                          </span>
                        </Box>
                      }
                      secondaryTypographyProps={{ component: 'div' }}
                    />
                  </ListItem>
                ))}
              </List>
            );
          }}
        </Loaded>
      </CardBody>
    </InfoCard>
  );
};
