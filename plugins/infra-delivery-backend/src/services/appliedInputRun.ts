import { Stack } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * The input and data of a run the service starts on a stack by itself (a drift check, a
 * reconcile, a git push): the input the stack was last applied with, so that it plans the code
 * as applied and not the module's defaults.
 */
export function appliedInputRun(stack: Pick<Stack, 'appliedInput'>) {
  return {
    input: stack.appliedInput,
    data: { kind: 'stack', module_input: stack.appliedInput ?? {} },
  };
}
