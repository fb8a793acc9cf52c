import { SignalsService } from '@backstage/plugin-signals-node';
import {
  RUN_SIGNAL_CHANNEL,
  STEP_LOG_SIGNAL_CHANNEL,
  StepLogSignal,
} from '@infra-delivery/plugin-infra-delivery-common';
import { RunEvents, RunStatusChange, StepLogsAppended } from './RunEvents';

/**
 * Announces run changes to portal users through Backstage signals. Only the portal
 * organization's runs are announced: signals reach every signed-in portal user, and runs of
 * signed-up organizations are none of theirs.
 */
export class SignalsRunEvents implements RunEvents {
  constructor(
    private readonly signals: SignalsService,
    private readonly portalOrganizationId: string,
  ) {}

  async runChanged(change: RunStatusChange): Promise<void> {
    if (change.organizationId !== this.portalOrganizationId) {
      return;
    }
    await this.signals.publish({
      recipients: { type: 'broadcast' },
      channel: RUN_SIGNAL_CHANNEL,
      message: {
        runId: change.runId,
        pipelineId: change.pipelineId,
        status: change.status,
        ...(change.attachedEntityId
          ? { attachedEntityId: change.attachedEntityId }
          : {}),
      },
    });
  }

  async stepLogsAppended(appended: StepLogsAppended): Promise<void> {
    if (appended.organizationId !== this.portalOrganizationId) {
      return;
    }
    const message: StepLogSignal = {
      stepExecutionId: appended.stepExecutionId,
      pipelineRunId: appended.pipelineRunId,
    };
    await this.signals.publish({
      recipients: { type: 'broadcast' },
      channel: STEP_LOG_SIGNAL_CHANNEL,
      message,
    });
  }
}
