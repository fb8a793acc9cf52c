/** An ECS task definition's ARN, with its `family:revision` captured. */
const TASK_DEFINITION_ARN =
  /\barn:aws[\w-]*:ecs:[\w-]+:\d{12}:task-definition\/([\w-]+:\d+)/g;

/**
 * A message of the cloud as a person reads it: a task definition's ARN by its `family:revision`
 * (`payments-api:45`), the name the Deployments tab shows it by, where the whole ARN ran over
 * two lines of a drawer.
 */
export function shortArns(message: string): string {
  return message.replace(TASK_DEFINITION_ARN, '$1');
}

/**
 * A task definition as the Deployments tab names it: `family:revision` (`payments-api:45`),
 * where a revision number alone hid that two releases were of different families.
 */
export function taskDefinitionName(snapshot: {
  ref: string;
  revision: number;
}): string {
  const short = shortArns(snapshot.ref);
  return short === snapshot.ref ? `revision ${snapshot.revision}` : short;
}
