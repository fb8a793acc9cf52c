import { taskDefinitionInputSchema } from '@infra-delivery/plugin-infra-delivery-common';
import { problemOf } from './deployFields';

/**
 * What the Task definition field of a first deployment starts with: the least ECS registers,
 * named after the service, the image left for the person to give.
 */
export function taskDefinitionTemplate(serviceName: string): string {
  return JSON.stringify(
    {
      family: serviceName,
      containerDefinitions: [{ name: serviceName, image: '', essential: true }],
    },
    null,
    2,
  );
}

/**
 * The task definition typed as JSON (RegisterTaskDefinition's input), or why the service would
 * refuse it: not JSON, not an object, or against its own rules (`taskDefinitionInputSchema`).
 */
export function typedTaskDefinition(
  text: string,
): { definition: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `Not JSON: ${(error as Error).message}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return {
      problem:
        'A JSON object with the task definition’s family and containerDefinitions',
    };
  }
  const problem = problemOf(taskDefinitionInputSchema, value);
  return problem
    ? { problem }
    : { definition: value as Record<string, unknown> };
}

/** The containers of a task definition the service accepted, as "name: image". */
export function containerImages(definition: Record<string, unknown>): string[] {
  return (definition.containerDefinitions as Record<string, unknown>[]).map(
    container => `${String(container.name)}: ${String(container.image)}`,
  );
}
