/*
 * Type-level test of InfraDeliveryClient.call, never run, only compiled: by the repository's
 * `yarn tsc` against the sources, and by scripts/check-packages against the packed package's
 * declarations (dist/index.d.ts), as an adopter's portal compiles it. A call without a type
 * argument once failed there with TS2590 ("Expression produces a union type that is too
 * complex to represent") while the sources compiled it: the declarations inline every
 * operation's schema types, so the unions OperationRequest spanned over all operations
 * were larger (see OperationRequest).
 */
import {
  InfraDeliveryClient,
  OperationResponse,
  Operations,
} from '@infra-delivery/plugin-infra-delivery-common';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B
  ? 1
  : 2
  ? true
  : false;

function expectType<T extends true>(): T | undefined {
  return undefined;
}

declare const client: InfraDeliveryClient;

/** The common README's call: the operation id only, request and answer typed as its own. */
export async function callWithoutTypeArgument() {
  const answer = await client.call('listStacks', { query: { limit: 50 } });
  expectType<
    Equal<typeof answer, OperationResponse<Operations['listStacks']>>
  >();
  const id: string = answer.data[0].id;
  const total: number = answer.meta.totalCount;

  const stack = await client.call('getStack', { params: { id } });
  const name: string = stack.data.name;
  // @ts-expect-error getStack's path parameters are required
  await client.call('getStack', {});
  // @ts-expect-error listStacks' query has no such parameter
  await client.call('listStacks', { query: { noSuchParameter: 1 } });

  const run = await client.call('triggerPipelineRun', {
    params: { id: 'pipeline-1' },
    body: { data: { description: 'from the type test' } },
    idempotencyKey: 'key-1',
  });
  const status: string = run.data.status;
  // @ts-expect-error listStacks takes no idempotency key
  await client.call('listStacks', { idempotencyKey: 'key-1' });

  const deleted = await client.call('deleteStack', { params: { id } });
  expectType<Equal<typeof deleted, void>>();
  return { total, name, status };
}

/** The type argument keeps working, as adopters' code written for the workaround has it. */
export async function callWithTypeArgument() {
  const answer = await client.call<'listStacks'>('listStacks', {
    query: { limit: 50 },
  });
  expectType<
    Equal<typeof answer, OperationResponse<Operations['listStacks']>>
  >();
  // @ts-expect-error the request is the named operation's
  await client.call<'getStack'>('getStack', { query: { limit: 50 } });
  return answer.data.length;
}
