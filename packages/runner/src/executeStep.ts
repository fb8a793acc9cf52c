import fs from 'node:fs/promises';
import path from 'node:path';
import {
  ErrorBody,
  RunnerClaim,
} from '@infra-delivery/plugin-infra-delivery-common';
import { IacTool } from './IacTool';

export const PLAN_FILE = 'infra-delivery.tfplan';
const VARIABLES_FILE = 'infra-delivery.auto.tfvars.json';

export interface StepOutcome {
  status: 'SUCCEEDED' | 'FAILED';
  planJson?: Record<string, unknown>;
  planFilename?: string;
  outputs?: Record<string, unknown>;
  error?: ErrorBody;
}

class CommandFailed extends Error {
  constructor(readonly command: string, readonly exitCode: number) {
    super(`${command} exited with ${exitCode}`);
  }
}

/**
 * Prepares the stack's working directory: the module's files copied over (the directory keeps
 * the local state and provider cache between steps) and the run's input as variables.
 */
async function prepareWorkDir(
  claim: RunnerClaim,
  options: { workRoot: string; sourceRoot: string },
): Promise<string> {
  const key = claim.stack?.id ?? claim.pipelineRun.id;
  const workDir = path.join(options.workRoot, key);
  await fs.mkdir(workDir, { recursive: true });
  const moduleDir = path.resolve(options.sourceRoot, claim.stack?.path ?? '.');
  await fs.cp(moduleDir, workDir, {
    recursive: true,
    force: true,
    filter: source => !source.split(path.sep).includes('.terraform'),
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

/** Runs one IaC step the way an operator would at a terminal, and reports what came of it. */
export async function executeStep(
  claim: RunnerClaim,
  tool: IacTool,
  options: { workRoot: string; sourceRoot: string; binaryName: string },
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
      );
    }
    return result.stdout;
  };

  try {
    workDir = await prepareWorkDir(claim, options);
    await run(['init', '-input=false', '-no-color']);
    await run([
      'plan',
      '-input=false',
      '-no-color',
      `-out=${PLAN_FILE}`,
      ...(destroy ? ['-destroy'] : []),
    ]);
    if (step.type !== 'iac.plan') {
      await run(['apply', '-input=false', '-no-color', PLAN_FILE]);
    }
    const planJson = JSON.parse(
      await run(['show', '-json', PLAN_FILE], true),
    ) as Record<string, unknown>;
    const outputs =
      step.type === 'iac.apply'
        ? outputsOf(await run(['output', '-json'], true))
        : undefined;
    return { status: 'SUCCEEDED', planJson, planFilename: PLAN_FILE, outputs };
  } catch (error) {
    const message =
      error instanceof Error ? error.message : 'The step could not be run';
    return {
      status: 'FAILED',
      error: {
        code:
          error instanceof CommandFailed
            ? 'InfraDelivery:Runner:COMMAND_FAILED'
            : 'InfraDelivery:Runner:STEP_ERROR',
        message,
        ...(error instanceof CommandFailed
          ? { metadata: { command: error.command, exitCode: error.exitCode } }
          : {}),
      },
    };
  }
}
