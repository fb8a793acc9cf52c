export { PipelineRunsContent } from './PipelineRunsContent';
export { PipelineRunsRoutes } from './PipelineRunsRoutes';
export { OrganizationRunsPage } from './OrganizationRunsPage';
