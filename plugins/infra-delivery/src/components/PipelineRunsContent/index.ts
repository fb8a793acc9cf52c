export { PipelineRunsContent } from './PipelineRunsContent';
