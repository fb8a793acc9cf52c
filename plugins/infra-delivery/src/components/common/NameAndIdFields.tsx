import { givenIdFromName } from '@infra-delivery/plugin-infra-delivery-common';
import TextField from '@material-ui/core/TextField';
import { useState } from 'react';

/**
 * A new resource's Name and Id fields: the id follows the name (`AWS region` → `aws-region`)
 * until the person writes one, and is fixed (greyed) once the resource exists, since others
 * name it by its id. A problem replaces a field's help.
 */
export const NameAndIdFields = ({
  idPrefix,
  name,
  givenId,
  fixedId,
  onChange,
  help,
  problems = {},
}: {
  /** The fields' element ids start with it. */
  idPrefix: string;
  name: string;
  givenId: string;
  /** The resource exists: its id stays. */
  fixedId: boolean;
  onChange: (change: { name?: string; givenId?: string }) => void;
  help: { name: string; givenId: string };
  problems?: { name?: string; givenId?: string };
}) => {
  const [givenIdEdited, setGivenIdEdited] = useState(false);
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label="Name"
        required
        value={name}
        error={Boolean(problems.name)}
        helperText={problems.name ?? help.name}
        onChange={event =>
          onChange({
            name: event.target.value,
            ...(!fixedId &&
              !givenIdEdited && {
                givenId: givenIdFromName(event.target.value, ''),
              }),
          })
        }
      />
      <TextField
        id={`${idPrefix}-given-id`}
        label="Id"
        required
        disabled={fixedId}
        value={givenId}
        error={Boolean(problems.givenId)}
        helperText={problems.givenId ?? help.givenId}
        onChange={event => {
          setGivenIdEdited(true);
          onChange({ givenId: event.target.value });
        }}
      />
    </>
  );
};
