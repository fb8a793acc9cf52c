import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import { deploymentFixture } from './deploymentFixtures';
import { baseUrl, list } from './infraDeliveryTestKit';

/** A deployment of payments-api into environment e1, as the service lists them. */
export function placedDeployment(
  id: string,
  status: Deployment['status'],
  image: string,
  extra: Partial<Deployment['data']> = {},
): Deployment {
  return {
    ...deploymentFixture(id, status, image, extra),
    environmentId: 'e1',
    projectId: 'p1',
  };
}

/** GET /deployments answering `history` as it stands at each read. */
export const deploymentsOf = (history: Deployment[]) =>
  http.get(`${baseUrl}/deployments`, () => HttpResponse.json(list(history)));

/** Waits until the Deployments tab's Deploy is disabled, and returns the reason it gives. */
export async function deployDisabledReason(): Promise<string | null> {
  const deploy = () =>
    screen.getByRole('button', { name: 'Deploy to payments-api' });
  await waitFor(() => expect(deploy()).toBeDisabled());
  await userEvent.hover(deploy().parentElement!);
  return (await screen.findByRole('tooltip')).textContent;
}

/** Opens Deploy, puts `image` in its Image field and reviews: returns the confirmation. */
export async function reviewImage(image: string): Promise<HTMLElement> {
  await userEvent.click(
    await screen.findByRole('button', { name: 'Deploy to payments-api' }),
  );
  const dialog = await screen.findByRole('dialog', {
    name: 'Deploy to payments-api',
  });
  const field = within(dialog).getByRole('textbox', { name: /Image/ });
  await userEvent.clear(field);
  await userEvent.type(field, image);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
  return screen.findByRole('dialog', { name: /^Deploy .* to payments-api\?$/ });
}

/**
 * Presses Deploy in a Deploy dialog's review (`confirm`) and returns the one POST /deployments
 * it sends, as `requestsTo` recorded it.
 */
export async function deployFromReview(
  confirm: HTMLElement,
  requestsTo: (
    method: string,
    path: string,
  ) => { body?: unknown; headers: Headers }[],
) {
  expect(requestsTo('POST', '/deployments')).toHaveLength(0);
  await userEvent.click(
    within(confirm).getByRole('button', { name: 'Deploy' }),
  );
  await waitFor(() =>
    expect(requestsTo('POST', '/deployments')).toHaveLength(1),
  );
  return requestsTo('POST', '/deployments')[0];
}
