import { createDeploymentRequestSchema } from './deployments';
import { idSchema } from './primitives';
import {
  createStackRequestSchema,
  STACK_PIPELINE_KINDS,
  stackPipelineName,
  updateStackRequestSchema,
} from './stacks';

/**
 * Values SQLite stored and PostgreSQL refused, found by the backend's hostile-request sweep
 * (`src/routes/hostileRequests.test.ts`): the schemas refuse them, so both databases answer
 * the same 400.
 */
describe('request values both databases store alike', () => {
  it('refuses an id holding a NUL or another control character', () => {
    expect(
      idSchema.safeParse('0193a8c0-0000-7000-8000-000000000000').success,
    ).toBe(true);
    for (const id of ['a\u0000b', 'a\nb', '\u001b[31m']) {
      expect(idSchema.safeParse(id).success).toBe(false);
    }
  });

  const deployment = (clusterRef: string, serviceRef = 'web') => ({
    cloudAccountId: 'a',
    region: 'eu-west-1',
    environmentId: 'e',
    clusterRef,
    serviceRef,
    taskDefinition: {
      family: 'web',
      containerDefinitions: [
        { name: 'app', image: 'registry.example.com/web:1' },
      ],
    },
  });

  it('takes ECS names of up to 255 characters, alone or at the end of an ARN', () => {
    const arn = 'arn:aws:ecs:eu-west-1:123456789012:service/main/';
    for (const ref of ['main', 'x'.repeat(255), `${arn}${'x'.repeat(255)}`]) {
      expect(
        createDeploymentRequestSchema.safeParse({ data: deployment(ref, ref) })
          .success,
      ).toBe(true);
    }
    for (const ref of ['x'.repeat(256), `${arn}${'x'.repeat(256)}`, 'main/']) {
      expect(
        createDeploymentRequestSchema.safeParse({ data: deployment(ref) })
          .success,
      ).toBe(false);
      expect(
        createDeploymentRequestSchema.safeParse({
          data: deployment('main', ref),
        }).success,
      ).toBe(false);
    }
  });

  it('keeps a stack name short enough for its pipelines’ names (255 characters)', () => {
    const longest = 255 - ': destroy'.length;
    const named = (name: string) => ({
      data: { projectId: 'p', environmentId: 'e', name },
    });
    expect(
      createStackRequestSchema.safeParse(named('x'.repeat(longest))).success,
    ).toBe(true);
    expect(
      createStackRequestSchema.safeParse(named('x'.repeat(longest + 1)))
        .success,
    ).toBe(false);
    expect(
      updateStackRequestSchema.safeParse({
        data: { name: 'x'.repeat(longest + 1) },
      }).success,
    ).toBe(false);
    for (const kind of STACK_PIPELINE_KINDS) {
      expect(
        stackPipelineName('x'.repeat(longest), kind).length,
      ).toBeLessThanOrEqual(255);
    }
  });
});
