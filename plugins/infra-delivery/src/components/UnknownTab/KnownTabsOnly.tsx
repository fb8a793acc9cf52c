import {
  IconElement,
  PageLayout,
  PageLayoutTab,
} from '@backstage/frontend-plugin-api';
import { ReactElement } from 'react';
import { useParams } from 'react-router-dom';
import { InfrastructureTab, UnknownTab } from './UnknownTab';
import { TabsScrollInside } from '../common/TabsScrollInside';

/** Whether `rest`, the path under the page, is the page itself or under one of its tabs. */
function isUnderATab(rest: string, tabs: InfrastructureTab[]): boolean {
  const path = rest.replace(/^\/+/, '');
  return (
    path === '' ||
    tabs.some(tab => path === tab.path || path.startsWith(`${tab.path}/`))
  );
}

/**
 * The new frontend system's Infrastructure page (`page`: its header, tabs and sub-pages) where
 * the path is under one of its tabs, and otherwise the same header and tabs above
 * {@link UnknownTab}: the framework's page routes only to its sub-pages and would leave the
 * content empty. Either way its tabs scroll inside their row where they do not fit.
 */
export const KnownTabsOnly = ({
  page,
  tabs,
  title,
  icon,
}: {
  page: ReactElement;
  tabs: InfrastructureTab[];
  title: string;
  icon?: IconElement;
}) => {
  const rest = useParams()['*'] ?? '';
  if (isUnderATab(rest, tabs)) {
    return <TabsScrollInside>{page}</TabsScrollInside>;
  }
  const layoutTabs: PageLayoutTab[] = tabs.map(tab => ({
    id: tab.path,
    label: tab.title,
    href: tab.path,
  }));
  return (
    <TabsScrollInside>
      <PageLayout title={title} icon={icon} tabs={layoutTabs}>
        <UnknownTab tabs={tabs} />
      </PageLayout>
    </TabsScrollInside>
  );
};
