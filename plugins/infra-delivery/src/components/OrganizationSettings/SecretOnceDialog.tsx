import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';

/** Shows a secret the service returns only once (an API key, an invitation token). */
export const SecretOnceDialog = ({
  title,
  secret,
  onClose,
}: {
  title: string;
  secret: string;
  onClose: () => void;
}) => (
  <Dialog open onClose={onClose} fullWidth maxWidth="sm">
    <DialogTitle>{title}</DialogTitle>
    <DialogContent>
      <Typography gutterBottom>
        Copy it now: it is shown only this once and cannot be read again.
      </Typography>
      <TextField
        fullWidth
        value={secret}
        inputProps={{ readOnly: true, 'aria-label': 'secret value' }}
        onFocus={event => event.target.select()}
      />
    </DialogContent>
    <DialogActions>
      <Button onClick={() => navigator.clipboard?.writeText(secret)}>
        Copy
      </Button>
      <Button color="primary" variant="contained" onClick={onClose}>
        Done
      </Button>
    </DialogActions>
  </Dialog>
);
