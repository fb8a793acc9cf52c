import { useRouteRef as useLegacyRouteRef } from '@backstage/core-plugin-api';
import { useRouteRef } from '@backstage/frontend-plugin-api';
import { createStackRouteRef, legacyCreateStackRouteRef } from '../../routes';
import { choiceLabel, cloudAccountLabel } from './choiceLabel';

/**
 * The stack template that `@infra-delivery/plugin-scaffolder-backend-module-infra-delivery`
 * ships, as the catalog registers it (`templates/infra-delivery-stack/template.yaml`).
 */
export const STACK_TEMPLATE = {
  namespace: 'default',
  templateName: 'infra-delivery-stack',
};

/**
 * What the template's form starts with: where the stack goes (its first step), and the cloud
 * account it deploys into.
 */
export interface StackPreset {
  place?: {
    project: { id: string; name: string; givenId: string };
    environment: { id: string; name: string; givenId: string };
  };
  cloudAccount?: { id: string; name: string; cloudId: string };
}

/** The template page's route in the new frontend system; undefined in a legacy app. */
function useTemplateRoute() {
  try {
    return useRouteRef(createStackRouteRef);
  } catch {
    return undefined;
  }
}

/** The template page's route in a legacy app; undefined where the app bound it to nothing. */
function useLegacyTemplateRoute() {
  try {
    return useLegacyRouteRef(legacyCreateStackRouteRef);
  } catch {
    return undefined;
  }
}

/**
 * The path of the stack template's page, with what `preset` gives already chosen (the
 * scaffolder reads a form's first values from `?formData=`), or undefined where the app bound
 * the `createStack` external route to nothing: no link then, rather than one to a page the app
 * does not have.
 */
export function useCreateStackPath():
  | ((preset?: StackPreset) => string)
  | undefined {
  const route = useTemplateRoute();
  const legacyRoute = useLegacyTemplateRoute();
  const templatePath = route ?? legacyRoute;
  if (!templatePath) return undefined;
  return ({ place, cloudAccount } = {}) => {
    const path = templatePath(STACK_TEMPLATE);
    if (!place && !cloudAccount) return path;
    // The template's fields, as its pickers fill them in: the ids for the action, the labels
    // their selects show for the review.
    const formData = {
      ...(place && {
        where: {
          projectId: place.project.id,
          project: choiceLabel(place.project),
          environmentId: place.environment.id,
          environment: choiceLabel(place.environment),
        },
      }),
      ...(cloudAccount && {
        cloudAccount: {
          id: cloudAccount.id,
          name: cloudAccountLabel(cloudAccount),
        },
      }),
    };
    return `${path}?${new URLSearchParams({
      formData: JSON.stringify(formData),
    })}`;
  };
}
