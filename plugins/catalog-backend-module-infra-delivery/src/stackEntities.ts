import { Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_ENVIRONMENT,
  ANNOTATION_PROJECT,
  ANNOTATION_STACKS,
  Environment,
  Project,
  Stack,
} from '@internal/plugin-infra-delivery-common';

/** The origin recorded on every emitted entity. */
export const LOCATION = 'infra-delivery:portal-organization';

export interface EntityOptions {
  defaultOwner: string;
  projectOwners: Record<string, string>;
  portalBaseUrl?: string;
}

export const projectEntityName = (project: Project) =>
  `infra-project-${project.givenId}`;
export const environmentEntityName = (
  project: Project,
  environment: Environment,
) => `infra-${project.givenId}-${environment.givenId}`.slice(0, 63);
/** Stack entities are named by id so that annotations on components can point at them. */
export const stackEntityName = (stackId: string) => `stack-${stackId}`;

function annotations(extra: Record<string, string>) {
  return {
    'backstage.io/managed-by-location': `url:${LOCATION}`,
    'backstage.io/managed-by-origin-location': `url:${LOCATION}`,
    ...extra,
  };
}

/**
 * The catalog's view of the service: each project a System, each environment a Resource of
 * it, each stack a Resource (type `iac-stack`) that depends on its environment and carries the
 * plugin's annotations, so its Stacks and Pipeline runs tabs appear on it.
 */
export function entitiesOf(
  data: {
    projects: Project[];
    environments: Environment[];
    stacks: Stack[];
  },
  options: EntityOptions,
): Entity[] {
  const projects = new Map(data.projects.map(p => [p.id, p]));
  const ownerOf = (project: Project) =>
    options.projectOwners[project.givenId] ?? options.defaultOwner;
  const entities: Entity[] = [];

  for (const project of data.projects) {
    entities.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'System',
      metadata: {
        name: projectEntityName(project),
        title: project.name,
        description: project.description,
        annotations: annotations({ [ANNOTATION_PROJECT]: project.givenId }),
      },
      spec: { owner: ownerOf(project) },
    });
  }

  const environments = new Map<string, string>();
  for (const environment of data.environments) {
    const project = projects.get(environment.projectId);
    if (!project) continue;
    const name = environmentEntityName(project, environment);
    environments.set(environment.id, name);
    entities.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name,
        title: `${project.name} · ${environment.name}`,
        description: environment.description,
        annotations: annotations({
          [ANNOTATION_PROJECT]: project.givenId,
          [ANNOTATION_ENVIRONMENT]: environment.givenId,
        }),
      },
      spec: {
        type: 'environment',
        owner: ownerOf(project),
        system: projectEntityName(project),
      },
    });
  }

  for (const stack of data.stacks) {
    const project = projects.get(stack.projectId);
    if (!project) continue;
    const name = stackEntityName(stack.id);
    const environmentEntity = environments.get(stack.environmentId);
    entities.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name,
        title: stack.name,
        description: stack.description,
        annotations: annotations({
          [ANNOTATION_PROJECT]: project.givenId,
          [ANNOTATION_STACKS]: stack.id,
        }),
        ...(options.portalBaseUrl
          ? {
              links: [
                {
                  url: `${options.portalBaseUrl}/catalog/default/resource/${name}/infra-stacks`,
                  title: 'Stack in the portal',
                },
                {
                  url: `${options.portalBaseUrl}/catalog/default/resource/${name}/infra-runs`,
                  title: 'Pipeline runs',
                },
              ],
            }
          : {}),
      },
      spec: {
        type: 'iac-stack',
        owner: ownerOf(project),
        system: projectEntityName(project),
        ...(environmentEntity
          ? { dependsOn: [`resource:default/${environmentEntity}`] }
          : {}),
      },
    });
  }
  return entities;
}
