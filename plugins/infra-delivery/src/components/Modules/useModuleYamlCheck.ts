import { useApi } from '@backstage/frontend-plugin-api';
import {
  normalizeRepositoryPath,
  repositoryPathSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import useDebounce from 'react-use/esm/useDebounce';
import { infraDeliveryApiRef } from '../../api';

/** How long the path stands still before it is looked up: not one request per keystroke. */
export const MODULE_YAML_CHECK_DELAY_MS = 400;

/** Where a `module.yaml` is looked for: a repository's directory on its default branch. */
interface Place {
  codeSourceId: string;
  /** Without slashes around; empty for the root. */
  path: string;
}

/**
 * Whether `module.yaml` is in a directory of a repository's default branch
 * (`GET /code-source/{id}/module-yaml-exists`), looked up once the path has stood still a
 * moment: `exists` undefined while unknown (nothing to look up yet, a look-up under way, or
 * the path not a directory of a repository), `error` when the service could not tell.
 */
export function useModuleYamlCheck(codeSourceId: string, path: string) {
  const client = useApi(infraDeliveryApiRef);
  const valid = repositoryPathSchema.safeParse(path).success;
  const current: Place | undefined =
    codeSourceId && valid
      ? { codeSourceId, path: normalizeRepositoryPath(path) }
      : undefined;
  const [settled, setSettled] = useState<Place>();
  useDebounce(() => setSettled(current), MODULE_YAML_CHECK_DELAY_MS, [
    current?.codeSourceId,
    current?.path,
  ]);
  // The answer keeps the place it is about: one about the path before is no answer.
  const lookup = useAsync(async () => {
    if (!settled) return undefined;
    try {
      const answer = await client.call('getModuleYamlExists', {
        params: { id: settled.codeSourceId },
        query: settled.path ? { basePath: settled.path } : {},
      });
      return { place: settled, exists: answer.data.exists };
    } catch (error) {
      return { place: settled, error: error as Error };
    }
  }, [client, settled]);
  const about = (place?: Place) =>
    current !== undefined &&
    place?.codeSourceId === current.codeSourceId &&
    place.path === current.path;
  const answer = about(lookup.value?.place) ? lookup.value : undefined;
  return {
    /** The directory looked in, as the service keeps it. */
    path: current?.path,
    exists: answer?.exists,
    error: answer?.error,
  };
}
