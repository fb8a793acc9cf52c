import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { withReadableRefusals } from './clients';

/** What a call of a client whose every call fails with `error` throws. */
const thrownBy = (error: Error): Promise<Error> =>
  withReadableRefusals({ call: (async () => Promise.reject(error)) as never })
    .call('listProjects', { query: {} })
    .then(
      () => {
        throw new Error('the call did not fail');
      },
      (thrown: Error) => thrown,
    );

describe('withReadableRefusals', () => {
  it("writes the service's refusal into the stack the task log shows, without frames", async () => {
    const refusal = new InfraDeliveryApiError(400, {
      code: 'InfraDelivery:Request:INVALID',
      message: 'The request is invalid',
      requestId: 'req-7',
      details: [
        {
          title: 'Problems',
          render: 'list',
          items: ['body.data.name: Too long'],
        },
      ],
    });
    const thrown = await thrownBy(refusal);

    // The same error, its status and body kept for whoever catches it.
    expect(thrown).toBe(refusal);
    expect(thrown.stack).toBe(
      [
        'The request is invalid',
        'Problems:',
        '  - body.data.name: Too long',
        'InfraDelivery:Request:INVALID · request id req-7',
      ].join('\n'),
    );
  });

  it('leaves any other error as it was', async () => {
    const outage = new Error('connect ECONNREFUSED');
    const stack = outage.stack;
    const thrown = await thrownBy(outage);
    expect(thrown).toBe(outage);
    expect(thrown.stack).toBe(stack);
  });
});
