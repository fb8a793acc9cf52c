import { FormEvent, ReactNode } from 'react';

/**
 * A dialog's title, content and actions as a form: Enter in one of its fields does what its
 * submit button does (`type="submit"`), and nothing while `canSubmit` is false. The form takes
 * no box of its own (the dialog's paper lays out its parts), and the paper keeps its dialog
 * role (a form may not carry it).
 */
export const DialogForm = ({
  onSubmit,
  canSubmit,
  children,
}: {
  onSubmit: () => void;
  canSubmit: boolean;
  children: ReactNode;
}) => (
  <form
    style={{ display: 'contents' }}
    onSubmit={(event: FormEvent) => {
      event.preventDefault();
      if (canSubmit) onSubmit();
    }}
  >
    {children}
  </form>
);
