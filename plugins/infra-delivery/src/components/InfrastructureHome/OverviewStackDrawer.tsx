import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { useOpenedDrawer } from '../common/drawerLinks';
import { ErrorPanel } from '../common/ErrorPanel';
import { SideDrawer } from '../common/SideDrawer';
import { useRunPagePath } from '../common/useInfrastructurePath';
import { StackDrawer } from '../StacksContent/StackDrawer';

/** The stack of `stackId`, read by its id, in a drawer; a drawer that says why when it cannot be read. */
const StackByIdDrawer = ({
  stackId,
  onClose,
}: {
  stackId: string;
  onClose: () => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const runPath = useRunPagePath();
  const { value, loading, error } = useAsync(
    () => client.call('getStack', { params: { id: stackId } }),
    [client, stackId],
  );
  if (value) {
    return (
      <StackDrawer stack={value.data} runPath={runPath} onClose={onClose} />
    );
  }
  return (
    <SideDrawer title="Stack" onClose={onClose}>
      {loading && <Progress />}
      {error && <ErrorPanel error={error} title="The stack cannot be read" />}
    </SideDrawer>
  );
};

/**
 * The stack a link names (`?stack=<id>`, the common package's `portalPages.stack`), its details
 * over the Overview: a stack a template created a moment ago is here at once, where its catalog
 * entity comes with the catalog's next refresh.
 */
export const OverviewStackDrawer = () => {
  const [stackId, setStackId] = useOpenedDrawer('stack');
  return stackId ? (
    <StackByIdDrawer
      key={stackId}
      stackId={stackId}
      onClose={() => setStackId(undefined)}
    />
  ) : null;
};
