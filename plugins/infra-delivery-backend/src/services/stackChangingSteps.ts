import {
  PipelineStep,
  StepType,
} from '@infra-delivery/plugin-infra-delivery-common';
import { InfraDeliveryError } from '../errors';

/**
 * Steps that change infrastructure. Only a stack's own change and destroy pipelines carry them:
 * there the stack decides whether a person approves the plan first, and the stack keeps the
 * state of what was applied. In a pipeline of one's own they would apply without the stack's
 * approval (attached to a stack) or create resources no stack keeps (attached to none).
 */
const STACK_CHANGING_STEPS: readonly StepType[] = ['iac.apply', 'iac.destroy'];

/** Refuses the steps of a pipeline that is not a stack's own when one of them changes infrastructure. */
export function refuseStackChangingSteps(steps: PipelineStep[]): void {
  const step = steps.find(s => STACK_CHANGING_STEPS.includes(s.type));
  if (!step) return;
  throw new InfraDeliveryError({
    status: 422,
    entity: 'Pipeline',
    reason: 'CHANGES_OUTSIDE_STACK',
    message: `Step "${step.name}" (${step.type}) changes infrastructure, which only a stack's own pipelines do: create a stack (POST /stacks) and trigger its changePipelineId or destroyPipelineId. A pipeline of your own may plan (iac.plan), wait for an approval and deploy containers`,
    metadata: { stepName: step.name, stepType: step.type },
  });
}
