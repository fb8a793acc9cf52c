import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { refusedFieldsOf } from './refusedFields';

const refused = (status: number, code: string, items?: string[]) =>
  new InfraDeliveryApiError(status, {
    code,
    message: `refused: ${code}`,
    requestId: 'req-1',
    ...(items && { details: [{ title: 'Issues', render: 'list', items }] }),
  });

describe('refusedFieldsOf', () => {
  it('ties a conflict to the field its reason names, in the service’s words', () => {
    expect(
      refusedFieldsOf(
        refused(409, 'InfraDelivery:ModuleVersion:VERSION_TAKEN'),
        ['version', 'ref'],
        { VERSION_TAKEN: 'version' },
      ),
    ).toEqual({
      version: 'refused: InfraDelivery:ModuleVersion:VERSION_TAKEN',
    });
  });

  it('ties a bad request the service checked itself to the field its reason names', () => {
    expect(
      refusedFieldsOf(
        refused(400, 'InfraDelivery:CodeSource:INVALID_REPO_URL'),
        ['forgeInstallationId', 'repoUrl'],
        { INVALID_REPO_URL: 'repoUrl' },
      ),
    ).toEqual({
      repoUrl: 'refused: InfraDelivery:CodeSource:INVALID_REPO_URL',
    });
  });

  it('leaves a reason it does not know to a panel', () => {
    expect(
      refusedFieldsOf(
        refused(422, 'InfraDelivery:ModuleVersion:INVALID_MODULE_YAML'),
        ['version', 'ref'],
        { VERSION_TAKEN: 'version' },
      ),
    ).toBeUndefined();
  });

  it('says validation issues beside the fields they name', () => {
    expect(
      refusedFieldsOf(
        refused(400, 'InfraDelivery:Request:VALIDATION_FAILED', [
          'body.data.ref: is not a valid git branch or tag name',
        ]),
        ['version', 'ref'],
      ),
    ).toEqual({ ref: 'is not a valid git branch or tag name' });
  });
});
