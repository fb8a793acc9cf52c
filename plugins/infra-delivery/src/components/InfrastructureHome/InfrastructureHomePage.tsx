import { Content } from '@backstage/core-components';
import Grid from '@material-ui/core/Grid';
import { CloudAccountUpgradesCard } from './CloudAccountUpgradesCard';
import { DriftedStacksCard } from '../Drift/DriftedStacksCard';
import { FailedLatelyCard } from './FailedLatelyCard';
import { FailedDeploymentsCard } from './FailedDeploymentsCard';
import { OverviewStackDrawer } from './OverviewStackDrawer';
import { StacksCard } from './StacksCard';
import { useStackDirectory } from './useStackDirectory';
import { WaitingForApprovalCard } from './WaitingForApprovalCard';

/**
 * The Infrastructure page's first tab: what needs someone now (runs waiting for approval,
 * runs that failed lately), where every stack stands after its last run, the cloud
 * accounts to upgrade, the stacks that drifted from their code, and the deployments that
 * failed lately. A link opens one stack's details over it (`?stack=<id>`).
 */
export const InfrastructureHomePage = () => {
  // Loaded once for the three cards that name runs and stacks.
  const directory = useStackDirectory();
  return (
    <Content>
      <Grid container spacing={3}>
        <Grid item xs={12} lg={6}>
          <WaitingForApprovalCard directory={directory} />
        </Grid>
        <Grid item xs={12} lg={6}>
          <FailedLatelyCard directory={directory} />
        </Grid>
        <Grid item xs={12} xl={8}>
          <StacksCard directory={directory} />
        </Grid>
        <Grid item xs={12} xl={4}>
          <CloudAccountUpgradesCard />
        </Grid>
        <Grid item xs={12} lg={6}>
          <DriftedStacksCard />
        </Grid>
        <Grid item xs={12} lg={6}>
          <FailedDeploymentsCard />
        </Grid>
      </Grid>
      <OverviewStackDrawer />
    </Content>
  );
};
