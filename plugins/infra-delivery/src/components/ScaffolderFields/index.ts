export {
  EnvironmentPicker,
  validateEnvironmentChoice,
} from './EnvironmentPicker';
export type { EnvironmentChoice } from './EnvironmentPicker';
export { CloudAccountPicker, CodeSourcePicker } from './resourcePickers';
export { RunnerLabelsInput, validateRunnerLabels } from './RunnerLabelsInput';
export type { ServiceChoice } from './ServicePicker';
