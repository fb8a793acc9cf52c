import {
  formatRunnerLabels,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ReactNode, useState } from 'react';
import { ButtonWithReason } from '../common/ButtonWithReason';
import {
  CHECKING_PERMISSIONS,
  useResourceWriteCheck,
} from '../common/useCanExecuteRuns';
import { StackSettingsDialog } from './StackSettingsDialog';

/** Where a stack's runs find its code. */
function workingDirectory(stack: Stack): ReactNode {
  if (stack.path) {
    return <code>{stack.path}</code>;
  }
  return stack.codeSourceId
    ? 'the repository root'
    : 'the runner’s source root';
}

/**
 * A stack's settings in its details: its description, where its code is and whether plans
 * apply without approval, with "Edit settings" for those who may change stacks (a stack
 * created with a wrong working directory failed every run, and only the API could fix it)
 * and what else they may do with the stack (delete it, in the drawer).
 */
export const StackSettingsSection = ({
  stack,
  onChanged,
  children,
}: {
  stack: Stack;
  /** Called with what an edit changed, in words. */
  onChanged?: (what: string) => void;
  /** Further actions beside "Edit settings", for those who may change the stack. */
  children?: ReactNode;
}) => {
  const edit = useResourceWriteCheck();
  const [editing, setEditing] = useState(false);
  return (
    <Box
      marginBottom={2}
      component="section"
      aria-labelledby="stack-settings-heading"
    >
      <Typography variant="h6" component="h3" id="stack-settings-heading">
        Settings
      </Typography>
      {stack.description && (
        <Typography variant="body2">{stack.description}</Typography>
      )}
      <Typography variant="body2" color="textSecondary">
        Working directory: {workingDirectory(stack)} ·{' '}
        {stack.autoApprove
          ? 'Plans apply without approval'
          : 'Plans apply after an approval'}{' '}
        ·{' '}
        {stack.runnerLabels.length > 0 ? (
          <>
            Runners with labels:{' '}
            <code>{formatRunnerLabels(stack.runnerLabels)}</code>
          </>
        ) : (
          'Any runner'
        )}
      </Typography>
      {(edit.allowed || edit.checking) && (
        <Box
          display="flex"
          flexWrap="wrap"
          alignItems="center"
          marginTop={1}
          style={{ gap: 8 }}
        >
          <ButtonWithReason
            size="small"
            variant="outlined"
            color="primary"
            disabled={edit.checking}
            disabledReason={CHECKING_PERMISSIONS}
            onClick={() => setEditing(true)}
          >
            Edit settings
          </ButtonWithReason>
          {edit.allowed && children}
        </Box>
      )}
      {editing && (
        <StackSettingsDialog
          stack={stack}
          onClose={() => setEditing(false)}
          onSaved={(_saved, what) => {
            setEditing(false);
            onChanged?.(what);
          }}
        />
      )}
    </Box>
  );
};
