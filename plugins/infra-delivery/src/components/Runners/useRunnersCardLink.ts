import { useMountedInfrastructurePath } from '../common/useInfrastructurePath';

/** Where the Organization page lists the runners, when the app has the plugin's page. */
export function useRunnersCardLink(): string | undefined {
  const page = useMountedInfrastructurePath();
  return page ? `${page}/organization#runners` : undefined;
}
