import { alertApiRef } from '@backstage/frontend-plugin-api';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useActionMessage } from './ActionMessage';
import { ConfirmActionButton } from './ConfirmActionButton';
import {
  closeUnansweredDialog,
  movableClock,
} from '../../__testUtils__/unansweredService';

describe('ConfirmActionButton', () => {
  it('gives focus to what the action said when the action removes its own button', async () => {
    const Row = () => {
      const [revoked, setRevoked] = useState(false);
      const { message, say } = useActionMessage();
      return (
        <section aria-label="API keys">
          {message}
          {!revoked && (
            <ConfirmActionButton
              label="Revoke"
              title="Revoke laptop?"
              onConfirm={async () => undefined}
              onDone={() => {
                say({ text: 'laptop is revoked.' });
                setRevoked(true);
              }}
            >
              Requests with this key fail from now on.
            </ConfirmActionButton>
          )}
        </section>
      );
    };
    await renderInTestApp(<Row />);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Revoke' }),
    );

    await waitFor(() => expect(screen.getByRole('status')).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent('laptop is revoked.');
  });

  it('confirms with Enter in the note, as with the button', async () => {
    const onConfirm = jest.fn(async (note: string) => note);
    const onDone = jest.fn();
    await renderInTestApp(
      <ConfirmActionButton
        label="Plan & apply"
        title="Plan and apply Network?"
        noteLabel="What is this run for? (optional)"
        onConfirm={onConfirm}
        onDone={onDone}
      >
        A plan, an approval, then the apply.
      </ConfirmActionButton>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Plan & apply' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(
      within(dialog).getByLabelText('What is this run for? (optional)'),
      'Widen the subnets{Enter}',
    );
    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith('Widen the subnets'),
    );
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
  });

  it('sends the same Idempotency-Key when confirmed again after an error, a new one for another note or opening', async () => {
    const keys: string[] = [];
    const onConfirm = jest.fn(
      async (_note: string, attempt: { idempotencyKey: string }) => {
        keys.push(attempt.idempotencyKey);
        throw new Error("The service's database cannot be reached");
      },
    );
    await renderInTestApp(
      <ConfirmActionButton
        label="Plan & apply"
        title="Plan and apply Network?"
        noteLabel="What is this run for? (optional)"
        onConfirm={onConfirm}
      >
        A plan, an approval, then the apply.
      </ConfirmActionButton>,
    );
    const confirmIn = async (dialog: HTMLElement) => {
      await userEvent.click(
        within(dialog).getByRole('button', { name: 'Plan & apply' }),
      );
      await within(dialog).findByText(/database cannot be reached/);
    };
    await userEvent.click(screen.getByRole('button', { name: 'Plan & apply' }));
    let dialog = await screen.findByRole('dialog');
    await confirmIn(dialog);
    await confirmIn(dialog);
    await userEvent.type(
      within(dialog).getByLabelText('What is this run for? (optional)'),
      'Widen',
    );
    await confirmIn(dialog);
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Plan & apply' }));
    dialog = await screen.findByRole('dialog');
    await confirmIn(dialog);

    expect(keys).toHaveLength(4);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
  });

  it('takes Enter only once the typed confirmation matches', async () => {
    const onConfirm = jest.fn(async () => undefined);
    await renderInTestApp(
      <ConfirmActionButton
        label="Destroy"
        title="Destroy every resource of Network?"
        typedConfirmation="Network"
        onConfirm={onConfirm}
      >
        Every resource goes.
      </ConfirmActionButton>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Destroy' }));
    const field = within(await screen.findByRole('dialog')).getByLabelText(
      'Type Network to confirm',
    );
    await userEvent.type(field, 'Netw{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    await userEvent.type(field, 'ork{Enter}');
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
  });

  it('can be closed once the service is silent, and alerts a refusal that comes after', async () => {
    let refuse: (error: Error) => void = () => {};
    const onConfirm = jest.fn(
      () =>
        new Promise<void>((_resolve, reject) => {
          refuse = reject;
        }),
    );
    const alertApi = { post: jest.fn(), alert$: jest.fn() };
    const clock = movableClock();
    try {
      await renderInTestApp(
        <TestApiProvider apis={[[alertApiRef, alertApi]]}>
          <ConfirmActionButton
            label="Roll back"
            title="Roll back to app:6?"
            onConfirm={onConfirm}
          >
            The service runs app:6 again.
          </ConfirmActionButton>
        </TestApiProvider>,
      );
      await userEvent.click(screen.getByRole('button', { name: 'Roll back' }));
      const dialog = await screen.findByRole('dialog');
      await userEvent.click(
        within(dialog).getByRole('button', { name: 'Roll back' }),
      );
      await closeUnansweredDialog(dialog, clock);

      refuse(new Error('The deployment has moved on'));
      await waitFor(() =>
        expect(alertApi.post).toHaveBeenCalledWith({
          message: 'Roll back failed: The deployment has moved on',
          severity: 'error',
        }),
      );
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    } finally {
      clock.restore();
    }
  });
});
