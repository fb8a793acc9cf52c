import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NO_ANSWER_NOTICE_MS } from '../components/common/silence';

/** The clock the portal reads (`Date.now`), moved on by the test without waiting. */
export interface MovableClock {
  later(ms: number): void;
  restore(): void;
}

export function movableClock(): MovableClock {
  const realNow = Date.now.bind(Date);
  let offset = 0;
  const spy = jest
    .spyOn(Date, 'now')
    .mockImplementation(() => realNow() + offset);
  return {
    later: ms => {
      offset += ms;
    },
    restore: () => spy.mockRestore(),
  };
}

/** A live view's notice that the service has not answered its reading, if it shows one. */
export const noAnswerNotice = () =>
  screen
    .queryAllByRole('status')
    .find(element =>
      /No answer from the infrastructure service/.test(
        element.textContent ?? '',
      ),
    );

/**
 * Once the service has left a live view's reading unanswered for `NO_ANSWER_NOTICE_MS` more
 * (`later` moves the clock on), the view says so, and that what it shows may be out of date.
 */
export async function saysNoAnswerAfterWaiting(later: (ms: number) => void) {
  later(NO_ANSWER_NOTICE_MS);
  await waitFor(() =>
    expect(noAnswerNotice()).toHaveTextContent(
      /^No answer from the infrastructure service for 1\ds: what you see may be out of date\. Retrying…$/,
    ),
  );
  return noAnswerNotice()!;
}

/**
 * In a dialog whose request the service leaves unanswered: Cancel is greyed until the service
 * has been silent for `NO_ANSWER_NOTICE_MS`; then the dialog says so, and Cancel closes it.
 */
export async function closeUnansweredDialog(
  dialog: HTMLElement,
  clock: MovableClock,
) {
  const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
  expect(cancel).toBeDisabled();
  clock.later(NO_ANSWER_NOTICE_MS);
  await waitFor(() => expect(cancel).toBeEnabled());
  expect(within(dialog).getByRole('status')).toHaveTextContent(
    /^The service has not answered for 1\d+s\. It may still carry out the request; closing this dialog will not cancel it\.$/,
  );
  await userEvent.click(cancel);
  await waitFor(() =>
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
  );
}
