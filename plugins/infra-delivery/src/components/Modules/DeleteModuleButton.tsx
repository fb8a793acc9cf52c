import { useApi } from '@backstage/frontend-plugin-api';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { CatalogModule } from './useModules';

/**
 * Deletes a module and its versions once the person confirms (`DELETE
 * /module-definitions/{id}`). The service refuses while instances use it, so the button says
 * so instead; one created meanwhile is refused in the service's words.
 */
export const DeleteModuleButton = ({
  module,
  onDeleted,
}: {
  module: CatalogModule;
  onDeleted: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const count = module.instances.length;
  return (
    <ConfirmActionButton
      label="Delete"
      ariaLabel={`Delete ${module.name}`}
      color="secondary"
      title={`Delete ${module.name}?`}
      disabled={count > 0}
      disabledReason={`${count} ${
        count === 1 ? 'instance uses' : 'instances use'
      } this module: delete ${count === 1 ? 'it' : 'them'} first`}
      onConfirm={() =>
        client.call('deleteModuleDefinition', { params: { id: module.id } })
      }
      onDone={onDeleted}
    >
      <Typography>
        This removes the module and its versions from the portal. Its directory
        in the repository stays as it is.
      </Typography>
    </ConfirmActionButton>
  );
};
