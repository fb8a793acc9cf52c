import { OperationDefinition } from './defineOperation';
import * as defaultValueOperations from './defaultValueOperations';
import * as gitForgeOperations from './gitForgeOperations';
import * as iacOperations from './iacOperations';
import * as identityOperations from './identityOperations';
import * as pipelineOperations from './pipelineOperations';
import * as projectOperations from './projectOperations';
import * as runnerOperations from './runnerOperations';
import * as serviceOperations from './serviceOperations';
import * as stackOperations from './stackOperations';
import * as cloudOperations from './cloudOperations';
import * as codeSourceOperations from './codeSourceOperations';
import * as moduleOperations from './moduleOperations';
import * as deploymentOperations from './deploymentOperations';
import * as driftOperations from './driftOperations';
import * as gitTriggerOperations from './gitTriggerOperations';

/**
 * Every operation of the REST surface, keyed by operationId. Adding an operation here is what
 * makes the router serve it, the OpenAPI document list it and the authorization tests cover it.
 */
export const operations = {
  ...serviceOperations,
  ...identityOperations,
  ...projectOperations,
  ...defaultValueOperations,
  ...pipelineOperations,
  ...iacOperations,
  ...stackOperations,
  ...runnerOperations,
  ...cloudOperations,
  ...codeSourceOperations,
  ...moduleOperations,
  ...gitForgeOperations,
  ...deploymentOperations,
  ...driftOperations,
  ...gitTriggerOperations,
} satisfies Record<string, OperationDefinition>;

export type Operations = typeof operations;
export type OperationId = keyof Operations;
