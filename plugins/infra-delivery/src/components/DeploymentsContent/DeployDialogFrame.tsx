import Button from '@material-ui/core/Button';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import { ReactNode, useId } from 'react';
import { DialogText } from '../common/DialogText';
import { ErrorPanel } from '../common/ErrorPanel';
import { quoted } from './deploymentTitle';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { DialogForm } from '../common/DialogForm';
import { NoAnswerNote } from '../common/NoAnswerNote';
import { PluginDialog } from '../common/PluginDialog';

/**
 * The two steps of a Deploy dialog: the form, whose Review is disabled saying why while
 * `reviewProblem` is set, then the review, whose Deploy sends the request (`onDeploy`) and
 * Back returns to the form. Enter does what the step's button does. While the request is under
 * way the dialog cannot be closed, until the service has been silent long (`silentFor`): then it
 * says so and may be closed.
 */
export const DeployDialogFrame = ({
  title,
  reviewing,
  reviewProblem,
  busy,
  silentFor,
  onReview,
  onBack,
  onDeploy,
  onClose,
  children,
}: {
  title: string;
  reviewing: boolean;
  /** Why the form cannot be reviewed yet; undefined when it can. */
  reviewProblem: string | undefined;
  busy: boolean;
  silentFor: number | undefined;
  onReview: () => void;
  onBack: () => void;
  onDeploy: () => void;
  onClose: () => void;
  children: ReactNode;
}) => {
  const titleId = useId();
  const canClose = !busy || silentFor !== undefined;
  return (
    <PluginDialog
      open
      fullWidth
      maxWidth="sm"
      onClose={() => canClose && onClose()}
      aria-labelledby={titleId}
    >
      <DialogForm
        canSubmit={reviewing ? !busy : !reviewProblem}
        onSubmit={() => (reviewing ? onDeploy() : onReview())}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={() => onClose()} disabled={!canClose}>
            Cancel
          </Button>
          {reviewing && (
            <Button onClick={onBack} disabled={busy}>
              Back
            </Button>
          )}
          <ButtonWithReason
            type="submit"
            color="primary"
            variant="contained"
            disabled={reviewing ? busy : Boolean(reviewProblem)}
            disabledReason={reviewing ? undefined : reviewProblem}
          >
            {reviewing ? 'Deploy' : 'Review'}
          </ButtonWithReason>
        </DialogActions>
        <NoAnswerNote silentFor={silentFor} />
      </DialogForm>
    </PluginDialog>
  );
};

/** The end of a Deploy dialog's review: the name given, and the service's refusal. */
export const ReviewEnd = ({
  description,
  error,
}: {
  description: string;
  error: Error | undefined;
}) => (
  <>
    {description.trim() && (
      <DialogText paragraph>
        It is named {quoted(description.trim())}.
      </DialogText>
    )}
    {error && <ErrorPanel error={error} title="Deploy failed" />}
  </>
);
