import Button from '@material-ui/core/Button';
import { ReactNode } from 'react';
import { DialogText } from '../common/DialogText';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { quoted } from './deploymentTitle';

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
}) => (
  <FormDialog
    title={title}
    submitLabel={reviewing ? 'Deploy' : 'Review'}
    canSubmit={reviewing || !reviewProblem}
    disabledReason={reviewing ? undefined : reviewProblem}
    busy={busy}
    silentFor={silentFor}
    onSubmit={reviewing ? onDeploy : onReview}
    onClose={onClose}
    secondaryAction={
      reviewing && (
        <Button onClick={onBack} disabled={busy}>
          Back
        </Button>
      )
    }
  >
    {children}
  </FormDialog>
);

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
