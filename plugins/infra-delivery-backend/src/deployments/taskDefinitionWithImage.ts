import { ContainerImageRelease } from '@infra-delivery/plugin-infra-delivery-common';
import { InfraDeliveryError } from '../errors';

/**
 * A copy of `definition` in which one container runs `release.image`; every other field is
 * kept as it was, so the new revision differs from the current one by the image alone. The
 * container is named by the release, or is the definition's only container.
 */
export function taskDefinitionWithImage(
  definition: Record<string, unknown>,
  release: ContainerImageRelease,
): Record<string, unknown> {
  const containers = Array.isArray(definition.containerDefinitions)
    ? (definition.containerDefinitions as Record<string, unknown>[])
    : [];
  const names = containers.map(c => String(c.name));
  let index = containers.length === 1 ? 0 : -1;
  if (release.containerName) {
    index = names.indexOf(release.containerName);
  }
  if (index < 0) {
    throw new InfraDeliveryError({
      status: 422,
      entity: 'Deployment',
      reason: 'CONTAINER_NOT_FOUND',
      message: release.containerName
        ? `The task definition has no container ${
            release.containerName
          }; it has ${names.join(', ')}`
        : `The task definition has ${
            containers.length
          } containers (${names.join(', ')}); name the one that gets the image`,
      metadata: { containers: names },
    });
  }
  return {
    ...definition,
    containerDefinitions: containers.map((container, i) =>
      i === index ? { ...container, image: release.image } : container,
    ),
  };
}
