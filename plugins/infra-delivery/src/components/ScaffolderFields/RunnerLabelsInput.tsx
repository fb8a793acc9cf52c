import { runnerLabelsProblem } from '@infra-delivery/plugin-infra-delivery-common';
import {
  CustomFieldValidator,
  FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import { RunnerLabelsField } from '../common/RunnerLabelsField';

/** What the field says under itself until something is typed, when its property says nothing. */
const RUNNER_LABELS_HINT =
  'Only a runner started with all of these (--labels env=prod) plans and applies the stack; empty: any runner';

/**
 * `ui:field: InfraDeliveryRunnerLabels`: the runner labels a new stack requires, typed as in
 * the stack's settings dialog (`env=prod, region=eu`) and checked by the same rule as typed.
 * The value is the text; `infra-delivery:stack:create` reads its labels from it.
 */
export const RunnerLabelsInput = ({
  formData,
  onChange,
  schema,
  idSchema,
  rawErrors,
}: FieldExtensionComponentProps<string>) => (
  <RunnerLabelsField
    id={idSchema?.$id ?? 'runner-labels'}
    value={formData ?? ''}
    hint={schema.description ?? RUNNER_LABELS_HINT}
    // After Next, the scaffolder lists what validateRunnerLabels found under the field: said
    // once, not twice.
    problemSaidBelow={(rawErrors?.length ?? 0) > 0}
    // Left empty, the property is left out: the review lists nothing and the action gets none.
    onChange={text => onChange(text.trim() ? text : undefined)}
  />
);

/** Labels a runner could not carry keep the form from its next step. */
export const validateRunnerLabels: CustomFieldValidator<string> = (
  text,
  validation,
) => {
  const problem = runnerLabelsProblem(text ?? '');
  if (problem) validation.addError(problem);
};
