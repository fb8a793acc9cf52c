import { within } from '@testing-library/react';

/** "Waiting for a runner", or "… with labels env=prod" for a stack that requires them. */
const TITLE = /^Waiting for a runner\b/;
const TITLE_SELECTOR = '.MuiAlertTitle-root';

/** The waiting-for-runner notice within `container` (the whole page without one), if shown. */
export function queryWaitingForRunnerNotice(
  container: HTMLElement = document.body,
): HTMLElement | null {
  const title = within(container).queryByText(TITLE, {
    selector: TITLE_SELECTOR,
  });
  return title?.closest<HTMLElement>('[role="status"]') ?? null;
}

/** The notice, once it shows. */
export async function findWaitingForRunnerNotice(
  container: HTMLElement = document.body,
): Promise<HTMLElement> {
  const title = await within(container).findByText(TITLE, {
    selector: TITLE_SELECTOR,
  });
  return title.closest<HTMLElement>('[role="status"]')!;
}
