import Button from '@material-ui/core/Button';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PluginDialog } from './PluginDialog';

const NoteDialog = () => (
  <PluginDialog open onClose={() => {}} aria-labelledby="note-title">
    <DialogTitle id="note-title">Approve the plan?</DialogTitle>
    <DialogContent>
      <TextField id="comment" label="Comment" />
    </DialogContent>
    <DialogActions>
      <Button>Cancel</Button>
      <Button disabled>Later</Button>
      <Button>Approve</Button>
    </DialogActions>
  </PluginDialog>
);

describe('PluginDialog', () => {
  it('takes Tab round its fields and buttons, never to its own container', async () => {
    const user = userEvent.setup();
    render(<NoteDialog />);
    const comment = screen.getByRole('textbox', { name: 'Comment' });
    await waitFor(() => expect(comment).toHaveFocus());

    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Approve' })).toHaveFocus();
    // From the last button round to the first field, as in a page's own tab order.
    await user.tab();
    expect(comment).toHaveFocus();
    // And back from the first field to the last button.
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Approve' })).toHaveFocus();
  });
});
