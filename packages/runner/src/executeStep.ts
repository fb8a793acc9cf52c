import fs from 'node:fs/promises';
import path from 'node:path';
import {
  ErrorBody,
  PLAN_CHANGED_ERROR_CODE,
  RunnerClaim,
} from '@infra-delivery/plugin-infra-delivery-common';
import { PlanChanged } from './approvedPlan';
import { backendSecretsOf } from './backendSecrets';
import { backendUnreachableError, saysUnreachable } from './backendUnreachable';
import { CheckoutFailed, CommitCheckouts } from './CommitCheckouts';
import { IacTool } from './IacTool';
import { STATE_LOCK_HEADLINE, StateLock } from './stateLock';
import { stateLockedError } from './stateLockedError';

export const PLAN_FILE = 'infra-delivery.tfplan';
const VARIABLES_FILE = 'infra-delivery.auto.tfvars.json';
/**
 * What the IaC tool made in a working directory and keeps between steps: the provider cache,
 * local state and its lock's description (written by the command that holds the lock, which may
 * be another one than the runner's: removed, the next command's "Error acquiring the state lock"
 * names no holder and no lock ID). Everything else is the module's, and is replaced by each
 * step's copy, so a file another commit had is not planned with this one.
 */
const TOOL_FILES = new Set([
  '.terraform',
  '.terraform.tfstate.lock.info',
  'terraform.tfstate',
  'terraform.tfstate.backup',
  'terraform.tfstate.d',
]);

export interface ExecuteOptions {
  workRoot: string;
  /** Where stack paths are resolved when the claim names no commit to check out. */
  sourceRoot: string;
  binaryName: string;
  /** Checkouts of claimed commits; absent when the operator turned them off. */
  checkouts?: CommitCheckouts;
  /** A line for the step's logs. */
  log: (line: string) => void;
  /**
   * Before an apply or destroy: throws unless the plan just made (`show -json`) is the one
   * that was approved (see `checkAgainstApprovedPlan`).
   */
  checkApprovedPlan?: (planJson: Record<string, unknown>) => Promise<void>;
}

export interface StepOutcome {
  status: 'SUCCEEDED' | 'FAILED';
  planJson?: Record<string, unknown>;
  planFilename?: string;
  outputs?: Record<string, unknown>;
  error?: ErrorBody;
}

/**
 * A command of the tool failed: "terraform plan exited with 1: No configuration files". The
 * tool's own headline goes into the message, which the portal shows on the run, the Overview's
 * failed runs and the pull request's check; the log keeps the whole explanation.
 */
class CommandFailed extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number,
    headline?: string,
    stopped?: string,
    /** The lock another command holds, when this one could not lock the state. */
    readonly stateLock?: StateLock,
    /** The backend's words, when the command could not reach it. */
    readonly backendUnreachable?: string,
  ) {
    super(
      stopped
        ? `${command} was stopped: ${stopped}`
        : `${command} exited with ${exitCode}${
            headline ? `: ${headline}` : ''
          }`,
    );
  }
}

/**
 * Where the stack's path is resolved: the claimed commit, checked out, or the source root for
 * a run that names no commit (and when checkouts are off).
 */
async function sourceOf(
  claim: RunnerClaim,
  options: ExecuteOptions,
): Promise<{ root: string; name: string }> {
  const { checkout } = claim;
  if (!checkout) {
    return { root: options.sourceRoot, name: options.sourceRoot };
  }
  const commit = `${
    claim.pipelineRun.gitSource?.repository ?? checkout.repoUrl
  }@${checkout.sha.slice(0, 7)}`;
  if (!options.checkouts) {
    options.log(
      `Checkouts are off (--no-checkout): planning ${options.sourceRoot}, not ${commit}`,
    );
    return { root: options.sourceRoot, name: options.sourceRoot };
  }
  let checkedOut;
  try {
    checkedOut = await options.checkouts.checkout(checkout);
  } catch (error) {
    throw new CheckoutFailed(
      `Checking out ${commit} failed: ${(error as Error).message}`,
    );
  }
  options.log(
    `Checked out ${commit}${checkedOut.reused ? ' (already on disk)' : ''}`,
  );
  return { root: checkedOut.dir, name: commit };
}

/**
 * Prepares the stack's working directory: the module's files copied over what the tool keeps
 * there between steps (local state, provider cache) and the run's input as variables.
 */
async function prepareWorkDir(
  claim: RunnerClaim,
  options: ExecuteOptions,
): Promise<string> {
  const key = claim.stack?.id ?? claim.pipelineRun.id;
  const workDir = path.join(options.workRoot, key);
  const tree = await sourceOf(claim, options);
  const stackPath = claim.stack?.path ?? '.';
  const moduleDir = path.resolve(tree.root, stackPath);
  const inside = path.relative(tree.root, moduleDir);
  if (inside.startsWith('..') || path.isAbsolute(inside)) {
    throw new Error(`The stack's path ${stackPath} leaves ${tree.name}`);
  }
  if (!(await fs.stat(moduleDir).catch(() => undefined))?.isDirectory()) {
    throw new Error(`${tree.name} has no directory ${stackPath}`);
  }
  await fs.mkdir(workDir, { recursive: true });
  for (const entry of await fs.readdir(workDir)) {
    if (!TOOL_FILES.has(entry)) {
      await fs.rm(path.join(workDir, entry), { recursive: true, force: true });
    }
  }
  await fs.cp(moduleDir, workDir, {
    recursive: true,
    force: true,
    filter: file => {
      const parts = path.relative(moduleDir, file).split(path.sep);
      return !parts.includes('.terraform') && !parts.includes('.git');
    },
  });
  if (claim.pipelineRun.input) {
    await fs.writeFile(
      path.join(workDir, VARIABLES_FILE),
      JSON.stringify(claim.pipelineRun.input, null, 2),
    );
  }
  return workDir;
}

/** `output -json` gives `{ name: { value, sensitive, type } }`; keep values, hide secrets. */
function outputsOf(json: string): Record<string, unknown> {
  const parsed = JSON.parse(json || '{}') as Record<
    string,
    { value: unknown; sensitive?: boolean }
  >;
  return Object.fromEntries(
    Object.entries(parsed).map(([name, output]) => [
      name,
      output.sensitive ? '(sensitive value)' : output.value,
    ]),
  );
}

function errorCodeOf(error: unknown): string {
  if (error instanceof CommandFailed) {
    return 'InfraDelivery:Runner:COMMAND_FAILED';
  }
  if (error instanceof CheckoutFailed) {
    return 'InfraDelivery:Runner:CHECKOUT_FAILED';
  }
  if (error instanceof PlanChanged) {
    return PLAN_CHANGED_ERROR_CODE;
  }
  return 'InfraDelivery:Runner:STEP_ERROR';
}

/**
 * The error of a command that failed on the stack's backend: another command holds the state's
 * lock, or the backend could not be reached (when it is locking the state, too: an http server
 * answering 503 to LOCK).
 */
function backendErrorOf(
  error: CommandFailed,
  binaryName: string,
): ErrorBody | undefined {
  const { command, exitCode, stateLock } = error;
  if (stateLock && saysUnreachable(stateLock.errorMessage)) {
    return backendUnreachableError(
      command,
      exitCode,
      `${STATE_LOCK_HEADLINE}: ${stateLock.errorMessage}`,
    );
  }
  if (stateLock) {
    return stateLockedError(command, exitCode, stateLock, binaryName);
  }
  return error.backendUnreachable
    ? backendUnreachableError(command, exitCode, error.backendUnreachable)
    : undefined;
}

/** Runs one IaC step the way an operator would at a terminal, and reports what came of it. */
export async function executeStep(
  claim: RunnerClaim,
  tool: IacTool,
  options: ExecuteOptions,
): Promise<StepOutcome> {
  const step = claim.stepExecution;
  const destroy = step.type === 'iac.destroy' || step.config?.destroy === true;
  let workDir = '';
  const run = async (args: string[], captureOnly = false) => {
    const result = await tool.run(args, workDir, { captureOnly });
    if (result.exitCode !== 0) {
      throw new CommandFailed(
        `${options.binaryName} ${args[0]}`,
        result.exitCode,
        result.firstError,
        result.stopped,
        result.stopped ? undefined : result.stateLock,
        result.stopped ? undefined : result.backendUnreachable,
      );
    }
    return result.stdout;
  };

  try {
    workDir = await prepareWorkDir(claim, options);
    // The backend's credentials, as an earlier init recorded them and as this one does: masked
    // wherever the tool would print them.
    tool.redactor.add(await backendSecretsOf(workDir));
    await run(['init', '-input=false', '-no-color']);
    tool.redactor.add(await backendSecretsOf(workDir));
    await run([
      'plan',
      '-input=false',
      '-no-color',
      `-out=${PLAN_FILE}`,
      ...(destroy ? ['-destroy'] : []),
    ]);
    const planJson = JSON.parse(
      await run(['show', '-json', PLAN_FILE], true),
    ) as Record<string, unknown>;
    if (step.type !== 'iac.plan') {
      await options.checkApprovedPlan?.(planJson);
      await run(['apply', '-input=false', '-no-color', PLAN_FILE]);
    }
    const outputs =
      step.type === 'iac.apply'
        ? outputsOf(await run(['output', '-json'], true))
        : undefined;
    return { status: 'SUCCEEDED', planJson, planFilename: PLAN_FILE, outputs };
  } catch (error) {
    const message = tool.redactor.redact(
      error instanceof Error ? error.message : 'The step could not be run',
    );
    if (error instanceof CheckoutFailed) {
      options.log(message);
    }
    if (error instanceof CommandFailed) {
      const backendError = backendErrorOf(error, options.binaryName);
      if (backendError) return { status: 'FAILED', error: backendError };
    }
    return {
      status: 'FAILED',
      error: {
        code: errorCodeOf(error),
        message,
        ...(error instanceof CommandFailed
          ? { metadata: { command: error.command, exitCode: error.exitCode } }
          : {}),
      },
    };
  }
}
