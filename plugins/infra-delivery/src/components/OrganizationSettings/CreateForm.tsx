import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import {
  Children,
  cloneElement,
  FormEvent,
  isValidElement,
  ReactElement,
  ReactNode,
  useState,
} from 'react';
import { useActionOutcome, useActionStarted } from '../common/ActionMessage';
import { ErrorPanel } from '../common/ErrorPanel';
import { fieldErrorsOf } from './fieldErrors';

/** The `name` of each field among `children`: what the service's validation issues name. */
function fieldNames(children: ReactNode): string[] {
  return Children.toArray(children).flatMap(child =>
    isValidElement<{ name?: string }>(child) && child.props.name
      ? [child.props.name]
      : [],
  );
}

/**
 * The row of fields at the top of an organization card, with the button that creates what
 * they describe (or Enter in a field). While the request runs the button waits; when it
 * fails, what was typed stays, and the service's validation issues are shown under the fields
 * they name (each field's `name` is the request's), or else its ErrorBody under the row
 * (titled `errorTitle`).
 */
export const CreateForm = ({
  submitLabel,
  disabled,
  onSubmit,
  errorTitle,
  children,
}: {
  submitLabel: string;
  /** True while the fields do not describe something to create yet. */
  disabled: boolean;
  onSubmit: () => Promise<void>;
  errorTitle: string;
  /** The fields, each `name`d after the request body's field it fills. */
  children: ReactNode;
}) => {
  const [busy, setBusy] = useState(false);
  // Goes once another action starts on the page: it stood under the fields beside the
  // outcome of what was done since.
  const [error, setError] = useActionOutcome<Error>();
  const actionStarted = useActionStarted();
  const submit = async () => {
    actionStarted();
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  const fieldErrors = fieldErrorsOf(error, fieldNames(children));
  // Mapped also without errors: the fields keep their keys, and focus, when errors come.
  const fields = Children.map(children, child => {
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
    <>
      {/* A form: Enter in a field creates, as the button does. */}
      <Box
        component="form"
        display="flex"
        flexWrap="wrap"
        alignItems="flex-end"
        style={{ gap: 16 }}
        mb={2}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          if (!disabled && !busy) submit();
        }}
      >
        {fields}
        <Button
          type="submit"
          variant="contained"
          color="primary"
          disabled={disabled || busy}
        >
          {submitLabel}
        </Button>
      </Box>
      {error && !fieldErrors && <ErrorPanel error={error} title={errorTitle} />}
    </>
  );
};
