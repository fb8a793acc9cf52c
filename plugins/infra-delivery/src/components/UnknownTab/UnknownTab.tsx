import { Content, EmptyState, LinkButton } from '@backstage/core-components';
import { useParams } from 'react-router-dom';
import { useInfrastructurePath } from '../common/useInfrastructurePath';

/** A tab of the Infrastructure page: its path under the page, and its title. */
export interface InfrastructureTab {
  path: string;
  title: string;
}

/** "Overview, Runs and Status". */
function listOf(titles: string[]): string {
  return titles.length < 2
    ? titles.join('')
    : `${titles.slice(0, -1).join(', ')} and ${titles[titles.length - 1]}`;
}

/**
 * What the Infrastructure page shows at a path none of its tabs has (an old bookmark, a typo):
 * which path that was, the tabs there are, and the way to the first one — in place of an empty
 * page under the tabs.
 */
export const UnknownTab = ({ tabs }: { tabs: InfrastructureTab[] }) => {
  const unknownPath = useParams()['*'] ?? '';
  const pagePath = useInfrastructurePath();
  const [first] = tabs;
  return (
    <Content>
      <EmptyState
        missing="content"
        title={`The Infrastructure page has no “${unknownPath}”`}
        description={`Nothing is at ${pagePath}/${unknownPath}. The page's tabs are ${listOf(
          tabs.map(tab => tab.title),
        )}.`}
        action={
          first && (
            <LinkButton
              to={`${pagePath}/${first.path}`}
              variant="contained"
              color="primary"
            >
              Go to {first.title}
            </LinkButton>
          )
        }
      />
    </Content>
  );
};
