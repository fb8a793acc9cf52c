import { InfoCard, Link } from '@backstage/core-components';
import { PluginTable } from '../common/PluginTable';
import { useApi } from '@backstage/frontend-plugin-api';
import { CloudAccount } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { CARD_TABLE_OPTIONS } from '../common/tableOptions';
import { useInfrastructurePath } from '../common/useInfrastructurePath';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { Loaded } from '../common/Loaded';
import { CARD_HEADING } from '../common/cardHeading';
import { CardBody } from '../common/CardBody';

/** A connected account whose role is not on the latest policy version: it can be upgraded. */
export function needsUpgrade(account: CloudAccount): boolean {
  return (
    account.status === 'CONNECTED' &&
    account.roleVersion !== account.latestRoleVersion
  );
}

/**
 * The connected cloud accounts whose role runs an older policy than the latest: features that
 * need the newer permissions fail there until an admin upgrades them from the Cloud accounts
 * tab.
 */
export const CloudAccountUpgradesCard = () => {
  const client = useApi(infraDeliveryApiRef);
  const cloudAccountsPath = `${useInfrastructurePath()}/cloud-accounts`;
  const accounts = useReloadableAsync(
    async () =>
      (
        await client.call('listCloudAccounts', { query: { limit: 500 } })
      ).data.filter(needsUpgrade),
    [client],
  );
  return (
    <InfoCard
      titleTypographyProps={CARD_HEADING}
      title="Cloud accounts needing an upgrade"
      subheader="Their role runs an older policy version"
      deepLink={{ title: 'All cloud accounts', link: cloudAccountsPath }}
      noPadding
    >
      <Loaded state={accounts}>
        {list =>
          // Nothing to upgrade: a sentence, not the headers of an empty table.
          list.length === 0 ? (
            <CardBody>
              <Typography>
                Every connected cloud account runs the latest role version.
              </Typography>
            </CardBody>
          ) : (
            <PluginTable<CloudAccount>
              options={CARD_TABLE_OPTIONS}
              data={list}
              columns={[
                {
                  title: 'Account',
                  render: account => (
                    <Box>
                      <Typography variant="body2">{account.name}</Typography>
                      <Typography variant="caption" color="textSecondary">
                        {account.cloudId}
                      </Typography>
                    </Box>
                  ),
                },
                {
                  title: 'Role version',
                  render: account => (
                    <span title={account.latestRoleVersionDescription}>
                      {account.roleVersion ?? 'unknown'} →{' '}
                      {account.latestRoleVersion}
                    </span>
                  ),
                },
                {
                  title: 'Actions',
                  sorting: false,
                  render: account => (
                    <Link
                      to={cloudAccountsPath}
                      aria-label={`Upgrade ${account.name}`}
                    >
                      Upgrade
                    </Link>
                  ),
                },
              ]}
            />
          )
        }
      </Loaded>
    </InfoCard>
  );
};
