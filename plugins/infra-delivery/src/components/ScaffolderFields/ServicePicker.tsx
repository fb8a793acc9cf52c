import { useApi } from '@backstage/frontend-plugin-api';
import { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import useAsync from 'react-use/esm/useAsync';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { ServiceOption, ServiceSelect } from './ServiceSelect';

/**
 * A template field whose value is the id of something the service lists, chosen by name: the
 * field's title is the select's label, and an optional field offers `emptyLabel`.
 */
export function servicePicker(options: {
  /** The label when the template's property has no title. */
  label: string;
  emptyLabel: string;
  load: (client: InfraDeliveryClient) => Promise<ServiceOption[]>;
}) {
  return ({
    formData,
    onChange,
    required,
    rawErrors,
    schema,
    idSchema,
  }: FieldExtensionComponentProps<string>) => {
    const client = useApi(infraDeliveryApiRef);
    const list = useAsync(() => options.load(client), [client]);
    return (
      <ServiceSelect
        id={idSchema?.$id ?? options.label}
        label={schema.title ?? options.label}
        helperText={schema.description}
        required={required}
        value={formData}
        options={list.value ?? []}
        loading={list.loading}
        error={list.error}
        invalid={(rawErrors?.length ?? 0) > 0}
        emptyLabel={required ? undefined : options.emptyLabel}
        onChange={onChange}
      />
    );
  };
}
