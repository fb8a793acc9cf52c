import Button from '@material-ui/core/Button';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { ReactNode, useState } from 'react';
import { DialogText } from '../common/DialogText';
import { PluginDialog } from '../common/PluginDialog';

type Copied = 'NOT_YET' | 'COPIED' | 'FAILED';

const COPY_LABELS: Record<Copied, string> = {
  NOT_YET: 'Copy',
  COPIED: 'Copied',
  FAILED: 'Copy',
};

/**
 * Shows a secret the service returns only once (an API key, an invitation token). Only _Done_
 * closes it: Escape or a click beside it closed it at once, and the key was gone. _Copy_ says
 * that it copied, or that the browser refused and the value is selected to copy by hand.
 */
export const SecretOnceDialog = ({
  title,
  secret,
  onClose,
  children,
}: {
  title: string;
  secret: string;
  onClose: () => void;
  /** What the person does with it, when the title alone does not say. */
  children?: ReactNode;
}) => {
  const [copied, setCopied] = useState<Copied>('NOT_YET');
  const titleId = 'secret-once-title';
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('No clipboard');
      await navigator.clipboard.writeText(secret);
      setCopied('COPIED');
    } catch {
      setCopied('FAILED');
      (
        document.getElementById('secret-once-value') as HTMLInputElement | null
      )?.select();
    }
  };
  return (
    <PluginDialog
      open
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
      disableEscapeKeyDown
      // Only Done closes it (onClose is not passed on): the secret cannot be read again.
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Typography gutterBottom>
          Copy it now: it is shown only this once and cannot be read again.
        </Typography>
        <TextField
          id="secret-once-value"
          fullWidth
          value={secret}
          inputProps={{ readOnly: true, 'aria-label': 'secret value' }}
          onFocus={event => event.target.select()}
        />
        <Typography
          variant="caption"
          color={copied === 'FAILED' ? 'error' : 'textSecondary'}
          role="status"
        >
          {copied === 'COPIED' && 'Copied to the clipboard.'}
          {copied === 'FAILED' &&
            'The browser did not let the portal copy it: it is selected, copy it with your keyboard.'}
        </Typography>
        {children && (
          <DialogText style={{ marginTop: 16 }}>{children}</DialogText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={copy}>{COPY_LABELS[copied]}</Button>
        <Button color="primary" variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </PluginDialog>
  );
};
