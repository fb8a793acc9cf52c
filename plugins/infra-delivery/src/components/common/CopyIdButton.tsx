import IconButton from '@material-ui/core/IconButton';
import Tooltip from '@material-ui/core/Tooltip';
import CopyIcon from '@material-ui/icons/FileCopyOutlined';
import { useState } from 'react';

/**
 * A small button that copies an id the API takes (a service account's, for an API key's
 * owner), the id on hover: the id itself is no text to read beside a name. Core's
 * CopyTextButton drew a filled 36 px button in the app's theme beside every name.
 */
export const CopyIdButton = ({ id, of }: { id: string; of: string }) => {
  const [copied, setCopied] = useState(false);
  return (
    <Tooltip title={copied ? 'ID copied' : `Copy the ID (${id})`}>
      <IconButton
        size="small"
        aria-label={`Copy the ID of ${of}`}
        onClick={async () => {
          await navigator.clipboard?.writeText(id);
          setCopied(true);
        }}
        onMouseLeave={() => setCopied(false)}
      >
        <CopyIcon fontSize="inherit" />
      </IconButton>
    </Tooltip>
  );
};
