import { PaperProps } from '@material-ui/core/Paper';
import { FormEvent } from 'react';

/**
 * `PaperProps` that make a dialog a form: Enter in one of its fields does what its submit
 * button does (`type="submit"`), and nothing while `canSubmit` is false.
 */
export function dialogForm(
  submit: () => void,
  canSubmit: boolean,
): Partial<PaperProps> {
  return {
    component: 'form',
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      if (canSubmit) submit();
    },
  };
}
