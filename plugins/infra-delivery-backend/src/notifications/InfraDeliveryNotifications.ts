import { LoggerService } from '@backstage/backend-plugin-api';
import { NotificationSendOptions } from '@backstage/plugin-notifications-node';
import {
  APPROVAL_NOTIFICATION_TOPIC,
  APPROVAL_REJECTED_ERROR_CODE,
  approvalNotificationScope,
  Deployment,
} from '@infra-delivery/plugin-infra-delivery-common';
import { DeploymentChangeListener, ecsName } from '../database/DeploymentStore';
import { RecipientLookup } from '../database/NotificationOutboxStore';
import { RunRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { RunEvents, RunStatusChange } from '../engine/RunEvents';
import { NotificationOutbox } from './NotificationOutbox';
import { NotificationKind, NotificationSettings } from './notificationSettings';

type NotificationPayload = NotificationSendOptions['payload'];

/** The catalog entity of a stack, as the catalog module emits it. */
export const stackEntityRef = (stackId: string) =>
  `resource:default/stack-${stackId}`;

/** A run's page: under its stack's Pipeline runs tab in the catalog. */
const runLink = (stackId: string, runId: string) =>
  `/catalog/default/resource/stack-${encodeURIComponent(
    stackId,
  )}/infra-runs/${encodeURIComponent(runId)}`;

const TOPICS: Record<NotificationKind, string> = {
  approvalWaiting: APPROVAL_NOTIFICATION_TOPIC,
  runFailed: 'Infrastructure: failed runs',
  deploymentFailed: 'Infrastructure: deployments',
  driftFound: 'Infrastructure: drift',
};

/**
 * Tells people, through Backstage notifications, what needs one of them: a run waiting for an
 * approval, a run that failed, a deployment that failed or was rolled back, drift found on a
 * stack. Recipients are the owners of the catalog entity concerned (the notifications backend
 * resolves an entity to its owner's members) and, for a run, the portal user who started it;
 * only the portal organization's work is notified: other organizations' stacks are in no
 * catalog. Notifications go out through the {@link NotificationOutbox}, after the change and
 * without holding it up. Each notification has a scope, so
 * a repeat (the same run announced twice, drift found again on a stack) updates the one a
 * person already has instead of adding another.
 */
export class InfraDeliveryNotifications implements RunEvents {
  constructor(
    private readonly deps: {
      outbox: NotificationOutbox;
      stores: Stores;
      portalOrganizationId: string;
      settings: NotificationSettings;
      logger: LoggerService;
    },
  ) {}

  async runChanged(change: RunStatusChange): Promise<void> {
    if (
      change.organizationId !== this.deps.portalOrganizationId ||
      !change.attachedEntityId
    ) {
      return;
    }
    const approved = change.approval?.approved === true;
    if (
      change.status !== 'WAITING_FOR_APPROVAL' &&
      change.status !== 'FAILED' &&
      change.status !== 'SUCCEEDED' &&
      !approved
    ) {
      return;
    }
    const run = await this.deps.stores.pipelineRuns.getRunForEngine(
      change.runId,
    );
    if (!run || run.attachedEntityType !== 'STACK' || !run.attachedEntityId) {
      return;
    }
    const stack = await this.deps.stores.stacks.get(
      run.organizationId,
      run.attachedEntityId,
    );
    const stackName = stack?.name ?? run.attachedEntityId;
    const what = run.description ? `“${run.description}”` : 'A run';
    // The stack's owners, and whoever started the run: a stack created a moment ago is in no
    // catalog yet, and its first plan would otherwise tell nobody that it failed. Read only
    // for the two notifications that go to them.
    const stackRef = stackEntityRef(run.attachedEntityId);
    const recipients = async () => [stackRef, ...(await this.starterOf(run))];
    // A decision replaces "a plan waits for your approval" (same scope): that stood unread
    // after it. The person who decided knows; theirs is left as it was.
    const decider = change.approval?.decidedById
      ? await this.memberOf(run.organizationId, change.approval.decidedById)
      : undefined;
    const approval = {
      link: runLink(run.attachedEntityId, run.id),
      scope: approvalNotificationScope(run.id),
    };
    const leaveOut = { excludedRecipients: decider?.ref ? [decider.ref] : [] };
    if (change.status === 'WAITING_FOR_APPROVAL') {
      // A destroy says so: "planned changes" read like any other change.
      const destroys = stack?.destroyPipelineId === run.pipelineId;
      await this.send('approvalWaiting', await recipients(), {
        title: destroys
          ? `${stackName}: a plan to destroy it waits for your approval`
          : `${stackName}: a plan waits for your approval`,
        description: destroys
          ? `${
              run.description ? what : 'A destroy run'
            } plans to destroy every resource of ${stackName}; approve or reject it.`
          : `${what} planned changes to ${stackName}; approve or reject them.`,
        severity: 'high',
        ...approval,
      });
    } else if (approved) {
      await this.send(
        'approvalWaiting',
        await recipients(),
        {
          ...approval,
          title: `${stackName}: the plan was approved`,
          description: `${what} was approved${
            decider ? ` by ${decider.name}` : ''
          }; the run goes on.`,
          severity: 'low',
        },
        leaveOut,
      );
    } else if (
      change.status === 'FAILED' &&
      run.error?.code === APPROVAL_REJECTED_ERROR_CODE
    ) {
      // Not also "a run failed" for what a person chose.
      await this.send(
        'approvalWaiting',
        await recipients(),
        {
          ...approval,
          title: `${stackName}: the plan was rejected`,
          description: `${run.description ? `“${run.description}”: ` : ''}${
            run.error.message
          }${decider ? ` (${decider.name})` : ''}. Nothing was applied.`,
          severity: 'normal',
        },
        leaveOut,
      );
    } else if (change.status === 'FAILED') {
      await this.send('runFailed', await recipients(), {
        title: `${stackName}: ${
          run.kind === 'DRIFT_CHECK' ? 'a drift check' : 'a run'
        } failed`,
        description: `${what} failed${
          run.error?.message ? `: ${run.error.message}` : ''
        }`,
        link: runLink(run.attachedEntityId, run.id),
        severity: 'high',
        scope: `infra-delivery:run:${run.id}:failed`,
      });
    } else if (
      run.kind === 'DRIFT_CHECK' &&
      stack?.driftStatus === 'DRIFTED' &&
      stack.lastDriftCheckRunId === run.id
    ) {
      await this.driftFound(run, stackName, stack.driftedResourceCount);
    }
  }

  /** The portal user who started the run, as a catalog entity ref; none for anyone else. */
  private async starterOf(run: RunRecord): Promise<string[]> {
    const starter = run.createdById
      ? await this.memberOf(run.organizationId, run.createdById)
      : undefined;
    return starter?.ref ? [starter.ref] : [];
  }

  /**
   * Who acted, by the id a run keeps (`createdById`, `decidedById`): a member's email and
   * catalog ref (a portal user's), or a service account's name.
   */
  private async memberOf(
    organizationId: string,
    actorId: string,
  ): Promise<{ name: string; ref?: string } | undefined> {
    const { memberships, users, serviceAccounts } = this.deps.stores;
    const member = await memberships.get(organizationId, actorId);
    if (!member) {
      const account = await serviceAccounts.get(organizationId, actorId);
      return account ? { name: account.name } : undefined;
    }
    const user = member.userId ? await users.get(member.userId) : undefined;
    return user && { name: user.email, ref: user.backstageUserRef };
  }

  private async driftFound(
    run: RunRecord,
    stackName: string,
    count: number | undefined,
  ) {
    const stackId = run.attachedEntityId!;
    await this.send('driftFound', [stackEntityRef(stackId)], {
      title: `${stackName} drifted from its code`,
      description: `A drift check found ${
        count === undefined
          ? 'resources'
          : `${count} resource${count === 1 ? '' : 's'}`
      } changed outside the pipeline. Reconcile the stack from its Stacks tab.`,
      link: runLink(stackId, run.id),
      severity: 'normal',
      // One drift notification per stack: a later check that finds drift again updates it.
      scope: `infra-delivery:stack:${stackId}:drift`,
    });
  }

  /**
   * A deployment that failed or was rolled back: the owners of the catalog entities showing
   * its ECS service (looked up when the notification is sent: the deployment's write does not
   * wait for the catalog), and of the stack whose run started it.
   */
  async deploymentChanged(deployment: Deployment): Promise<void> {
    if (
      deployment.organizationId !== this.deps.portalOrganizationId ||
      (deployment.status !== 'FAILED' && deployment.status !== 'ROLLED_BACK')
    ) {
      return;
    }
    try {
      await this.notifyDeployment(deployment);
    } catch (error) {
      // Heard after the write committed: a notification that cannot be kept must not fail it.
      this.deps.logger.warn(
        `Could not notify deployment ${deployment.id} ${deployment.status}: ${error}`,
      );
    }
  }

  private async notifyDeployment(deployment: Deployment): Promise<void> {
    const service = `${ecsName(deployment.data.clusterRef)}/${ecsName(
      deployment.data.serviceRef,
    )}`;
    const run = deployment.pipelineRunId
      ? await this.deps.stores.pipelineRuns.getRunForEngine(
          deployment.pipelineRunId,
        )
      : undefined;
    const fromStack =
      run?.attachedEntityType === 'STACK' && run.attachedEntityId;
    const rolledBack = deployment.status === 'ROLLED_BACK';
    await this.send(
      'deploymentFailed',
      fromStack ? [stackEntityRef(fromStack)] : [],
      {
        title: `${service}: the deployment ${
          rolledBack ? 'was rolled back' : 'failed'
        }`,
        description: `${deployment.description}${
          deployment.error?.message ? `: ${deployment.error.message}` : ''
        }`,
        // The run's page, unless the lookup finds an entity showing the service: its Deployments tab.
        link: fromStack ? runLink(fromStack, run.id) : undefined,
        severity: rolledBack ? 'normal' : 'high',
        scope: `infra-delivery:deployment:${deployment.id}:${deployment.status}`,
      },
      { recipientLookup: { ecsService: service } },
    );
  }

  private async send(
    kind: NotificationKind,
    entityRefs: string[],
    payload: NotificationPayload,
    options: {
      recipientLookup?: RecipientLookup;
      excludedRecipients?: string[];
    } = {},
  ): Promise<void> {
    if (
      !this.deps.settings.kinds[kind] ||
      (entityRefs.length === 0 && !options.recipientLookup)
    ) {
      return;
    }
    await this.deps.outbox.enqueue(
      kind,
      entityRefs,
      { ...payload, topic: TOPICS[kind] },
      options,
    );
  }
}

/** Run events for live views and for notifications: each hears every change. */
export function allRunEvents(...events: RunEvents[]): RunEvents {
  return {
    runChanged: async change => {
      for (const each of events) {
        await each.runChanged(change);
      }
    },
    stepLogsAppended: async appended => {
      for (const each of events) {
        await each.stepLogsAppended?.(appended);
      }
    },
  };
}

/** Deployment listeners for live views and for notifications: each hears every change. */
export function allDeploymentChanges(
  ...listeners: DeploymentChangeListener[]
): DeploymentChangeListener {
  return {
    deploymentChanged: async deployment => {
      for (const each of listeners) {
        await each.deploymentChanged(deployment);
      }
    },
  };
}
