import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import { FormEvent, ReactNode, useState } from 'react';
import { ErrorPanel } from '../common/ErrorPanel';

/**
 * The row of fields at the top of an organization card, with the button that creates what
 * they describe (or Enter in a field). While the request runs the button waits; when it fails, the ErrorBody is
 * shown under the fields (titled `errorTitle`) and what was typed stays.
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
  /** The fields. */
  children: ReactNode;
}) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const submit = async () => {
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
        {children}
        <Button
          type="submit"
          variant="contained"
          color="primary"
          disabled={disabled || busy}
        >
          {submitLabel}
        </Button>
      </Box>
      {error && <ErrorPanel error={error} title={errorTitle} />}
    </>
  );
};
