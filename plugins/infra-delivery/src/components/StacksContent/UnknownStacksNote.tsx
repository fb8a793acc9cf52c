import { Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_STACKS,
  CATALOG_MODULE_LOCATION,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';

/**
 * Whether the catalog module emitted the entity: its stacks annotation then follows the
 * service at the catalog's next refresh, and a stack deleted a moment ago leaves it by itself.
 */
export function followsTheService(entity: Entity): boolean {
  return (
    entity.metadata.annotations?.['backstage.io/managed-by-location'] ===
    `url:${CATALOG_MODULE_LOCATION}`
  );
}

/**
 * Under the stacks of an entity whose catalog-info.yaml names stacks the service does not have
 * (deleted, or never created): which ones, and where to remove them. They are not rows: a
 * deleted stack came back after a reload as a row that read "not found" and "Never run".
 */
export const UnknownStacksNote = ({
  entity,
  stackIds,
}: {
  entity: Entity;
  stackIds: string[];
}) => {
  if (stackIds.length === 0 || followsTheService(entity)) {
    return null;
  }
  const one = stackIds.length === 1;
  return (
    <Box marginTop={1}>
      <Typography variant="body2" color="textSecondary">
        The {ANNOTATION_STACKS} annotation of {entity.metadata.name} also names{' '}
        {one ? 'a stack' : `${stackIds.length} stacks`} the infrastructure
        service does not have (deleted, or never created):{' '}
        <code>{stackIds.join(', ')}</code>. Remove {one ? 'it' : 'them'} from
        the entity's catalog-info.yaml.
      </Typography>
    </Box>
  );
};
