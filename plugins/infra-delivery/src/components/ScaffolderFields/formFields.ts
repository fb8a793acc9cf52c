import { createFormField } from '@backstage/plugin-scaffolder-react/alpha';
import {
  EnvironmentPicker,
  validateEnvironmentChoice,
} from './EnvironmentPicker';
import { CloudAccountPicker, CodeSourcePicker } from './resourcePickers';
import { RunnerLabelsInput, validateRunnerLabels } from './RunnerLabelsInput';

/**
 * The template form fields, by the `ui:field` names templates use (see
 * the scaffolder module's templates/infra-delivery-stack/template.yaml).
 */
export const environmentPickerField = createFormField({
  name: 'InfraDeliveryEnvironmentPicker',
  component: EnvironmentPicker,
  validation: validateEnvironmentChoice,
});

export const cloudAccountPickerField = createFormField({
  name: 'InfraDeliveryCloudAccountPicker',
  component: CloudAccountPicker,
});

export const codeSourcePickerField = createFormField({
  name: 'InfraDeliveryCodeSourcePicker',
  component: CodeSourcePicker,
});

export const runnerLabelsField = createFormField({
  name: 'InfraDeliveryRunnerLabels',
  component: RunnerLabelsInput,
  validation: validateRunnerLabels,
});
