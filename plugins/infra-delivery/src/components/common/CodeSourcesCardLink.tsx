import { MaybeLink } from './MaybeLink';
import { useMountedInfrastructurePath } from './useInfrastructurePath';

/** Where the Organization page lists the code sources, when the app has the plugin's page. */
export function useCodeSourcesCardLink(): string | undefined {
  const page = useMountedInfrastructurePath();
  return page ? `${page}/organization#code-sources` : undefined;
}

/**
 * "Code sources on the Organization page", in running text, linked to that card where the app
 * has the page: where repositories are connected.
 */
export const CodeSourcesCardLink = () => (
  <MaybeLink to={useCodeSourcesCardLink()} inText>
    Code sources on the Organization page
  </MaybeLink>
);
