import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { LeasedStepNote } from './StepRunner';
import { BlockingRun, WhyItWaits } from './WhyItWaits';

/**
 * The line under a run's state in a list: the step a runner executes and which runner (or that
 * it has gone silent) while the run is running, and why it waits otherwise. Text only: it
 * takes the style of where it is shown.
 */
export const RunStateNote = ({
  run,
  runPath,
  blocker,
}: {
  run: PipelineRun;
  /** The page of a run, where the app has one. */
  runPath: (runId: string) => string | undefined;
  /** The run that holds the stack of a queued one, where the view has it. */
  blocker?: BlockingRun;
}) =>
  run.status === 'RUNNING' && run.leasedStep ? (
    <LeasedStepNote step={run.leasedStep} />
  ) : (
    <WhyItWaits run={run} runPath={runPath} blocker={blocker} />
  );
