import { Content } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import Grid from '@material-ui/core/Grid';
import { useState } from 'react';
import { infraDeliveryApiRef } from '../../api';
import { ActionMessageScope } from '../common/ActionMessage';
import { ApiKeysCard } from './ApiKeysCard';
import { CodeSourcesCard } from './CodeSourcesCard';
import { RunnersCard } from '../Runners/RunnersCard';
import { MembersCard } from './MembersCard';
import { SelfHostedServersCard } from './SelfHostedServersCard';
import { ServiceAccountsCard } from './ServiceAccountsCard';
import { useList } from './useList';

/**
 * Members and invitations, service accounts, API keys, runners, code sources (connected
 * repositories) and self-hosted git servers of the portal organization.
 */
export const OrganizationSettingsPage = () => {
  // Creating or deleting a service account changes who can own keys; connecting a runner
  // creates an account and its key.
  const [accountsVersion, setAccountsVersion] = useState(0);
  const accountsChanged = () => setAccountsVersion(v => v + 1);
  // Read once for the members card and for the API keys' owners.
  const client = useApi(infraDeliveryApiRef);
  const members = useList(
    async () =>
      (await client.call('listMemberships', { query: { limit: 500 } })).data,
    [client],
  );
  // One action's outcome at a time on the page, whichever card it stands in.
  return (
    <Content>
      <ActionMessageScope>
        <Grid container spacing={3}>
          <Grid item xs={12}>
            <MembersCard members={members} />
          </Grid>
          <Grid item xs={12} xl={6}>
            <ServiceAccountsCard
              version={accountsVersion}
              onChanged={accountsChanged}
            />
          </Grid>
          <Grid item xs={12} xl={6}>
            <ApiKeysCard version={accountsVersion} members={members.items} />
          </Grid>
          <Grid item xs={12} id="runners">
            <RunnersCard onRunnerConnected={accountsChanged} />
          </Grid>
          <Grid item xs={12} id="code-sources">
            <CodeSourcesCard />
          </Grid>
          <Grid item xs={12} id="self-hosted-servers">
            <SelfHostedServersCard />
          </Grid>
        </Grid>
      </ActionMessageScope>
    </Content>
  );
};
