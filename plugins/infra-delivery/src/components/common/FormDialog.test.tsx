import { alertApiRef } from '@backstage/frontend-plugin-api';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import {
  closeUnansweredDialog,
  MovableClock,
  movableClock,
} from '../../__testUtils__/unansweredService';
import { FormDialog } from './FormDialog';
import { useSubmission } from './useSubmission';

/** A form that saves through `save`, then tells `onSaved` what it saved. */
const SaveForm = ({
  save,
  onSaved,
  onClose,
}: {
  save: () => Promise<string>;
  onSaved: (said: string) => void;
  onClose: () => void;
}) => {
  const { busy, error, submit, silentFor } = useSubmission(
    async () => onSaved(await save()),
    { what: 'Saving the stack' },
  );
  return (
    <FormDialog
      title="Stack settings"
      submitLabel="Save"
      canSubmit
      busy={busy}
      silentFor={silentFor}
      onSubmit={submit}
      onClose={onClose}
    >
      {error?.message}
    </FormDialog>
  );
};

/** The page that opens the form and says what it saved. */
const SavingPage = ({ save }: { save: () => Promise<string> }) => {
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState<string>();
  return (
    <>
      <button onClick={() => setOpen(true)}>Settings</button>
      {said && <p>{said}</p>}
      {open && (
        <SaveForm
          save={save}
          onSaved={saved => {
            setSaid(saved);
            setOpen(false);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};

describe('FormDialog with useSubmission, when the service does not answer', () => {
  let clock: MovableClock;
  beforeEach(() => {
    clock = movableClock();
  });
  afterEach(() => clock.restore());

  async function sendUnanswered(save: () => Promise<string>) {
    const alertApi = { post: jest.fn(), alert$: jest.fn() };
    await renderInTestApp(
      <TestApiProvider apis={[[alertApiRef, alertApi]]}>
        <SavingPage save={save} />
      </TestApiProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
    await closeUnansweredDialog(dialog, clock);
    return alertApi;
  }

  it('can be closed, and the page still says what a late answer saved', async () => {
    let answer: (said: string) => void = () => {};
    await sendUnanswered(
      () =>
        new Promise(resolve => {
          answer = resolve;
        }),
    );
    answer('Network is saved.');
    expect(await screen.findByText('Network is saved.')).toBeInTheDocument();
  });

  it('can be closed, and a late refusal comes as an alert', async () => {
    let refuse: (error: Error) => void = () => {};
    const alertApi = await sendUnanswered(
      () =>
        new Promise((_resolve, reject) => {
          refuse = reject;
        }),
    );
    refuse(new Error('The name is taken'));
    await waitFor(() =>
      expect(alertApi.post).toHaveBeenCalledWith({
        message: 'Saving the stack failed: The name is taken',
        severity: 'error',
      }),
    );
  });
});
