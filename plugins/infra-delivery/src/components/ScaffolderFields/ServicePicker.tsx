import { useApi } from '@backstage/frontend-plugin-api';
import { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import useAsync from 'react-use/esm/useAsync';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { ServiceOption, ServiceSelect } from './ServiceSelect';

/**
 * What a picker on a property of `type: object` gives the template: `.id` for the action, and
 * `.name`, what people chose, for the form's review (where the id can be hidden with
 * `ui:backstage.review.show: false`).
 */
export interface ServiceChoice {
  id: string;
  name: string;
}

/**
 * A template field whose value is something the service lists, chosen by name: its id on a
 * property of `type: string`, or a {@link ServiceChoice} on one of `type: object`. The field's
 * title is the select's label, and an optional field offers `emptyLabel` (which leaves the
 * property out).
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
  }: FieldExtensionComponentProps<string | ServiceChoice>) => {
    const client = useApi(infraDeliveryApiRef);
    const list = useAsync(() => options.load(client), [client]);
    const choices = list.value ?? [];
    const choose = (id: string | undefined) => {
      if (!id || schema.type !== 'object') {
        onChange(id);
        return;
      }
      const name = choices.find(choice => choice.value === id)?.label ?? id;
      onChange({ id, name });
    };
    return (
      <ServiceSelect
        id={idSchema?.$id ?? options.label}
        label={schema.title ?? options.label}
        helperText={schema.description}
        required={required}
        value={typeof formData === 'object' ? formData.id : formData}
        options={choices}
        loading={list.loading}
        error={list.error}
        invalid={(rawErrors?.length ?? 0) > 0}
        emptyLabel={required ? undefined : options.emptyLabel}
        onChange={choose}
      />
    );
  };
}
