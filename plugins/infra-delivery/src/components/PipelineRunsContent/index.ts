export { PipelineRunsContent } from './PipelineRunsContent';
export { PipelineRunsRoutes } from './PipelineRunsRoutes';
