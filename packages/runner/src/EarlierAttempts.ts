import { RunnerClaim } from '@infra-delivery/plugin-infra-delivery-common';
import { StepOutcome } from './executeStep';

/** How many steps the runner remembers; the oldest go first. */
const MAX_REMEMBERED = 100;

interface EarlierAttempt {
  attemptEpoch: number;
  /** What it came to, when its command ran to its end; absent when it was interrupted. */
  outcome?: StepOutcome;
  endedAt: string;
  /** What the service said when it did not take the attempt. */
  reason: string;
}

/**
 * Attempts of apply and destroy steps that this runner executed and the service did not take:
 * the runner was cut off from it for longer than the lease and the step went to a new attempt
 * meanwhile. Their changes are applied all the same. When this runner claims the step's new
 * attempt, the attempt's log says what the earlier one did, and an apply that ran to its end is
 * reported as the new attempt's outcome rather than applied a second time (its plan would no
 * longer be the approved one, and the step would fail with a misleading PLAN_CHANGED).
 */
export class EarlierAttempts {
  private readonly byStep = new Map<string, EarlierAttempt>();

  constructor(
    private readonly runnerId: string,
    private readonly binary: string,
  ) {}

  /** An attempt that the service did not take; only apply and destroy steps are kept. */
  remember(
    claim: RunnerClaim,
    reason: string,
    outcome: StepOutcome | undefined,
  ) {
    const step = claim.stepExecution;
    if (step.type === 'iac.plan') return;
    this.byStep.delete(step.id);
    this.byStep.set(step.id, {
      attemptEpoch: step.attemptEpoch,
      outcome: outcome?.status === 'SUCCEEDED' ? outcome : undefined,
      endedAt: new Date().toISOString(),
      reason,
    });
    if (this.byStep.size > MAX_REMEMBERED) {
      this.byStep.delete(this.byStep.keys().next().value!);
    }
  }

  /**
   * What an earlier attempt of the claimed step did here, for the new attempt's log, and the
   * outcome to report for it when that attempt applied to its end. Forgotten once asked.
   */
  takeFor(
    claim: RunnerClaim,
  ): { note: string; outcome?: StepOutcome } | undefined {
    const step = claim.stepExecution;
    const earlier = this.byStep.get(step.id);
    if (!earlier || earlier.attemptEpoch >= step.attemptEpoch) return undefined;
    this.byStep.delete(step.id);
    const here = `Attempt ${earlier.attemptEpoch} of this step ran on this runner (${this.runnerId})`;
    if (earlier.outcome) {
      return {
        note: `${here}, and ${this.binary} apply ended successfully at ${earlier.endedAt}, but the service did not take its report (${earlier.reason}): it had handed the step to a new attempt while it could not hear from this runner. Reporting that outcome for attempt ${step.attemptEpoch} instead of applying again.`,
        outcome: earlier.outcome,
      };
    }
    return {
      note: `${here} until ${earlier.endedAt}, when the service said it had handed the step to a new attempt (${earlier.reason}), and ${this.binary} was interrupted: what it applied until then is in the stack's state. Planning again.`,
    };
  }
}
