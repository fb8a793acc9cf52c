import { Content } from '@backstage/core-components';
import Grid from '@material-ui/core/Grid';
import { useState } from 'react';
import { ApiKeysCard } from './ApiKeysCard';
import { RunnersCard } from '../Runners/RunnersCard';
import { MembersCard } from './MembersCard';
import { SelfHostedServersCard } from './SelfHostedServersCard';
import { ServiceAccountsCard } from './ServiceAccountsCard';

/**
 * Members and invitations, service accounts, API keys, runners and self-hosted git servers of
 * the portal organization.
 */
export const OrganizationSettingsPage = () => {
  // Creating or deleting a service account changes who can own keys.
  const [accountsVersion, setAccountsVersion] = useState(0);
  return (
    <Content>
      <Grid container spacing={3}>
        <Grid item xs={12}>
          <MembersCard />
        </Grid>
        <Grid item xs={12} xl={6}>
          <ServiceAccountsCard
            onChanged={() => setAccountsVersion(v => v + 1)}
          />
        </Grid>
        <Grid item xs={12} xl={6}>
          <ApiKeysCard version={accountsVersion} />
        </Grid>
        <Grid item xs={12} id="runners">
          <RunnersCard />
        </Grid>
        <Grid item xs={12} id="self-hosted-servers">
          <SelfHostedServersCard />
        </Grid>
      </Grid>
    </Content>
  );
};
