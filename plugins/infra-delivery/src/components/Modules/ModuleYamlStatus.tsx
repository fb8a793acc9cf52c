import {
  CodeSource,
  InfraDeliveryApiError,
} from '@infra-delivery/plugin-infra-delivery-common';
import { WarningText } from '../common/WarningText';
import { moduleLocation } from './repositoryLinks';
import { useModuleYamlCheck } from './useModuleYamlCheck';
import { DialogText } from '../common/DialogText';
import { messageOf } from '../common/ErrorPanel';

/** A message followed by another sentence ends with a full stop. */
const asSentence = (text: string) =>
  /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;

/**
 * Whether the directory a person names holds a `module.yaml` on the repository's default
 * branch, said before they add the module: a typo in the path showed only when its first
 * version was refused.
 */
export const ModuleYamlStatus = ({
  source,
  path,
}: {
  source?: CodeSource;
  path: string;
}) => {
  const check = useModuleYamlCheck(source?.id ?? '', path);
  if (!source || check.path === undefined) return null;
  const where = `${moduleLocation(source, check.path)} on ${
    source.defaultBranch
  }`;
  let text;
  if (check.error) {
    // The service's description says what to do ("Add the host … under integrations.github");
    // the message alone left people with a configuration key and no step.
    const todo =
      check.error instanceof InfraDeliveryApiError
        ? check.error.body.description
        : undefined;
    text = (
      <WarningText>
        Could not look for module.yaml at {where}:{' '}
        {asSentence(messageOf(check.error))}
        {todo && ` ${asSentence(todo)}`} The module can be added meanwhile; its
        versions are released once the service can read the repository.
      </WarningText>
    );
  } else if (check.exists === true) {
    text = <>module.yaml found at {where}</>;
  } else if (check.exists === false) {
    text = (
      <WarningText>
        module.yaml not found at {where}: the module can be added, but a version
        is released only from a branch or tag that has it.
      </WarningText>
    );
  } else {
    text = <>Looking for module.yaml at {where}…</>;
  }
  return <DialogText role="status">{text}</DialogText>;
};
