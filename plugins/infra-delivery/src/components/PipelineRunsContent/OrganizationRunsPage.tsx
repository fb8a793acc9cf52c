import { Content } from '@backstage/core-components';
import { PipelineRunsRoutes } from './PipelineRunsRoutes';

/**
 * The Infrastructure page's Runs tab: every run of the organization, and a page per run, inside
 * the page's content margins like its other tabs (an entity's tab has the entity page's own).
 */
export const OrganizationRunsPage = () => (
  <Content>
    <PipelineRunsRoutes stackIds={[]} />
  </Content>
);
