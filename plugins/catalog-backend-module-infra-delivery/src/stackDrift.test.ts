import {
  EntityPolicies,
  FieldFormatEntityPolicy,
  NoForeignRootFieldsEntityPolicy,
  resourceEntityV1alpha1Validator,
  SchemaValidEntityPolicy,
} from '@backstage/catalog-model';
import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import { entitiesOf } from './stackEntities';

const at = '2026-11-26T10:00:00.000Z';

function stack(id: string, fields: Partial<Stack>): Stack {
  return {
    id,
    organizationId: 'org-1',
    projectId: 'project-1',
    environmentId: 'env-1',
    type: 'IAC_OPEN',
    runnerLabels: [],
    givenId: id,
    name: `Stack ${id}`,
    autoApprove: false,
    changePipelineId: `${id}-change`,
    destroyPipelineId: `${id}-destroy`,
    driftStatus: 'UNKNOWN',
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

describe('the drift of stack entities', () => {
  const entities = entitiesOf(
    {
      projects: [
        {
          id: 'project-1',
          organizationId: 'org-1',
          givenId: 'payments',
          name: 'Payments',
          createdAt: at,
          updatedAt: at,
        },
      ],
      environments: [],
      stacks: [
        stack('drifted', {
          driftCheckIntervalHours: 1,
          driftStatus: 'DRIFTED',
          driftedResourceCount: 6,
          lastDriftCheckAt: at,
          lastDriftCheckRunId: 'run-1',
        }),
        stack('watched', { driftCheckIntervalHours: 24 }),
        stack('unwatched', {}),
      ],
      cloudAccounts: [],
      codeSources: [],
    },
    {
      defaultOwner: 'group:default/platform',
      projectOwners: {},
      cloudAccountOwners: {},
    },
  );
  const entity = (name: string) =>
    entities.find(e => e.metadata.name === `stack-${name}`)!;

  it('carries the status, the drifted resources and the check time, and a label for filters', async () => {
    const drifted = entity('drifted');
    expect(drifted.metadata.annotations).toMatchObject({
      'infra-delivery.io/drift-status': 'DRIFTED',
      'infra-delivery.io/drifted-resources': '6',
      'infra-delivery.io/drift-checked-at': at,
    });
    expect(drifted.metadata.labels).toEqual({
      'infra-delivery.io/drift': 'DRIFTED',
    });
    const policy = EntityPolicies.allOf([
      new SchemaValidEntityPolicy(),
      new NoForeignRootFieldsEntityPolicy(),
      new FieldFormatEntityPolicy(),
    ]);
    await expect(policy.enforce(drifted)).resolves.toBe(drifted);
    await expect(resourceEntityV1alpha1Validator.check(drifted)).resolves.toBe(
      true,
    );
  });

  it('says UNKNOWN for a watched stack not yet checked, and nothing for a stack no check watches', () => {
    expect(entity('watched').metadata.labels).toEqual({
      'infra-delivery.io/drift': 'UNKNOWN',
    });
    expect(entity('watched').metadata.annotations).not.toHaveProperty(
      'infra-delivery.io/drifted-resources',
    );
    expect(entity('unwatched').metadata).not.toHaveProperty('labels');
    expect(entity('unwatched').metadata.annotations).not.toHaveProperty(
      'infra-delivery.io/drift-status',
    );
  });
});
