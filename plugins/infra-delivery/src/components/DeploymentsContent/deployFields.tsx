import { descriptionSchema } from '@infra-delivery/plugin-infra-delivery-common';
import { ErrorText } from '../common/WarningText';
import { readableIssue } from '../OrganizationSettings/fieldErrors';

/**
 * A field's problem under it with an error icon, or else its hint. The field is marked
 * invalid (its underline red, `aria-invalid`), but its label and the text under it keep their
 * colours: MUI's red text on the dialog is below the contrast axe-core asks for.
 */
export function problemOrHint(problem: string | undefined, hint: string) {
  return {
    error: Boolean(problem),
    helperText: problem ? <ErrorText>{problem}</ErrorText> : hint,
    InputLabelProps: { error: false },
    FormHelperTextProps: { error: false },
  };
}

/** The first problem the service's own rules find in `value`, worded for a person. */
export function problemOf(
  schema: {
    safeParse: (value: unknown) => {
      error?: { issues: { message: string }[] };
    };
  },
  value: unknown,
): string | undefined {
  const issue = schema.safeParse(value).error?.issues[0];
  return issue && readableIssue(issue.message);
}

/** What the service would refuse of a deployment's description (none is fine). */
export function descriptionProblemOf(description: string): string | undefined {
  return description.trim()
    ? problemOf(descriptionSchema, description.trim())
    : undefined;
}
