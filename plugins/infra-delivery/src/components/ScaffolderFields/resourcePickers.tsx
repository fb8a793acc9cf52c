import { servicePicker } from './ServicePicker';
import { cloudAccountLabel } from '../common/choiceLabel';

/** `ui:field: InfraDeliveryCloudAccountPicker`: a cloud account of the organization, by name. */
export const CloudAccountPicker = servicePicker({
  label: 'Cloud account',
  emptyLabel: 'No cloud account',
  load: client =>
    client.call('listCloudAccounts', { query: { limit: 500 } }).then(page =>
      page.data.map(account => ({
        value: account.id,
        label: `${cloudAccountLabel(account)}${
          account.status === 'CONNECTED' ? '' : ' (not connected yet)'
        }`,
      })),
    ),
});

/** `ui:field: InfraDeliveryCodeSourcePicker`: a repository the organization connected. */
export const CodeSourcePicker = servicePicker({
  label: 'Code source',
  emptyLabel: 'No code source',
  load: client =>
    client.call('listCodeSources', { query: { limit: 500 } }).then(page =>
      page.data.map(source => ({
        value: source.id,
        label: `${source.repoName} (${source.defaultBranch})`,
      })),
    ),
});
