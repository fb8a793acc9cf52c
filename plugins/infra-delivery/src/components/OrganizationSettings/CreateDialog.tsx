import Box from '@material-ui/core/Box';
import {
  Children,
  cloneElement,
  ComponentProps,
  isValidElement,
  ReactElement,
  ReactNode,
} from 'react';
import { useActionStarted } from '../common/ActionMessage';
import { ErrorPanel } from '../common/ErrorPanel';
import { FormDialog } from '../common/FormDialog';
import { NameAndIdFields } from '../common/NameAndIdFields';
import { useSubmission } from '../common/useSubmission';
import { fieldErrorsOf } from './fieldErrors';

/** The Name and Id pair's fields, as the create requests name them. */
const NAME_AND_ID = ['name', 'givenId'] as const;

/** A `NameAndIdFields` among `children`: two fields in one element. */
function isNameAndId(
  child: ReactNode,
): child is ReactElement<ComponentProps<typeof NameAndIdFields>> {
  return isValidElement(child) && child.type === NameAndIdFields;
}

/** The `name` of each field among `children`: what the service's validation issues name. */
function fieldNames(children: ReactNode): string[] {
  return Children.toArray(children).flatMap(child => {
    if (isNameAndId(child)) return [...NAME_AND_ID];
    return isValidElement<{ name?: string }>(child) && child.props.name
      ? [child.props.name]
      : [];
  });
}

/**
 * The dialog an organization card's header button opens to create what its table lists (an
 * invitation, a service account, an API key, a server). Its fields stand one under the other,
 * each with its help; Enter in one creates, as the button does. While the request runs the
 * buttons wait; when it fails, what was typed stays, and the service's validation issues are
 * said under the fields they name (each field's `name` is the request's), or else its
 * ErrorBody under the fields (titled `errorTitle`). It closes once `onCreate` resolves.
 */
export const CreateDialog = ({
  title,
  submitLabel,
  canSubmit,
  disabledReason,
  onCreate,
  onClose,
  errorTitle,
  intro,
  children,
}: {
  title: string;
  submitLabel: string;
  /** False while the fields do not describe something to create yet. */
  canSubmit: boolean;
  /** Why the button is greyed, said on hover and focus while `canSubmit` is false. */
  disabledReason?: string;
  /** Sends the request and takes its answer; throws the service's refusal. */
  onCreate: () => Promise<void>;
  onClose: () => void;
  errorTitle: string;
  /** What the person needs to know before filling the fields. */
  intro?: ReactNode;
  /** The fields, each `name`d after the request body's field it fills. */
  children: ReactNode;
}) => {
  const actionStarted = useActionStarted();
  const { busy, error, submit, silentFor } = useSubmission(async () => {
    actionStarted();
    await onCreate();
    onClose();
  });
  const fieldErrors = fieldErrorsOf(error, fieldNames(children));
  // Mapped also without errors: the fields keep their keys, and focus, when errors come.
  const fields = Children.map(children, child => {
    // The pair says a refusal of either beside it, over its own problem.
    if (isNameAndId(child)) {
      return cloneElement(child, {
        problems: {
          name: fieldErrors?.name ?? child.props.problems?.name,
          givenId: fieldErrors?.givenId ?? child.props.problems?.givenId,
        },
      });
    }
    const name = isValidElement<{ name?: string }>(child)
      ? child.props.name
      : undefined;
    return name && fieldErrors?.[name]
      ? cloneElement(child as ReactElement, {
          error: true,
          helperText: fieldErrors[name],
        })
      : child;
  });
  return (
    <FormDialog
      title={title}
      submitLabel={submitLabel}
      canSubmit={canSubmit}
      disabledReason={disabledReason}
      busy={busy}
      silentFor={silentFor}
      onSubmit={submit}
      onClose={onClose}
    >
      {intro}
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        {fields}
      </Box>
      {error && !fieldErrors && <ErrorPanel error={error} title={errorTitle} />}
    </FormDialog>
  );
};
