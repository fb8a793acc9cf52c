import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import { allDeploymentChanges } from './InfraDeliveryNotifications';

describe('allDeploymentChanges', () => {
  it('tells every listener of each change, in order', async () => {
    const heard: string[] = [];
    const listener = (name: string) => ({
      deploymentChanged: async (deployment: Deployment) => {
        heard.push(`${name}:${deployment.id}:${deployment.status}`);
      },
    });
    const all = allDeploymentChanges(listener('signals'), listener('notify'));

    await all.deploymentChanged({ id: 'd1', status: 'FAILED' } as Deployment);

    expect(heard).toEqual(['signals:d1:FAILED', 'notify:d1:FAILED']);
  });
});
